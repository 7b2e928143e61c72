/**
 * What a rendering says about coverage, in the room left for it: the files seen but not mapped, and the files mapped
 * only best effort. Each is one line by reason with a few examples; a small budget drops the examples first, then the
 * reasons, but the count stays, so nothing unmapped or half-read passes for "nothing relevant".
 */
import { printable } from "../../cli/printable.ts";
import type { CouplingStatus } from "../history/index.ts";
import type { CoverageGap } from "../model/index.ts";
import { type PartialFile, partialFileCount } from "../model/index.ts";
import type { IndexSnapshot } from "../refresh/index.ts";
import { budgetChars } from "./budget.ts";

/** Example paths a reason shows at most. */
const EXAMPLES = 2;
const NOT_MAPPED = "Not mapped";
const BEST_EFFORT = "Mapped best effort";

/**
 * One line on `entries` headed `heading` ("Not mapped"), at most `maxChars` long: `heading: N files: 2 binary (a, b);
 * 1 too-large (c).`, then without examples, then the count alone; "" when even that does not fit or there is none.
 */
export function coverageLine(
	heading: string,
	entries: readonly { path: string; reason: string }[],
	maxChars = Number.POSITIVE_INFINITY,
): string {
	if (entries.length === 0) return "";
	const byReason = new Map<string, string[]>();
	for (const entry of entries) {
		// Written out here, not by the writer the footer goes to: a newline in a path must not end the line.
		const path = printable(entry.path);
		const paths = byReason.get(entry.reason);
		if (paths === undefined) byReason.set(entry.reason, [path]);
		else paths.push(path);
	}
	const start = countOf(heading, entries);
	const withExamples = [...byReason].map(
		([reason, paths]) =>
			`${paths.length} ${reason} (${paths.slice(0, EXAMPLES).join(", ")}${paths.length > EXAMPLES ? ", …" : ""})`,
	);
	const full = `${start}: ${withExamples.join("; ")}.`;
	if (budgetChars(full) <= maxChars) return full;
	const counts = `${start}: ${[...byReason].map(([reason, paths]) => `${paths.length} ${reason}`).join("; ")}.`;
	if (budgetChars(counts) <= maxChars) return counts;
	const minimal = `${start}.`;
	return budgetChars(minimal) <= maxChars ? minimal : "";
}

/** `heading: N files`, counting each path once; `and M directories` for paths ending in `/` (directories not walked). */
function countOf(heading: string, entries: readonly { path: string }[]): string {
	const paths = new Set(entries.map((entry) => entry.path));
	let directories = 0;
	for (const path of paths) if (path.endsWith("/")) directories++;
	const files = paths.size - directories;
	const counts: string[] = [];
	if (files > 0 || directories === 0) counts.push(`${files} ${files === 1 ? "file" : "files"}`);
	if (directories > 0) counts.push(`${directories} ${directories === 1 ? "directory" : "directories"}`);
	return `${heading}: ${counts.join(" and ")}`;
}

/**
 * The coverage footer of a rendering within `maxChars`: {@link LIMIT_REACHED} when the walk was `truncated`, the gaps'
 * line, then the best-effort files' line in the room the first leaves, after room for the second's count was kept
 * (when only one count fits, the gaps'); lines joined by a newline, "" when there is nothing to say or no room.
 */
export function coverageFooter(
	gaps: readonly CoverageGap[],
	partial: readonly PartialFile[],
	maxChars = Number.POSITIVE_INFINITY,
	truncated = false,
): string {
	// A walk cut short by its bounds leaves every answer partial: said first, before what it did map.
	const limit = truncated && budgetChars(LIMIT_REACHED) <= maxChars ? LIMIT_REACHED : "";
	if (limit !== "") maxChars -= budgetChars(limit) + 1;
	const kept = partial.length === 0 ? 0 : budgetChars(countOf(BEST_EFFORT, partial)) + 2;
	let notMapped = coverageLine(NOT_MAPPED, gaps, maxChars - kept);
	if (notMapped === "") notMapped = coverageLine(NOT_MAPPED, gaps, maxChars);
	const room = notMapped === "" ? maxChars : maxChars - budgetChars(notMapped) - 1;
	const bestEffort = coverageLine(BEST_EFFORT, partial, room);
	return [limit, notMapped, bestEffort].filter((line) => line !== "").join("\n");
}

/** The first line of a footer when the walk stopped at a bound (files, entries or depth). */
export const LIMIT_REACHED = "Walk limit reached: only part of the root is mapped.";

/** The counts of a snapshot's coverage in one phrase: "120 files mapped (2 best effort), 3 not mapped". */
export function mappedCounts(snapshot: Pick<IndexSnapshot, "files" | "gaps" | "partial" | "truncated">): string {
	const limit = snapshot.truncated ? " (walk limit reached)" : "";
	return `${snapshot.files.size} files mapped (${partialFileCount(snapshot.partial)} best effort), ${snapshot.gaps.length} not mapped${limit}`;
}

/** What a status says of change coupling: how many commits it was mined from, or why there is none. */
export function couplingLine(status: CouplingStatus): string {
	if (status.available === true)
		return `change coupling: ${status.commits} commit${status.commits === 1 ? "" : "s"} read, up to HEAD ${status.head.slice(0, 12)}`;
	return status.available === false ? `change coupling: none (${status.reason})` : "change coupling: not mined yet";
}
