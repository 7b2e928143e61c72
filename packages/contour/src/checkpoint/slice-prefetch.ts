/**
 * What a cold review hands to Fovea's parsing threads while its own thread measures the change
 * (`ProjectSlice.prefetch`): the files the review goes on to parse. As soon as the slice is listed, the files whose
 * text names a changed path, which import reach parses in every review (its first backward level, `namingFiles`),
 * then the changed files' siblings in the change's languages, in the order clone search examines them; as soon as a
 * changed file's staged side is parsed, the files it imports (import reach's first forward level, and clone search's
 * first neighbours). Clone search examines neighbours only for a change with a callable that could have clones, and
 * stops once it has enough that could hold one, and import reach may stop before a forward level: a file handed over
 * may go unused, so at most `PREFETCH_FILES` of each kind are, a bounded cost on the other core. On two cores the
 * slice's parses then no longer wait for the change's.
 */
import { posix } from "node:path";
import { type FileFacts, languageOf, resolveImport } from "pi-fovea/engine";
import { MAX_CLONE_FILES } from "./clone-candidates.ts";
import { namingFiles } from "./import-reach.ts";
import type { ProjectSlice } from "./project-slice.ts";

/**
 * Siblings, and files one changed file imports, handed over at most: clone search examines at least
 * `MAX_CLONE_FILES` neighbours where it has as many, often more.
 */
export const PREFETCH_FILES = 2 * MAX_CLONE_FILES;

/** The files of `slice` to hand over for a change of `changedPaths` whose after sides are `afterPaths`, in order. */
export function listedPrefetch(
	slice: Pick<ProjectSlice, "texts" | "project">,
	changedPaths: ReadonlySet<string>,
	afterPaths: readonly string[],
): string[] {
	const out = new Set(namingFiles(slice, changedPaths, changedPaths).candidates);
	const dirs = new Set(afterPaths.map((path) => posix.dirname(path)));
	const languages = new Set(afterPaths.map((path) => languageOf(path)));
	const siblings = [...slice.project.context.files]
		.filter(
			(path) =>
				!changedPaths.has(path) && dirs.has(posix.dirname(path)) && languages.has(languageOf(path)) && !out.has(path),
		)
		.sort();
	for (const path of siblings.slice(0, PREFETCH_FILES)) out.add(path);
	return [...out];
}

/** The files of `slice` that the file of `facts` (a changed file's staged side) imports, outside the change. */
export function importedPrefetch(
	slice: Pick<ProjectSlice, "project">,
	facts: FileFacts,
	changedPaths: ReadonlySet<string>,
): string[] {
	const out = new Set<string>();
	for (const fact of facts.imports)
		for (const target of resolveImport(facts, fact, slice.project.context))
			if (!changedPaths.has(target)) out.add(target);
	return [...out].slice(0, PREFETCH_FILES);
}
