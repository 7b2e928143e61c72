/**
 * Tests that name what a change defines: the test files whose text holds the names the changed files define at
 * their top level (every word of `createRenderer`, of `unraisable_exception`), rarer names counting more. It finds the
 * test no edge links to the change: one that reaches the module through a package's entry point or a fixture
 * (`@vue/runtime-test`, pytest's `pytester`), one that only names a type or a hook, one of a Go package that uses a
 * name without a call the extractor sees. The reach misses those, and text likeness looks for a file written like the
 * changed one, which a test rarely is.
 *
 * A name is matched by its words in the root's content index (`ContentIndex.filesWith`), the files that hold every
 * one of them: the index keeps split, stemmed words, not whole identifiers, so a file holding `create` and `render`
 * apart counts too; the rarer the name's words together, the fewer such files and the more a match weighs. A name
 * held by more than half of the files tells none apart (as in `similar-files.ts`), and a name that starts with `_`
 * is private to its file. A test scores the sum of the weights (idf) of the names it holds.
 */
import type { CodeGraph } from "../graph/index.ts";
import { terms } from "../terms/index.ts";
import type { ContentIndex } from "./content-index.ts";
import { fileRole } from "./file-role.ts";
import { MAX_DOC_SHARE } from "./similar-files.ts";

/** Names kept per test as its evidence, rarest first. */
const EVIDENCE_NAMES = 3;

/** A test that names what the change defines: the summed weight of the names it holds, and the rarest of them. */
export interface NamingTest {
	id: number;
	score: number;
	/** Up to three of the names whose words it holds, rarest first: what `holds the words of …` says. */
	names: string[];
}

/**
 * The test files (by node id) that name the top-level definitions of the `changed` files (see the module comment),
 * best first, at most `limit`, the changed files left out. Pure over the graph and the index.
 */
export function testsNaming(
	graph: CodeGraph,
	content: ContentIndex,
	changed: readonly number[],
	limit: number,
): NamingTest[] {
	const leaveOut = new Set(changed);
	const n = content.size;
	const weighed: { name: string; idf: number; holders: number[] }[] = [];
	// Names share words (`createApp`, `createRenderer`): each word's holders are read from the index once.
	const holdersOf = new Map<string, number[]>();
	const filesWith = (word: string): number[] => {
		let holders = holdersOf.get(word);
		if (holders === undefined) {
			holders = content.filesWith(word);
			holdersOf.set(word, holders);
		}
		return holders;
	};
	for (const name of definedNames(graph, changed)) {
		const words = [...new Set(terms(name))];
		if (words.length === 0) continue;
		const holders = holdersOfAll(words.map(filesWith)).filter((id) => !leaveOut.has(id));
		const df = holders.length;
		if (df === 0 || df > n * MAX_DOC_SHARE) continue;
		weighed.push({ name, idf: content.idf(df), holders });
	}
	weighed.sort((a, b) => b.idf - a.idf || (a.name < b.name ? -1 : 1));
	const found = new Map<number, NamingTest>();
	const isTest = new Map<number, boolean>();
	for (const { name, idf, holders } of weighed) {
		for (const id of holders) {
			let test = isTest.get(id);
			if (test === undefined) {
				const path = graph.nodes[id]?.path;
				test = id < graph.fileCount && path !== undefined && fileRole(path) === "test";
				isTest.set(id, test);
			}
			if (!test) continue;
			const seen = found.get(id) ?? { id, score: 0, names: [] };
			seen.score += idf;
			if (seen.names.length < EVIDENCE_NAMES) seen.names.push(name);
			found.set(id, seen);
		}
	}
	return [...found.values()].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
}

/**
 * The distinct names the production files among `files` define at their top level (no container), private ones (`_x`)
 * left out. A test, fixture or benchmark defines cases and helpers, not what other tests call: its names would only
 * find tests written like it.
 */
export function definedNames(graph: CodeGraph, files: readonly number[]): string[] {
	const names = new Set<string>();
	for (const file of files) {
		const path = graph.nodes[file]?.path;
		if (path === undefined || fileRole(path) !== "production") continue;
		for (const id of graph.symbolIds.get(path) ?? []) {
			const node = graph.nodes[id];
			if (node === undefined || node.removed === true || node.container !== undefined) continue;
			if (!node.name.startsWith("_")) names.add(node.name);
		}
	}
	return [...names].sort();
}

/** The files in every one of `lists` (each word's holders), from the shortest list. */
function holdersOfAll(lists: readonly (readonly number[])[]): number[] {
	const sorted = [...lists].sort((a, b) => a.length - b.length);
	let kept = [...(sorted[0] ?? [])];
	for (const list of sorted.slice(1)) {
		if (kept.length === 0) break;
		const has = new Set(list);
		kept = kept.filter((id) => has.has(id));
	}
	return kept;
}
