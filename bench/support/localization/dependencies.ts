// A diagnostic of impact answers: how many of the files ranked as exposed by a change are in fact what the changed
// file itself imports (its dependencies, which a change does not expose), set beside how many gold files are.
import { resolveImport } from "../../../packages/fovea/src/engine/index.ts";
import type { TreeState } from "./tree-states.ts";

/** The files `path` imports directly, as the engine resolves its imports on this tree. */
export async function directDependencies(state: TreeState, path: string): Promise<Set<string>> {
	const { snapshot } = await state.map.refresh({ paths: [] });
	const facts = snapshot.files.get(path);
	if (facts === undefined) return new Set();
	const context = await state.map.importResolution();
	return new Set(facts.imports.flatMap((imported) => resolveImport(facts, imported, context)));
}

/** The share of `files` that are in `dependencies` (0 for no files). */
export function dependencyShare(files: readonly string[], dependencies: ReadonlySet<string>): number {
	return files.length === 0 ? 0 : files.filter((f) => dependencies.has(f)).length / files.length;
}
