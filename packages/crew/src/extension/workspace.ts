import { isAbsolute, resolve } from "node:path";
import { cwdProject } from "pi-fovea/manual-root";
import { canonicalPath, ProjectDiscovery } from "pi-fovea/workspace";

/**
 * The workspace of a Pi session, and of the `crew` CLI: the canonical project root of its folder (the nearest Git
 * marker or manifest, else the folder itself), the same rule Fovea uses for an omitted root. A session started in
 * a subfolder of a repository therefore shares the repository's runs and its `.pi/crew` definitions; a run records
 * this root as `manifest.cwd`, where it was initiated.
 */

/** One discovery per process; its one-second cache coalesces the lookups of a burst of agent accesses. */
export const discovery = new ProjectDiscovery();

/** The workspace root of `folder` (canonical). */
export async function workspaceOf(folder: string): Promise<string> {
	return (await cwdProject(await canonicalPath(folder), discovery)).root;
}

/**
 * The workspace a tool call or command names with `root` (absolute, or relative to the session cwd), which must be
 * the session's own: an alias of it, or a folder whose project it is, is accepted; anything else is refused, so
 * naming a root never reaches another workspace's runs or agents.
 */
export async function checkedRoot(root: string | undefined, cwd: string, workspace: string): Promise<string> {
	if (root === undefined || root.trim() === "") return workspace;
	const named = await workspaceOf(isAbsolute(root) ? root : resolve(cwd, root));
	if (named !== workspace) {
		throw new Error(
			`root ${root} is workspace ${named}, not this session's workspace ${workspace}; pi-crew works only on its session's workspace`,
		);
	}
	return workspace;
}

/** The project root that owns an accessed path (undefined for excluded paths such as system or dependency trees). */
export async function ownerRoot(path: string, kind: "file" | "directory" | "unknown"): Promise<string | undefined> {
	return (await discovery.discover(path, kind))?.root;
}
