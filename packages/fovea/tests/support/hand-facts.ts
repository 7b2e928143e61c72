/**
 * Facts written by hand for unit tests of the graph and the ranking: a file's facts with defaults for what a test
 * does not care about, and a function symbol.
 */
import type { FileFacts, SymbolFact } from "../../src/engine/model/facts.ts";
import { noCalls } from "../../src/engine/model/facts.ts";

/** A TypeScript file's facts: no symbols, imports, calls or inherits unless `parts` gives them. */
export function file(path: string, parts: Partial<FileFacts> = {}): FileFacts {
	return {
		path,
		language: "typescript",
		hash: path,
		bytes: 100,
		lines: 50,
		symbols: [],
		imports: [],
		calls: noCalls(),
		inherits: [],
		parseErrors: 0,
		...parts,
	};
}

/** A function symbol at `line`, six lines long. */
export const fn = (name: string, line: number, extra: Partial<SymbolFact> = {}): SymbolFact => ({
	name,
	kind: "function",
	line,
	endLine: line + 5,
	signature: `function ${name}()`,
	...extra,
});
