/**
 * The observer's environment settings: `CONTOUR_BACKGROUND` and `CONTOUR_MAX_ROOTS`.
 *
 * Read here rather than through `pi-fovea/workspace`'s `envInt` because that module's index also loads discovery,
 * which must stay off the extension's startup import graph; the parsing rule is the same (an integer or the
 * fallback, clamped).
 *
 * @module
 */

/** The seed's default and cap for `CONTOUR_MAX_ROOTS`. */
export const CONTOUR_ROOT_LIMIT = 32;

/** The observer's scheduling tick: a tick, not a per-repository guarantee (32 roots take 32 ticks). */
export const DEFAULT_TICK_MS = 5000;

/** How long a root must be quiet after activity before the observer warms it. */
export const DEFAULT_DEBOUNCE_MS = 1500;

type Env = Record<string, string | undefined>;

/** `CONTOUR_BACKGROUND=0` disables polling only; any other value, or none, leaves it on. */
export function backgroundEnabled(env: Env = process.env): boolean {
	return env.CONTOUR_BACKGROUND?.trim() !== "0";
}

/** `CONTOUR_MAX_ROOTS`: 32 when unset or not an integer, clamped to 1–32 so a bad value degrades instead of throwing. */
export function contourMaxRoots(env: Env = process.env): number {
	const raw = env.CONTOUR_MAX_ROOTS?.trim();
	const parsed = raw !== undefined && /^[+-]?\d+$/.test(raw) ? Number(raw) : CONTOUR_ROOT_LIMIT;
	const value = Number.isSafeInteger(parsed) ? parsed : CONTOUR_ROOT_LIMIT;
	return Math.min(CONTOUR_ROOT_LIMIT, Math.max(1, value));
}
