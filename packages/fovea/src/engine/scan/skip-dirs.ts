import { DEPENDENCY_DIRS, GENERATED_DIRS } from "../../workspace/exclusions.ts";

/** Version-control metadata: never project source, whatever the ignore files say. */
const VCS_DIRS = new Set([".git", ".hg", ".svn", ".jj", ".bzr", "_darcs"]);

/**
 * Whether the indexer's tree walk skips a directory called `name`: version-control metadata, and the dependency
 * and build-output names that discovery already refuses (one list, in the workspace kernel).
 */
export function isSkippedDirName(name: string): boolean {
	return skippedDirGap(name) !== undefined;
}

/**
 * Why the walk skips a directory called `name` that no ignore file leaves out: `"silent"` for version-control
 * metadata and dependency trees (never the project's own source), `"generated-dir"` for a build-output name, which
 * the walk lists as a coverage gap: such a name can hold real code (`src/build/compiler.ts`), and a skip that says
 * nothing would pass it for "nothing relevant"; `undefined` when the walk enters it.
 */
export function skippedDirGap(name: string): "silent" | "generated-dir" | undefined {
	if (VCS_DIRS.has(name) || DEPENDENCY_DIRS.has(name)) return "silent";
	if (GENERATED_DIRS.has(name)) return "generated-dir";
	return undefined;
}
