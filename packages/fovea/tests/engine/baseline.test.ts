/**
 * The semantic baseline (`engine/observe/baseline.ts`, `engine/observe/fingerprint.ts`) over facts the real extractor
 * gives: formatting is not drift (a trailing comma a formatter adds included), a file that stops being mapped is told
 * once as such and not as deleted, and a deletion is told as one.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { FileFacts } from "../../src/engine/model/facts.ts";
import { PAGED_OUT } from "../../src/engine/model/index.ts";
import { Baseline } from "../../src/engine/observe/baseline.ts";
import { type Extractor, loadExtractor } from "../../src/engine/parse/parser.ts";
import { summarize } from "../../src/engine/refresh/fact-budget.ts";

let extractor: Extractor;
before(async () => {
	extractor = await loadExtractor(["typescript"]);
});

const facts = (source: string): Map<string, FileFacts> =>
	new Map([["src/a.ts", extractor.extract("src/a.ts", source)]]);
const notAuthored = () => false;

const ORIGINAL = "export function pay(amount: number, currency: string): number {\n\treturn amount;\n}\n";
/** `ORIGINAL` as a formatter leaves it: a comment, one parameter a line, a trailing comma. */
const FORMATTED =
	"// pays\nexport function pay(\n\tamount: number,\n\tcurrency: string,\n): number {\n\treturn amount;\n}\n";

describe("Baseline", () => {
	it("keeps of each file only what describing its drift reads: the facts' own symbols and imports, no copy", () => {
		const baseline = new Baseline();
		const files = facts(`import { x } from "./x";\n${ORIGINAL}`);
		const whole = files.get("src/a.ts") as FileFacts;
		assert.ok(whole.calls.callee.length > 0 || whole.contentTerms !== undefined, "facts with more than names");
		baseline.establish(files);
		const kept = baseline.kept("src/a.ts");
		assert.deepEqual(Object.keys(kept ?? {}).sort(), ["imports", "symbols"]);
		assert.equal(kept?.symbols, whole.symbols, "the facts' own list, not a copy");
		assert.equal(kept?.imports, whole.imports);
	});

	it("does not take formatting for drift, a trailing comma included", () => {
		const baseline = new Baseline();
		baseline.establish(facts(ORIGINAL));
		assert.deepEqual(baseline.advance(facts(FORMATTED), undefined, notAuthored), []);
		const renamed = FORMATTED.replace("currency", "unit");
		assert.deepEqual(
			baseline.advance(facts(renamed), undefined, notAuthored).map((d) => [d.kind, d.details]),
			[["changed", ["~ function pay: export function pay( amount: number, unit: string, ): number"]]],
		);
	});

	it("tells a summarized file's signature change, its signatures paged out, and not its formatting", () => {
		const summarized = (source: string) =>
			new Map([...facts(source)].map(([path, whole]) => [path, summarize(whole, true, true)]));
		const first = summarized(ORIGINAL);
		assert.equal(first.get("src/a.ts")?.symbols[0]?.signature, PAGED_OUT);
		const baseline = new Baseline();
		baseline.establish(first);
		assert.deepEqual(baseline.advance(summarized(FORMATTED), undefined, notAuthored), []);
		const drift = baseline.advance(summarized(FORMATTED.replace("string", "Currency")), undefined, notAuthored);
		assert.deepEqual(
			drift.map((d) => [d.kind, d.details]),
			[["changed", ["~ a signature changed"]]],
		);
	});

	it("tells a file that became a gap once, as no longer mapped; coming back unchanged is no drift", () => {
		const baseline = new Baseline();
		baseline.establish(facts(ORIGINAL));
		const gaps = new Map([["src/a.ts", "too-large"]]);
		const unmapped = baseline.advance(new Map(), undefined, notAuthored, gaps);
		assert.deepEqual(
			unmapped.map((d) => [d.path, d.kind, d.details]),
			[["src/a.ts", "changed", ["no longer mapped (too-large)"]]],
		);
		assert.deepEqual(baseline.advance(new Map(), undefined, notAuthored, gaps), [], "told once");
		assert.equal(baseline.size, 1, "the file keeps its baseline while it is a gap");
		assert.deepEqual(baseline.advance(facts(ORIGINAL), undefined, notAuthored), [], "back as it was");
		const deleted = baseline.advance(new Map(), undefined, notAuthored);
		assert.deepEqual(
			deleted.map((d) => [d.kind, d.details]),
			[["deleted", ["deleted"]]],
		);
		assert.equal(baseline.size, 0);
	});
});
