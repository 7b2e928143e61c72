/**
 * A revert names the commit it undoes: `git revert` writes the subject `Revert "<the reverted commit's subject>"`
 * (and `Reapply "…"` when the revert is itself reverted), and a hosted merge may add ` (#123)` after it. The files
 * such a change touches are the files the reverted commit changed, so when the reverted commit is in the mined window
 * (`CommitRows`, newest first) its files are the answer and rank first, in the order focus had them, ahead of
 * everything the words found. Only an exact reading: the quoted subject must be a mined commit's subject (or start
 * with it when the kept subject was cut short), a pull request number at the end aside (a squashed commit's subject
 * ends ` (#14985)`, its revert quotes the title without it); a subject that merely says "revert" changes nothing.
 *
 * Cost: one comparison per mined commit, and only for a query whose first line reads as a revert.
 */
import type { CommitRows } from "../graph/index.ts";
import { topK } from "./ranking.ts";

/** `Revert "…"` or `Reapply "…"`, the quoted subject up to the last quote (a hosted merge's ` (#123)` may follow). */
const REVERT = /^(?:Revert|Reapply) "(.+)"(?:\s*\(#\d+\))?\s*$/;
/** A kept subject this long names one commit even when it was cut short (the miner keeps at most 200 characters). */
const NAMING_PREFIX = 100;

/** The subject of the commit a query's first line reverts (`Revert "…"`), or undefined when it reads otherwise. */
export function revertedSubject(text: string): string | undefined {
	const firstLine = text.trimStart().split("\n", 1)[0]?.trim() ?? "";
	return REVERT.exec(firstLine)?.[1];
}

/** A hosted merge's pull request number at a subject's end, which a revert of its squashed commit leaves out. */
const PULL_REQUEST = /\s*\(#\d+\)\s*$/;

/**
 * The newest commit of `rows` whose subject is `subject` (or its start, when kept cut short), either read without a
 * pull request number at its end, or -1.
 */
export function revertedCommit(rows: CommitRows, subject: string): number {
	const asked = subject.replace(PULL_REQUEST, "");
	return rows.subjects.findIndex((kept) => {
		const plain = kept.replace(PULL_REQUEST, "");
		return plain === asked || (kept.length >= NAMING_PREFIX && subject.startsWith(kept));
	});
}

/**
 * Ranks first, in place, the files the commit that `text` reverts changed, when `text`'s first line is a revert and
 * that commit is in `rows`: they score above every other file, in the order of their scores before (files no word
 * reached after those, in the commit's order). Returns how many files it ranked first (0 when it does not apply).
 */
export function applyRevertedCommit(fileScore: Float64Array, rows: CommitRows, text: string): number {
	const subject = revertedSubject(text);
	if (subject === undefined) return 0;
	const commit = revertedCommit(rows, subject);
	if (commit < 0) return 0;
	const files = [...new Set(rows.files.subarray(rows.offsets[commit], rows.offsets[commit + 1]))].filter(
		(id) => id < fileScore.length,
	);
	if (files.length === 0) return 0;
	const best = topK(fileScore, 0, fileScore.length, 1, fileScore)[0]?.score ?? 0;
	const top = best > 0 ? best : 1;
	const order = files
		.map((id, at) => ({ id, at, score: fileScore[id] as number }))
		.sort((a, b) => b.score - a.score || a.at - b.at);
	order.forEach((entry, rank) => {
		fileScore[entry.id] = top * (1 + (order.length - rank) / order.length);
	});
	return order.length;
}
