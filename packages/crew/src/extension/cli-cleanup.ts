import type { RunStore } from "../state/run-store.ts";
import { cleanupRunWorktrees, cleanupText } from "./run-cleanup.ts";

/**
 * `crew cleanup`: the person at the terminal may clean every session's finished runs and worktrees whose run is
 * gone; runs still worked on by a live process are left alone. Returns text, JSON and whether any worktree refused.
 */
export async function runCleanupText(
	store: RunStore,
	options: { runId?: string; commit: boolean; discard: boolean; unlock: boolean },
): Promise<{ text: string; json: unknown; failed: boolean }> {
	const runs = await store.listRuns();
	const outcomes = await cleanupRunWorktrees({
		workspace: store.root,
		runs,
		knownRunIds: new Set(runs.map((l) => l.runId)),
		orphans: true,
		...options,
	});
	return {
		text: cleanupText(outcomes, store.root),
		json: outcomes,
		failed: outcomes.some((o) => o.error !== undefined),
	};
}
