import { OBSERVED_ROOT_LIMIT, type RootsSnapshot, validSnapshotRoots } from "./roots.ts";

/** Session custom entry types that carry each extension's ring, data exactly a {@link RootsSnapshot}. */
export const FOVEA_WORKSPACE_ENTRY = "pi-fovea-workspace";
export const CONTOUR_WORKSPACE_ENTRY = "pi-contour-workspace";

/**
 * The newest valid {@link RootsSnapshot} among custom entries of `customType` on a session branch (entries in branch
 * order, oldest first). Malformed entries are skipped, so a damaged newest entry falls back to the one before it.
 */
export function latestWorkspaceEntry(
	branch: readonly unknown[],
	customType: string,
	limit: number = OBSERVED_ROOT_LIMIT,
): RootsSnapshot | undefined {
	if (!Array.isArray(branch)) return undefined;
	for (let i = branch.length - 1; i >= 0; i--) {
		const entry: unknown = branch[i];
		if (entry === null || typeof entry !== "object") continue;
		const { type, customType: entryType, data } = entry as { type?: unknown; customType?: unknown; data?: unknown };
		if (type !== "custom" || entryType !== customType) continue;
		if (data === null || typeof data !== "object" || (data as { version?: unknown }).version !== 1) continue;
		const stored = (data as { roots?: unknown }).roots;
		if (!Array.isArray(stored)) continue;
		const roots = validSnapshotRoots(data, limit);
		// An empty list is a reset; a nonempty list with no valid root is damage, not a reset.
		if (stored.length > 0 && roots.length === 0) continue;
		return { version: 1, roots };
	}
	return undefined;
}
