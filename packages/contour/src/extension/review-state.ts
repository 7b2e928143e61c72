import { type ResidentMaps, sharedResidentMaps } from "pi-fovea/engine";
import type { Roaming } from "pi-fovea/roaming";
import { ProjectDiscovery } from "pi-fovea/workspace";
import { ReviewCache } from "../checkpoint/review-cache.ts";
import { reviewRoot } from "../checkpoint/review-root.ts";
import { BackgroundObserver } from "../observer/background-observer.ts";
import { contourMaxRoots } from "../observer/settings.ts";
import { ReportStore } from "../report/report-store.ts";

/** The loaded review state of one extension instance. */
export interface ReviewState {
	cache: ReviewCache;
	reports: ReportStore;
	maps: ResidentMaps;
	observer: BackgroundObserver;
	noteActivity(roots: readonly string[]): void;
	track(roots: readonly string[]): void;
	retire(roots: readonly string[]): void;
}

/**
 * The review engine of one extension instance: a review cache whose report store is bounded per root and across
 * CONTOUR_MAX_ROOTS roots (independent of graph residency, so reports outlive paging), the process's shared code maps, and
 * the silent background observer, whose passes only warm these caches: a background review is kept in the store
 * and never shown, injected or steered with.
 */
export function createReviewState(roaming: Roaming): ReviewState {
	const reports = new ReportStore({ maxRoots: contourMaxRoots() });
	const cache = new ReviewCache({ reports });
	// The process's one map per root, shared with Fovea: one graph and one copy of the facts per root, bounded by
	// FOVEA_CACHE_ROOTS for both.
	const maps = sharedResidentMaps("pi-contour");
	const lease = (root: string) => roaming.capture(root)?.lease;
	const observer = new BackgroundObserver({
		warm: async (root, signal) => {
			// A root that is no longer the top of a Git worktree (deleted, moved, or its .git removed) leaves the ring
			// here, which aborts this pass. Reviewed anyway, it would fail every time its turn came, or worse, Git would
			// find the repository around its directory and the pass would review a repository nobody enrolled.
			if (!(await stillGitRoot(root))) {
				roaming.retireGone(root);
				signal.throwIfAborted();
				throw new Error(`${root} is no longer the top of a Git worktree`);
			}
			try {
				await reviewRoot({ root, target: "staged", signal, cache, maps, origin: { kind: "background" } });
			} catch (error) {
				// Gone while it was reviewed: the same retirement, now rather than on its next turn.
				if (!signal.aborted && !(await stillGitRoot(root))) roaming.retireGone(root);
				throw error;
			}
		},
		isCurrent: (root, held) => roaming.ring()?.holds(root, held) === true,
	});
	/**
	 * Hands the observer the roots whose settings let it warm them: a trusted repository's own file may turn the
	 * observer off for that repository alone (`contour.observer.enabled`; the environment and the global file decide
	 * for the observer as a whole). Each root's lease is taken now, so a root retired while its settings are read is
	 * refused by the observer as stale.
	 */
	const observe = (roots: readonly string[], hand: (root: string, held: number) => void) => {
		const held = roots.map((root) => [root, lease(root)] as const);
		void import("pi-fovea/settings")
			.then(async ({ loadSettings }) => {
				for (const [root, taken] of held) {
					if (taken === undefined) continue;
					if (!(await loadSettings(root)).settings["contour.observer.enabled"]) continue;
					try {
						hand(root, taken);
					} catch {
						// Retired while its settings were read: the observer refuses the stale lease, and the others still go.
					}
				}
			})
			.catch(() => {});
	};
	return {
		cache,
		reports,
		maps,
		observer,
		noteActivity(roots) {
			observe(roots, (root, held) => observer.noteActivity(root, held));
		},
		track(roots) {
			observe(roots, (root, held) => observer.track(root, held));
		},
		retire(roots) {
			observer.retire(roots);
			maps.retire(roots);
			for (const root of roots) reports.forget(root);
		},
	};
}

/** Whether `root` still holds its own Git marker (a `.git` directory or file), looked at afresh (no cached answer). */
async function stillGitRoot(root: string): Promise<boolean> {
	return (await new ProjectDiscovery().gitMarkerOf(root)) !== undefined;
}
