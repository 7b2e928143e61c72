import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { type AccessedPath, accessedPaths, type ToolAccessEvent } from "./accessed-paths.ts";
import { canonicalPath } from "./canonical-path.ts";
import { ProjectDiscovery, type ProjectRoot } from "./discovery.ts";
import { excludedRootReason } from "./exclusions.ts";
import { relativeInside } from "./path-inside.ts";

export { crewAgentAccess } from "./agent-access-check.ts";
export { cwdProject, gitReviewRoot } from "./manual-root.ts";
export { peerWorkspaceRoot } from "./peer-hint-check.ts";

/**
 * The filesystem half of roaming, loaded lazily on the first tool result: which project roots a successful tool
 * result touched, and whether a root hinted by the peer extension or reported by Crew may enroll here.
 */

/** One discovery per process, so Fovea and Contour coalesce their lookups of the same paths. */
export const discovery = new ProjectDiscovery();

/**
 * The distinct owning projects of every path a successful tool result proves was accessed. A path inside a root
 * that was chosen explicitly (`narrowOwner`) belongs to that root as named, without discovery widening it, unless
 * it lies in a project of its own strictly inside that root (a nested repository, a linked worktree, a manifest
 * project in an umbrella folder): that one is another project, closed until access like this enrolls it.
 */
export async function ownersOf(
	event: ToolAccessEvent,
	cwd: string,
	gitOnly: boolean,
	narrowOwner?: (path: string) => string | undefined,
): Promise<Array<{ root: string; marker: ProjectRoot["marker"] | "explicit" }>> {
	const paths: AccessedPath[] = accessedPaths(event, cwd, homedir(), { cdpath: process.env.CDPATH });
	const owners = new Map<string, { root: string; marker: ProjectRoot["marker"] | "explicit" }>();
	for (const accessed of paths) {
		const narrow = narrowOwner?.(await canonicalPath(accessed.path));
		const found = await discovery.discover(accessed.path, accessed.kind);
		if (narrow !== undefined && (found === undefined || !projectInside(found, narrow))) {
			owners.set(narrow, { root: narrow, marker: "explicit" });
			continue;
		}
		if (found === undefined || owners.has(found.root)) continue;
		if (gitOnly && found.marker !== "git" && found.marker !== "git-file") continue;
		owners.set(found.root, found);
	}
	return [...owners.values()];
}

/** Whether `found` is a project of its own (a Git marker or a manifest, not a source file's folder) below `root`. */
function projectInside(found: ProjectRoot, root: string): boolean {
	return found.marker !== "source" && found.root !== root && relativeInside(root, found.root) !== undefined;
}

/**
 * Whether a root hinted by the peer or Crew may enroll: never an excluded path, a Git worktree where one is
 * required, and never a root around one of `explicit` (the seed: an explicitly selected narrow directory is not
 * widened by later path activity it already owns; a hint names only the root the peer enrolled, and activity outside
 * the narrow root enrolls the wider project through this extension's own tool results anyway).
 */
export async function acceptsPeerRoot(
	root: string,
	gitOnly: boolean,
	explicit: ReadonlySet<string> = new Set(),
): Promise<boolean> {
	if (excludedRootReason(root, root, homedir()) !== undefined) return false;
	for (const narrow of explicit) if (narrow !== root && relativeInside(root, narrow) !== undefined) return false;
	return !gitOnly || (await discovery.gitMarkerOf(root)) !== undefined;
}

/**
 * The roots of `roots` whose directory no longer exists (a crew worktree cleaned up, a checkout deleted). Only a
 * definite "not found" counts: a root that cannot be read right now stays.
 */
export async function goneRoots(roots: readonly string[]): Promise<string[]> {
	const gone = await Promise.all(
		roots.map((root) =>
			stat(root).then(
				(found) => !found.isDirectory(),
				(error: NodeJS.ErrnoException) => error.code === "ENOENT" || error.code === "ENOTDIR",
			),
		),
	);
	return roots.filter((_, i) => gone[i]);
}
