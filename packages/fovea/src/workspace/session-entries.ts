import { OBSERVED_ROOT_LIMIT, type RootsSnapshot, validSnapshotRoots } from "./roots.ts";

/** Session custom entry types that carry each extension's ring. */
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
): (RootsSnapshot & { explicit?: string[] }) | undefined {
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
		const explicit = explicitRoots((data as { explicit?: unknown }).explicit, roots);
		return explicit.length === 0 ? { version: 1, roots } : { version: 1, roots, explicit };
	}
	return undefined;
}

/**
 * The roots of an entry that were chosen explicitly (bounded root metadata: a narrow directory stays narrow after a
 * reload): only strings that are roots of the same entry, anything else dropped.
 */
function explicitRoots(value: unknown, roots: readonly string[]): string[] {
	if (!Array.isArray(value)) return [];
	const known = new Set(roots);
	return [...new Set(value.filter((root): root is string => typeof root === "string" && known.has(root)))];
}
