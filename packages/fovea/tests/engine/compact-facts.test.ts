/**
 * compactFacts: strings cut from a source are replaced by standalone copies, short or long (the two take different
 * paths), others are only shared, and either way the facts read exactly as before, whatever the characters.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { compactFacts } from "../../src/engine/model/compact-facts.ts";
import { callSitesOf, type FileFacts } from "../../src/engine/model/facts.ts";

/** Cut from a larger text, as names and signatures are cut from a file's source. */
function cut(text: string): string {
	const source = `${"x".repeat(500)}${text}${"y".repeat(500)}`;
	return source.slice(500, 500 + text.length);
}

const NAMES = [
	"f",
	"twelve_chars",
	"thirteen_char",
	"aVeryLongIdentifierNameThatIsSurelySliced",
	"naïve_ünïcödé_ñame_longer_than_13",
	"emoji_😀_in_a_long_enough_name",
	"lone_surrogate_\ud800_in_a_long_name",
	'quote_"_and_backslash_\\_and_newline_\n_inside',
];

function factsOf(names: readonly string[]): FileFacts {
	return {
		path: "src/a.ts",
		language: "typescript",
		hash: "h",
		bytes: 1,
		lines: 1,
		symbols: names.map((name, i) => ({
			name: cut(name),
			kind: "method",
			line: i + 1,
			endLine: i + 1,
			signature: cut(`function ${name}(value: string): void`),
			container: cut(`Container_${name}`),
			exported: true,
		})),
		imports: [{ specifier: cut(`./${names[3]}`), line: 1, names: names.map(cut) }],
		calls: callSitesOf(names.map((name, i) => ({ callee: cut(name), line: i + 1, caller: cut(name) }))),
		inherits: [{ symbol: cut(names[3] as string), base: cut(names[4] as string), line: 1, relation: "extends" }],
		package: cut("a.long.package.name.for.sharing"),
		parseErrors: 0,
	};
}

describe("compactFacts", () => {
	for (const cutFromSource of [true, false]) {
		it(`keeps every string exactly, short and long, ASCII or not (cutFromSource: ${cutFromSource})`, () => {
			const facts = factsOf(NAMES);
			const before = structuredClone(facts);
			assert.equal(compactFacts(facts, { cutFromSource }), facts, "compacted in place");
			assert.deepEqual(facts, before);
		});
	}

	it("gives equal strings of two files as equal values", () => {
		const first = compactFacts(factsOf(NAMES), { cutFromSource: true });
		const second = compactFacts(structuredClone(factsOf(NAMES)));
		assert.deepEqual(second.calls, first.calls);
		assert.deepEqual(second.symbols, first.symbols);
	});
});

describe("compactFacts of cloned facts", () => {
	it("builds every fact again with exactly the properties it had, optional ones absent or present", () => {
		const facts = factsOf(NAMES);
		// Every combination of the optional properties.
		delete facts.symbols[1]?.container;
		delete facts.symbols[2]?.exported;
		delete facts.symbols[3]?.container;
		delete facts.symbols[3]?.exported;
		facts.imports.push({ specifier: "./plain", line: 2 });
		facts.calls.caller[0] = "";
		const cloned = structuredClone(facts);
		const before = structuredClone(facts);
		const objects = [...cloned.symbols, ...cloned.imports, ...cloned.inherits];
		compactFacts(cloned, { cloned: true });
		assert.deepEqual(cloned, before, "the same facts, absent properties still absent");
		for (const fact of [...cloned.symbols, ...cloned.imports, ...cloned.inherits]) {
			assert.equal(objects.includes(fact), false, "each fact is a new object");
		}
	});
});

describe("compactFacts keeps no spare room in the lists an extraction grew", () => {
	it("facts cut from a source hold their lists at exactly their length", () => {
		setFlagsFromString("--expose-gc");
		const gc = runInNewContext("gc") as () => void;
		const heap = () => {
			gc();
			gc();
			return process.memoryUsage().heapUsed;
		};
		/** Facts as the extractor builds them: every list grown by push, one entry at a time. */
		const grown = (i: number): FileFacts => {
			const facts: FileFacts = {
				path: `src/f${i}.ts`,
				language: "typescript",
				hash: `h${i}`,
				bytes: 1,
				lines: 1,
				symbols: [],
				imports: [],
				calls: callSitesOf([]),
				inherits: [],
				parseErrors: 0,
			};
			for (let k = 0; k < 9; k++)
				facts.symbols.push({ name: `s${k}`, kind: "function", line: k, endLine: k, signature: `s${k}()` });
			for (let k = 0; k < 3; k++) facts.imports.push({ specifier: `./m${k}`, line: k });
			for (let k = 0; k < 40; k++) {
				facts.calls.callee.push(`s${k % 9}`);
				facts.calls.caller.push("");
				facts.calls.line.push(k);
			}
			return facts;
		};
		const files = 2000;
		const before = heap();
		const kept = Array.from({ length: files }, (_, i) => compactFacts(grown(i), { cutFromSource: true }));
		const perFile = (heap() - before) / files;
		assert.equal(kept.length, files);
		assert.equal(kept[0]?.calls.callee.length, 40);
		// 9 symbols, 3 imports and 40 call sites in three columns take ~2.5 KB at their length, ~2.7 KB grown.
		assert.ok(perFile <= 2600, `${Math.round(perFile)} bytes of heap per file`);
	});
});
