import type { Roaming } from "pi-fovea/roaming";
import type { ReviewState } from "./review-state.ts";

/**
 * Contour's per-extension review state, created on first use: nothing is imported, allocated or scheduled until a
 * tool result touches a Git root or a review is asked for, so loading the extension costs nothing.
 */
export interface ContourReviews {
	/** The loaded state (review cache, report store, code maps, background observer). */
	state(): Promise<ReviewState>;
	/** The state if already loaded, for status output that must not load anything. */
	loaded(): ReviewState | undefined;
	/** After a successful tool result: the roots it touched become due for a background pass. */
	activity(roots: string[]): void;
	/** A session (re)started: work of the previous one is obsolete. */
	session(sessionId: string, roots: string[]): void;
	/** A root entered the ring: the background observer's backstop visits it, activity there or not. */
	admitted(root: string): void;
	/** Roots left the ring: their reports, maps and background work go. */
	retire(roots: string[]): void;
	/** The last explicit review's root and number of findings (the footer item says it). */
	verdict?: { root: string; findings: number };
}

/** Creates the lazy review state of one extension instance, bound to its roaming layer. */
export function contourReviews(roaming: () => Roaming): ContourReviews {
	let state: ReviewState | undefined;
	let loading: Promise<ReviewState> | undefined;
	let sessionId: string | undefined;
	const load = () => {
		loading ??= import("./review-state.ts").then((module) => {
			state = module.createReviewState(roaming());
			if (sessionId !== undefined) state.observer.setSession(sessionId);
			// Roots the ring held before the state loaded (restored with the session, a peer's, an explicit one) are
			// the backstop's as much as those that brought it here.
			state.track(roaming().ring()?.list() ?? []);
			return state;
		});
		return loading;
	};
	return {
		state: load,
		loaded: () => state,
		activity(roots) {
			void load()
				.then((loaded) => loaded.noteActivity(roots))
				.catch(() => {});
		},
		session(id, roots) {
			sessionId = id;
			if (state === undefined) return;
			state.observer.setSession(id);
			state.track(roots);
		},
		admitted(root) {
			state?.track([root]);
		},
		retire(roots) {
			state?.retire(roots);
		},
	};
}
