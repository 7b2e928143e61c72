/**
 * A file's one-line summary where an answer has no warmer names to give for it: the top-level symbols it exports
 * (every top-level symbol for a language without exports), in source order. Shared by the sketch's connected files
 * and the focus answer's files further out.
 */
import type { FileFacts } from "../model/index.ts";

/** Up to `limit` names that summarize `facts` on one line; none for a file that defines nothing at its top level. */
export function outlineNames(facts: FileFacts | undefined, limit: number): string[] {
	if (facts === undefined) return [];
	return facts.symbols
		.filter((symbol) => symbol.exported !== false && symbol.container === undefined)
		.slice(0, limit)
		.map((symbol) => symbol.name);
}
