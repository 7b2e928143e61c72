import { DEPENDENCY_DIRS, GENERATED_DIRS } from "../workspace/exclusions.ts";

/** Version-control metadata: never project source, whatever the ignore files say. */
const VCS_DIRS = new Set([".git", ".hg", ".svn", ".jj", ".bzr", "_darcs"]);

/**
 * Whether the indexer's tree walk skips a directory called `name`: version-control metadata, and the dependency
 * and build-output names that discovery already refuses (one list, in the workspace kernel).
 */
export function isSkippedDirName(name: string): boolean {
	return VCS_DIRS.has(name) || DEPENDENCY_DIRS.has(name) || GENERATED_DIRS.has(name);
}
