import type { ExecutionRoots } from "../workspace/roots.ts";

type OwnersOf = typeof import("../workspace/enrollment.ts")["ownersOf"];

/**
 * The projects a successful tool result touched (`ownersOf`), where a path inside a root chosen explicitly belongs
 * to that root: a narrow directory is not widened by activity it already owns. Loaded with the enrollment module on
 * the first tool result, off the extension's startup path.
 */
export async function activityOwners(
	event: Parameters<OwnersOf>[0],
	cwd: string,
	gitOnly: boolean,
	explicit: ReadonlySet<string>,
	ring: ExecutionRoots,
): ReturnType<OwnersOf> {
	const { ownersOf } = await import("../workspace/enrollment.ts");
	const narrow =
		explicit.size === 0
			? undefined
			: (path: string) => {
					const owner = ring.owner(path);
					return owner !== undefined && explicit.has(owner) ? owner : undefined;
				};
	return ownersOf(event, cwd, gitOnly, narrow);
}
