/**
 * The files that import files now gone (deleted, or no longer mapped): an impact query about a deleted file has no
 * node to seed heat from, yet the files that import it are exactly what the deletion exposes. Found by resolving
 * every import as if the gone files were still there, so the answer follows the same resolution rules as the graph.
 */
import type { FileFacts } from "../model/index.ts";
import { type ResolutionContext, resolveImport } from "../resolve/index.ts";

/** Root-relative paths of the files in `files` with an import that resolves to one of `gone`, in `files` order. */
export function importersOf(
	gone: readonly string[],
	files: ReadonlyMap<string, FileFacts>,
	context: ResolutionContext,
): string[] {
	const missing = new Set(gone.filter((path) => !files.has(path)));
	if (missing.size === 0) return [];
	const widened: ResolutionContext = { ...context, files: new Set([...context.files, ...missing]) };
	const importers: string[] = [];
	for (const [path, facts] of files) {
		if (facts.imports.some((imported) => resolveImport(facts, imported, widened).some((to) => missing.has(to))))
			importers.push(path);
	}
	return importers;
}
