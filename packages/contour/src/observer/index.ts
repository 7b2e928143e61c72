/**
 * Contour's silent background observer: a fair one-root-per-pass schedule and the timer shell that runs it.
 *
 * @module
 */
export {
	BackgroundObserver,
	type BackgroundObserverOptions,
	type CancelTimer,
	type WarmContext,
} from "./background-observer.ts";
export type { ObserverStats, PassOutcome, RootStats, SkipReason } from "./pass-ledger.ts";
export type { PickReason } from "./schedule.ts";
export {
	backgroundEnabled,
	CONTOUR_ROOT_LIMIT,
	contourMaxRoots,
	DEFAULT_DEBOUNCE_MS,
	DEFAULT_TICK_MS,
} from "./settings.ts";
