/**
 * The per-file part of a report: every changed path with Git's status, its line counts where measured, and the gap
 * that kept it (or a side) from being analysed — so a file the review could not read is listed, never dropped.
 */
import type { ChangedFile } from "../git/index.ts";
import type { ReportFile, ReportGap } from "../report/report.ts";
import type { FileDelta, ReviewGap } from "../review/index.ts";

const SNAPSHOT_GAP_DETAIL: Record<string, string> = {
	submodule: "a submodule (gitlink) is not reviewed",
	symlink: "a symbolic link is never followed",
	"special-file": "not a regular file",
	"invalid-name": "the path is not valid UTF-8, so it cannot be named",
};

/** The gap of a change the snapshot already marked (before any byte is read). */
export function snapshotGap(change: ChangedFile, maxBytes: number): ReportGap {
	const reason = change.gap as NonNullable<ChangedFile["gap"]>;
	let detail = SNAPSHOT_GAP_DETAIL[reason] ?? reason;
	if (reason === "too-large") {
		const sizes = [change.before, change.after].filter((side) => side !== undefined);
		const largest = Math.max(...sizes.map((side) => side.bytes));
		detail = sizes.some((side) => side.oid === null)
			? "too large to hash"
			: `${largest} bytes, over the ${maxBytes}-byte limit`;
	}
	return { path: change.path, reason, detail };
}

/** One entry per changed path, in the snapshot's (path) order. */
export function reportFiles(
	changes: readonly ChangedFile[],
	deltas: readonly FileDelta[],
	contentGaps: readonly ReportGap[],
	measureGaps: readonly ReviewGap[],
): ReportFile[] {
	const byPath = new Map(deltas.map((delta) => [delta.path, delta]));
	const gapOf = new Map<string, ReportGap["reason"]>();
	for (const gap of [...contentGaps, ...measureGaps]) {
		// A syntax error or a clone search cut short still leaves the file analysed.
		if (gap.reason === "parse-error" || gap.reason === "clone-search") continue;
		if (!gapOf.has(gap.path)) gapOf.set(gap.path, gap.reason);
	}
	return changes.map((change) => {
		const delta = byPath.get(change.path);
		const gap = change.gap ?? gapOf.get(change.path) ?? (change.oldPath ? gapOf.get(change.oldPath) : undefined);
		return {
			path: change.path,
			...(change.oldPath === undefined ? {} : { previousPath: change.oldPath }),
			status: change.status,
			lines: { ...(delta?.lines ?? {}) },
			sourceLines: { ...(delta?.sourceLines ?? {}) },
			...(gap === undefined ? {} : { gap }),
		};
	});
}
