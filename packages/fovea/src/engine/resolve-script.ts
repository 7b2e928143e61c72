/**
 * Import resolution for TypeScript and JavaScript: relative specifiers probe the source extensions (preferring a
 * `.ts` source to the `.js` it compiles to), then `/index.*`; bare specifiers go through tsconfig `paths` (exact
 * patterns first, then the longest `*` prefix, targets in order) and then `baseUrl`.
 */
import { dirnameOf, firstExisting, joinPath } from "./project-paths.ts";

/** The tsconfig settings that resolve bare specifiers. */
export interface TsconfigPaths {
	/** Root-relative directory of the tsconfig (`""` for the root). */
	baseDir: string;
	baseUrl?: string;
	paths?: Record<string, string[]>;
}

const SCRIPT_EXTENSIONS = [".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"];
const SOURCE_FOR_OUTPUT: Record<string, string[]> = {
	".js": [".ts", ".tsx", ".d.ts"],
	".jsx": [".tsx"],
	".mjs": [".mts", ".d.mts"],
	".cjs": [".cts", ".d.cts"],
};

/** What script resolution looks at (see `ResolutionContext`). */
export interface ScriptContext {
	files: ReadonlySet<string>;
	tsconfig?: TsconfigPaths | undefined;
	nestedTsconfigs?: ReadonlyMap<string, TsconfigPaths | null> | undefined;
}

/** The settings of the configuration nearest above `fromPath`: a nested one, else the root's. */
function tsconfigOf(fromPath: string, context: ScriptContext): TsconfigPaths | undefined {
	const nested = context.nestedTsconfigs;
	if (nested !== undefined && nested.size > 0) {
		for (let dir = dirnameOf(fromPath); dir !== ""; dir = dirnameOf(dir)) {
			const found = nested.get(dir);
			if (found !== undefined) return found ?? undefined;
		}
	}
	return context.tsconfig;
}

/** The files a TypeScript/JavaScript specifier written in `fromPath` names: relative, or through tsconfig paths. */
export function resolveScript(fromPath: string, spec: string, context: ScriptContext): string[] {
	if (spec === "." || spec === ".." || spec.startsWith("./") || spec.startsWith("../")) {
		return probeScript(joinPath(dirnameOf(fromPath), spec), context.files);
	}
	if (spec.startsWith("/")) return [];
	const tsconfig = tsconfigOf(fromPath, context);
	if (tsconfig === undefined) return [];
	const base = joinPath(tsconfig.baseDir, tsconfig.baseUrl ?? ".");
	if (base === undefined) return [];
	for (const target of pathTargets(spec, tsconfig.paths)) {
		const found = probeScript(joinPath(base, target), context.files);
		if (found.length > 0) return found;
	}
	return tsconfig.baseUrl === undefined ? [] : probeScript(joinPath(base, spec), context.files);
}

/** Substituted targets of the `paths` pattern that matches `spec`: an exact pattern, else the longest prefix. */
function pathTargets(spec: string, paths: Record<string, string[]> | undefined): string[] {
	if (paths === undefined) return [];
	if (Object.hasOwn(paths, spec) && !spec.includes("*")) return paths[spec] ?? [];
	let best: { prefix: number; capture: string; targets: string[] } | undefined;
	for (const [pattern, targets] of Object.entries(paths)) {
		const star = pattern.indexOf("*");
		if (star < 0) continue;
		const prefix = pattern.slice(0, star);
		const suffix = pattern.slice(star + 1);
		if (spec.length < prefix.length + suffix.length || !spec.startsWith(prefix) || !spec.endsWith(suffix)) continue;
		if (best !== undefined && best.prefix >= prefix.length) continue;
		best = { prefix: prefix.length, capture: spec.slice(prefix.length, spec.length - suffix.length), targets };
	}
	if (best === undefined) return [];
	const capture = best.capture;
	return best.targets.map((target) => target.replace("*", capture));
}

function probeScript(base: string | undefined, files: ReadonlySet<string>): string[] {
	if (base === undefined) return [];
	const candidates: string[] = [];
	const dot = base.lastIndexOf(".");
	const ext = dot > base.lastIndexOf("/") ? base.slice(dot) : "";
	const sources = SOURCE_FOR_OUTPUT[ext];
	if (sources !== undefined) for (const source of sources) candidates.push(base.slice(0, dot) + source);
	candidates.push(base);
	// TypeScript with `allowJs` takes `./view.js` for `view.jsx` too, as it takes it for `view.tsx`.
	if (ext === ".js") candidates.push(`${base.slice(0, dot)}.jsx`);
	for (const extension of SCRIPT_EXTENSIONS) candidates.push(base + extension);
	const dir = base === "" ? "index" : `${base}/index`;
	for (const extension of SCRIPT_EXTENSIONS) candidates.push(dir + extension);
	return firstExisting(files, candidates);
}
