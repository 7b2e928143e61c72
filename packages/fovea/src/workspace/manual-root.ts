import { homedir } from "node:os";
import { canonicalPath } from "./canonical-path.ts";
import type { ProjectDiscovery, ProjectRoot } from "./discovery.ts";
import { excludedRootReason } from "./exclusions.ts";

/** The root a command or tool uses when the caller names none, and where it came from. */
export interface ManualRoot {
	root: string;
	marker: ProjectRoot["marker"] | "directory";
	from: "cwd" | "ring";
	/**
	 * Set when the root is the cwd itself and that folder is one automatic discovery never makes a root (`home`, a
	 * `shared parent` such as /tmp, a `system`, `private` or `dependency` folder): it is mapped only when named.
	 */
	excluded?: string;
}

/**
 * Fovea's omitted root: the session cwd's own project (nearest Git marker or manifest), else the cwd itself, so an
 * umbrella or coordinator directory is its own subject. Never the most recently observed root: parallel callers
 * would otherwise steer each other. A cwd that discovery excludes (the home directory, /tmp, a system or private
 * folder) is marked `excluded`: mapping it unasked would index everything below it, `~/.ssh` included.
 */
export async function cwdProject(
	cwd: string,
	discovery: ProjectDiscovery,
	home: string = homedir(),
): Promise<ManualRoot> {
	const found = await discovery.projectOf(cwd);
	if (found !== undefined) return { ...found, from: "cwd" };
	const [physical, physicalHome] = await Promise.all([canonicalPath(cwd), canonicalPath(home)]);
	const excluded = excludedRootReason(physical, physical, physicalHome);
	return { root: cwd, marker: "directory", from: "cwd", ...(excluded === undefined ? {} : { excluded }) };
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
