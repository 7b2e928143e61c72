import type { ProjectDiscovery, ProjectRoot } from "./discovery.ts";

/** The root a command or tool uses when the caller names none, and where it came from. */
export interface ManualRoot {
	root: string;
	marker: ProjectRoot["marker"] | "directory";
	from: "cwd" | "ring";
}

/**
 * Fovea's omitted root: the session cwd's own project (nearest Git marker or manifest), else the cwd itself, so an
 * umbrella or coordinator directory is its own subject. Never the most recently observed root: parallel callers
 * would otherwise steer each other.
 */
export async function cwdProject(cwd: string, discovery: ProjectDiscovery): Promise<ManualRoot> {
	const found = await discovery.projectOf(cwd);
	return found === undefined ? { root: cwd, marker: "directory", from: "cwd" } : { ...found, from: "cwd" };
}

/**
 * Contour's omitted root: the session cwd's Git project; when the cwd is in no Git worktree, the most recent ring
 * root that is one (a review needs a worktree). `undefined` when neither exists.
 */
export async function gitReviewRoot(
	cwd: string,
	ringRoots: readonly string[],
	discovery: ProjectDiscovery,
): Promise<ManualRoot | undefined> {
	const own = await discovery.projectOf(cwd);
	if (own !== undefined && (own.marker === "git" || own.marker === "git-file")) return { ...own, from: "cwd" };
	for (const root of ringRoots) {
		const marker = await discovery.gitMarkerOf(root);
		if (marker !== undefined) return { root, marker, from: "ring" };
	}
	return undefined;
}
