/**
 * The baseline-compiler scope around grammar compiles: the process-wide flag is on exactly while at least one compile
 * of this thread runs (overlapping ones included), goes off after a failed compile too, and stays on in a process
 * that keeps it everywhere (a CLI), from then on unless an extraction of the size it named is announced. Through the
 * real scope, grammars still load and parse either way.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
	baselineCompilerEverywhere,
	baselineCompilerScope,
	expectExtraction,
	useBaselineCompilerEverywhere,
} from "../../src/engine/parse/grammar-compiler.ts";
import { loadExtractor } from "../../src/engine/parse/parser.ts";

function recorder(): { flags: string[]; set: (flags: string) => void } {
	const flags: string[] = [];
	return { flags, set: (value) => flags.push(value) };
}

describe("baselineCompilerScope", () => {
	it("turns the flag on for the first of overlapping compiles and off after the last", async () => {
		const { flags, set } = recorder();
		const scope = baselineCompilerScope(set, () => false);
		let finishFirst = (): void => {};
		const first = scope(() => new Promise<string>((resolve) => (finishFirst = () => resolve("a"))));
		const second = scope(async () => {
			assert.deepEqual(flags, ["--liftoff-only"], "on while both run, set once");
			return "b";
		});
		assert.equal(await second, "b");
		assert.deepEqual(flags, ["--liftoff-only"], "still on: the first compile has not ended");
		finishFirst();
		assert.equal(await first, "a");
		assert.deepEqual(flags, ["--liftoff-only", "--no-liftoff-only"]);
	});

	it("turns the flag off after a compile that fails, and on again for the next", async () => {
		const { flags, set } = recorder();
		const scope = baselineCompilerScope(set, () => false);
		await assert.rejects(
			scope(async () => {
				throw new Error("bad grammar");
			}),
			/bad grammar/,
		);
		assert.deepEqual(flags, ["--liftoff-only", "--no-liftoff-only"]);
		await scope(async () => 1);
		assert.deepEqual(flags, ["--liftoff-only", "--no-liftoff-only", "--liftoff-only", "--no-liftoff-only"]);
	});

	it("never turns off a flag the whole process keeps", async () => {
		const { flags, set } = recorder();
		await baselineCompilerScope(set, () => true)(async () => 1);
		assert.deepEqual(flags, ["--liftoff-only"]);
	});

	it("loads grammars through the real scope, concurrently, and they parse", async () => {
		const extractor = await loadExtractor(["typescript", "python", "go"]);
		const facts = extractor.extract("a.ts", "export function ok(): number { return 1; }\n");
		assert.deepEqual(
			facts.symbols.map((s) => s.name),
			["ok"],
		);
		assert.equal(extractor.extract("b.py", "def ok():\n    return 1\n").symbols[0]?.name, "ok");
	});

	it("keeps the baseline compiler everywhere once asked, until an extraction of the bytes named is announced", async () => {
		assert.equal(baselineCompilerEverywhere(), false);
		useBaselineCompilerEverywhere(1_000_000);
		assert.equal(baselineCompilerEverywhere(), true);
		expectExtraction(999_999);
		assert.equal(baselineCompilerEverywhere(), true, "a small run stays on the baseline compiler");
		expectExtraction(1_000_000);
		assert.equal(baselineCompilerEverywhere(), false, "a megabyte of source: the runtime may be optimized");
		useBaselineCompilerEverywhere();
		expectExtraction(Number.MAX_SAFE_INTEGER);
		assert.equal(baselineCompilerEverywhere(), true, "without a byte count, for good");
		const extractor = await loadExtractor(["java"]);
		assert.equal(extractor.extract("A.java", "class A { int ok() { return 1; } }\n").symbols[1]?.name, "ok");
	});
});
