/**
 * What attention is held on, as the plain string keys `Attention` weighs: a file or directory (its root-relative
 * path), a range of a file's lines (a read with an offset, an edit), or the symbols of one name within a path (a
 * search for an identifier, a focus answer's symbols). Resolved to graph nodes only when heat is seeded (see
 * `attentionSeeds`), so attention stays plain data that outlives the paging of the graph.
 */

/** One thing the agent looked at in a root. */
export type AttentionTarget =
	| { path: string }
	| { path: string; lines: readonly [first: number, last: number] }
	| { path: string; symbol: string };

/** A NUL never occurs in a path or a name, so a key splits back unambiguously. */
const SEPARATOR = "\0";

/** The key `Attention` weighs for `target`. */
export function attentionKey(target: AttentionTarget): string {
	if ("lines" in target) return `${target.path}${SEPARATOR}L${target.lines[0]}-${target.lines[1]}`;
	if ("symbol" in target) return `${target.path}${SEPARATOR}=${target.symbol}`;
	return target.path;
}

/** The target a key names; a plain path for anything that is not a key of a range or a symbol. */
export function attentionTarget(key: string): AttentionTarget {
	const at = key.indexOf(SEPARATOR);
	if (at < 0) return { path: key };
	const path = key.slice(0, at);
	const rest = key.slice(at + 1);
	if (rest.startsWith("=")) return { path, symbol: rest.slice(1) };
	const range = /^L(\d+)-(\d+)$/.exec(rest);
	if (range === null) return { path };
	return { path, lines: [Number(range[1]), Number(range[2])] };
}

/** How a key reads to a person: `src/a.ts`, `src/a.ts:10-24`, `applyTax in src`. */
export function describeAttention(key: string): string {
	const target = attentionTarget(key);
	if ("lines" in target) return `${target.path}:${target.lines[0]}-${target.lines[1]}`;
	if ("symbol" in target) return target.path === "." ? target.symbol : `${target.symbol} in ${target.path}`;
	return target.path;
}
