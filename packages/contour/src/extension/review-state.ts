import { ResidentMaps, rootPresent } from "pi-fovea/engine";
import type { Roaming } from "pi-fovea/roaming";
import { ReviewCache } from "../checkpoint/review-cache.ts";
import { reviewRoot } from "../checkpoint/review-root.ts";
import { BackgroundObserver } from "../observer/background-observer.ts";
import { contourMaxRoots } from "../observer/settings.ts";
import { ReportStore } from "../report/report-store.ts";

/** Code maps kept resident for reviews (exposure, import graphs): Contour's two hot graph generations. */
const RESIDENT_GRAPHS = 2;

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
 * CONTOUR_MAX_ROOTS roots (independent of graph residency, so reports outlive paging), two resident code maps, and
 * the silent background observer, whose passes only warm these caches: a background review is kept in the store
 * and never shown, injected or steered with.
 */
export function createReviewState(roaming: Roaming): ReviewState {
	const reports = new ReportStore({ maxRoots: contourMaxRoots() });
	const cache = new ReviewCache({ reports });
	const maps = new ResidentMaps(RESIDENT_GRAPHS);
	const lease = (root: string) => roaming.capture(root)?.lease;
	const observer = new BackgroundObserver({
		warm: async (root, signal) => {
			try {
				await reviewRoot({ root, target: "staged", signal, cache, maps, origin: { kind: "background" } });
			} catch (error) {
				// A root deleted or moved since it enrolled leaves the ring here (which aborts this pass), rather than
				// failing every time its turn comes.
				if (!signal.aborted && !(await rootPresent(root))) roaming.retireGone(root);
				throw error;
			}
		},
		isCurrent: (root, held) => roaming.ring()?.holds(root, held) === true,
	});
	return {
		cache,
		reports,
		maps,
		observer,
		noteActivity(roots) {
			for (const root of roots) {
				const held = lease(root);
				if (held !== undefined) observer.noteActivity(root, held);
			}
		},
		track(roots) {
			for (const root of roots) {
				const held = lease(root);
				if (held !== undefined) observer.track(root, held);
			}
		},
		retire(roots) {
			observer.retire(roots);
			maps.retire(roots);
			for (const root of roots) reports.forget(root);
		},
	};
}
