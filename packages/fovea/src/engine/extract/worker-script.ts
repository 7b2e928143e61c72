/**
 * Which module a parsing thread runs: the package's bundled worker when it stands for the sources, else the
 * worker's TypeScript source beside the engine.
 */
import { bundleStandsForSources } from "../../bundle-record.js";

/**
 * The worker's entry when none is named: the package's bundled worker (`dist/extract-worker.js`, which `npm install`
 * builds beside the CLI) while that bundle stands for the sources, else `worker.ts` beside this module: a worker
 * started from the sources loads Node's type stripper and the engine's modules again in a fresh isolate before its
 * first file, while the main thread parses alone. `engine` is this module's URL: an engine that is itself bundled (a
 * CLI) names its worker (`useExtractWorkerScript`), so only an engine run from its sources (the extension in Pi,
 * tests, benchmarks) looks for the bundle. `isCurrent` is `bundleStandsForSources` (`src/bundle-record.js`), the rule
 * the CLIs' launcher applies (in a checkout: every recorded source unchanged).
 */
export function defaultWorkerScript(
	engine: string = import.meta.url,
	isCurrent: (packageDir: URL) => boolean = bundleStandsForSources,
): URL {
	const sources = new URL("./worker.ts", engine);
	if (!engine.endsWith(".ts")) return sources;
	const packageDir = new URL("../../../", engine);
	try {
		if (isCurrent(packageDir)) return new URL("dist/extract-worker.js", packageDir);
	} catch {
		// an unreadable record is no bundle
	}
	return sources;
}
