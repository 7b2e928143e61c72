/**
 * The one message about meaningful drift that `before_agent_start` adds: roots in the order given (the observer's
 * relevant roots, strongest attention first), each labelled, then retirement notices, all within one shared token
 * budget. What does not fit waits for the next message instead of being lost; this session's own edits are counted,
 * never repeated.
 */

import { printable } from "../../cli/printable.ts";
import { estimateTokens } from "../render/index.ts";
import type { Drift } from "./baseline.ts";

/** A root's drift not told yet; told drift is taken out of `pending`. */
export interface PendingDrift {
	root: string;
	state: { pending: Drift[] };
}

/**
 * The message for `roots` and `notices` within `maxTokens`, or `undefined` when there is nothing to say. Told drift
 * leaves each root's `pending`, told notices leave `notices` (both arrays are updated in place).
 */
export function driftMessage(roots: readonly PendingDrift[], notices: string[], maxTokens: number): string | undefined {
	const lines: string[] = [];
	let used = 0;
	/** Adds `line` if it fits with `reserve` tokens still free after it. */
	const add = (line: string, reserve = 0): boolean => {
		const shown = printable(line);
		const cost = estimateTokens(`${shown}\n`);
		if (used + cost + reserve > maxTokens) return false;
		lines.push(shown);
		used += cost;
		return true;
	};
	add("Fovea: files changed since you last looked (meaningful changes only):");
	let told = 0;
	let full = false;
	for (const { root, state } of roots) {
		if (full || state.pending.length === 0) continue;
		const fromElsewhere = state.pending.filter((d) => !d.authored);
		const ownEdits = state.pending.length - fromElsewhere.length;
		const elsewhere = latestPerPath(fromElsewhere);
		// Own edits are only counted, never repeated; drift from elsewhere that does not fit waits for a later
		// message rather than being lost.
		state.pending = elsewhere;
		if (elsewhere.length === 0) continue;
		if (!add(`In ${root}:`)) {
			full = true;
			continue;
		}
		let shown = 0;
		// A line after a root's first that leaves more drift behind it keeps room for the line that says so; the first
		// goes whenever it fits, so a tight budget still tells something each time.
		const moreLine = (left: number) => `  … ${left} more, told in a later message`;
		while (shown < elsewhere.length) {
			const drift = elsewhere[shown] as Drift;
			const left = elsewhere.length - shown - 1;
			const reserve = shown === 0 || left === 0 ? 0 : estimateTokens(`${moreLine(left)}\n`);
			if (!add(`  ${drift.path} (${drift.kind}, not by this session): ${drift.details.join("; ")}`, reserve)) break;
			shown++;
		}
		told += shown;
		state.pending = elsewhere.slice(shown);
		if (shown < elsewhere.length) {
			add(moreLine(elsewhere.length - shown));
			full = true;
		} else if (ownEdits > 0)
			add(`  (${ownEdits} file${ownEdits === 1 ? "" : "s"} changed by this session's own tools, not repeated)`);
	}
	// A notice that does not fit stays queued for a later message too.
	let untold = 0;
	for (const notice of notices) {
		if (!full && add(notice)) told++;
		else {
			full = true;
			notices[untold++] = notice;
		}
	}
	notices.length = untold;
	return told > 0 ? lines.join("\n") : undefined;
}

/** One drift per path, the latest: a file changed twice before it was told is told once, as it is now. */
function latestPerPath(drift: readonly Drift[]): Drift[] {
	const byPath = new Map<string, Drift>();
	for (const item of drift) {
		byPath.delete(item.path);
		byPath.set(item.path, item);
	}
	return [...byPath.values()];
}
