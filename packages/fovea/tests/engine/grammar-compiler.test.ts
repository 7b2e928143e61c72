/**
 * The baseline-compiler scope around grammar compiles: the process-wide flag is on exactly while at least one compile
 * of this thread runs (overlapping ones included), goes off after a failed compile too, and stays on in a process
 * that keeps it everywhere (a CLI), from then on unless an extraction of the size it named is announced. Through the
 * real scope, grammars still load and parse either way; in a real process a module compiled in the scope stays on the
 * baseline compiler and one compiled after it is optimized when hot.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import {
	afterGrammarCompileFlags,
	baselineCompilerEverywhere,
	baselineCompilerScope,
	expectExtraction,
	GRAMMAR_COMPILE_FLAGS,
	useBaselineCompilerEverywhere,
} from "../../src/engine/parse/grammar-compiler.ts";
import { loadExtractor } from "../../src/engine/parse/parser.ts";

const ON = GRAMMAR_COMPILE_FLAGS;
const OFF = afterGrammarCompileFlags(false);

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
			assert.deepEqual(flags, [ON], "on while both run, set once");
			return "b";
		});
		assert.equal(await second, "b");
		assert.deepEqual(flags, [ON], "still on: the first compile has not ended");
		finishFirst();
		assert.equal(await first, "a");
		assert.deepEqual(flags, [ON, OFF]);
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
		assert.deepEqual(flags, [ON, OFF]);
		await scope(async () => 1);
		assert.deepEqual(flags, [ON, OFF, ON, OFF]);
	});

	it("never turns off the baseline compiler the whole process keeps, but compiles lazily again", async () => {
		const { flags, set } = recorder();
		await baselineCompilerScope(set, () => true)(async () => 1);
		assert.deepEqual(flags, [ON, "--wasm-lazy-compilation"]);
	});

	it("gives back the optimizing tiers --liftoff-only took, except those the process was started without", () => {
		assert.equal(OFF, "--no-liftoff-only --wasm-lazy-compilation --wasm-tier-up --wasm-dynamic-tiering");
		assert.equal(
			afterGrammarCompileFlags(false, ["--no-wasm-tier-up", "--no-wasm-lazy-compilation"]),
			"--no-liftoff-only --no-wasm-lazy-compilation --no-wasm-tier-up --wasm-dynamic-tiering",
		);
	});

	it("in a real process, keeps what it compiles on the baseline compiler and lets later modules be optimized", () => {
		// A module exporting f(n) = n + (n-1) + ... + 1, whose loop makes it hot; `--wasm-sync-tier-up` optimizes a hot
		// function at once, so its tier is known when the calls return. The second module differs by its export's name:
		// V8 shares the compiled code of identical bytes. The first is compiled in the scope but first called after it,
		// as a grammar is.
		const script = `
			import { onBaselineCompiler } from ${JSON.stringify(new URL("../../src/engine/parse/grammar-compiler.ts", import.meta.url).href)};
			const module = (name) => new Uint8Array([0,97,115,109,1,0,0,0,1,6,1,96,1,127,1,127,3,2,1,0,7,5,1,1,name,0,0,10,35,1,33,
				1,1,127,2,64,3,64,32,0,69,13,1,32,1,32,0,106,33,1,32,0,65,1,107,33,0,12,0,11,11,32,1,11]);
			const hot = (f) => { for (let i = 0; i < 20; i++) f(100000); return f; };
			const inScope = (await onBaselineCompiler(() => WebAssembly.instantiate(module(102)))).instance.exports.f;
			const after = (await WebAssembly.instantiate(module(103))).instance.exports.g;
			hot(inScope);
			hot(after);
			console.log(JSON.stringify({ inScope: %IsLiftoffFunction(inScope), after: %IsTurboFanFunction(after) }));`;
		const child = spawnSync(
			process.execPath,
			["--allow-natives-syntax", "--wasm-sync-tier-up", "--input-type=module", "-e", script],
			{ encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" }, timeout: 60_000 },
		);
		assert.equal(child.status, 0, child.stderr);
		assert.deepEqual(JSON.parse(child.stdout), { inScope: true, after: true });
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
