/**
 * Likely clone candidates measured inside the code map's parse: given each file the map must parse, the shared
 * parse measures the ones clone search is likely to choose (neighbours of the change holding a callable of a similar
 * span, files resembling a changed callable), caches their measures under the map's content hash, and gives the map
 * the same facts the engine would. Other files in a changed file's language are parsed for their facts only; the
 * changed files and other languages are left to the engine.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type FileFacts, loadExtractor, type SharedParse } from "pi-fovea/engine";
import { candidateMeasures } from "../../src/checkpoint/candidate-measures.ts";
import { cloneTargets } from "../../src/checkpoint/clone-candidates.ts";
import { MeasureCache } from "../../src/checkpoint/measure-cache.ts";
import { emptyWork } from "../../src/report/report.ts";
import { ensureMeasureLanguages, measureFile } from "../../src/review/index.ts";
import { encoder } from "./fixtures.ts";

const OTHER_NAMES = ["alpha", "beta", "gamma", "delta", "epsilon"];
const TARGET = "app/feature/target.ts";

describe("candidate measures", () => {
	it("measures neighbours with a callable of that span and look-alikes; leaves the rest to the engine", async () => {
		await ensureMeasureLanguages(["x.ts"]);
		const extractor = await loadExtractor(["typescript", "python"]);
		const targetSource = `import { pad } from "../shared/helpers.ts";\n${encoder("encodeTopics")}`;
		const targetFacts = extractor.extract(TARGET, targetSource);
		const targetMeasure = measureFile(TARGET, targetSource);
		const cache = new MeasureCache();
		const work = emptyWork();
		const candidates = candidateMeasures(
			{
				changedPaths: new Set([TARGET]),
				after: [{ path: TARGET, imports: [{ specifier: "../shared/helpers.ts", line: 1 }] }],
				afterFacts: new Map([[TARGET, targetFacts]]),
				targets: cloneTargets([
					{
						change: { path: TARGET, status: "A" } as never,
						after: { path: TARGET, measure: targetMeasure },
					},
				]),
				maxBytes: 1024 * 1024,
			},
			cache,
			work,
		);
		assert.ok(candidates, "the change has a callable large enough to have clones");
		const files: Record<string, string> = {
			"app/feature/sibling.ts": encoder("sibling", OTHER_NAMES),
			"lib/deep/user.ts": `import { target } from "../../app/feature/target.js";\n${encoder("user", OTHER_NAMES)}`,
			"app/shared/helpers.ts": encoder("pad", OTHER_NAMES),
			"lib/far/copy.ts": encoder("copied"),
			"lib/far/unrelated.ts": encoder("unrelated", OTHER_NAMES),
			"app/feature/short.ts": "export function short(x: number): number {\n\treturn x;\n}\n",
			[TARGET]: targetSource,
			"app/feature/tool.py": "def tool(x):\n    return x\n",
		};
		const facts = new Map<string, FileFacts | undefined>();
		for (const [path, source] of Object.entries(files)) {
			const language = path.endsWith(".py") ? "python" : "typescript";
			const job: Parameters<SharedParse>[0] = { path, language, source };
			facts.set(path, candidates.parse(job));
		}
		const measured = ["app/feature/sibling.ts", "lib/deep/user.ts", "app/shared/helpers.ts", "lib/far/copy.ts"];
		const leftToEngine = [TARGET, "app/feature/tool.py"]; // changed, and not in a changed file's language
		for (const [path, given] of facts) {
			const source = files[path] as string;
			if (leftToEngine.includes(path)) {
				assert.equal(given, undefined, `${path} is left to the engine`);
				continue;
			}
			assert.deepEqual(given, extractor.extract(path, source), `${path}: the engine's facts`);
			const cached = cache.measure(`fovea-${given?.hash}`, path, 1024 * 1024);
			if (measured.includes(path)) {
				assert.deepEqual(cached, measureFile(path, source), `${path}: measured as clone search would`);
			} else assert.equal(cached, undefined, `${path}: parsed for the map, not measured`);
		}
		assert.equal(work.cloneFilesMeasured, measured.length);
		assert.equal(work.parses, 0, "the parses are the map's");
	});

	it("gives nothing to a change without a callable large enough to have clones", () => {
		const small = measureFile(TARGET, "export function tiny(x: number): number {\n\treturn x;\n}\n");
		const candidates = candidateMeasures(
			{
				changedPaths: new Set([TARGET]),
				after: [{ path: TARGET, imports: [] }],
				afterFacts: new Map(),
				targets: cloneTargets([
					{ change: { path: TARGET, status: "A" } as never, after: { path: TARGET, measure: small } },
				]),
				maxBytes: 1024 * 1024,
			},
			new MeasureCache(),
			emptyWork(),
		);
		assert.equal(candidates, undefined);
	});
});
