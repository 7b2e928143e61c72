/**
 * The observer's environment settings: `CONTOUR_BACKGROUND` and `CONTOUR_MAX_ROOTS`.
 *
 * `CONTOUR_MAX_ROOTS` is read with the kernel's `envInt` through its own subpath, `pi-fovea/env`: the kernel's index
 * also loads discovery, which must stay off the extension's startup import graph.
 *
 * @module
 */

import { envInt } from "pi-fovea/env";
import { globalSettings } from "pi-fovea/settings";

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

/**
 * Whether the background observer runs: `CONTOUR_BACKGROUND` when set (`0` off, anything else on, as
 * `backgroundEnabled`), else the `contour.observer.enabled` setting of the global settings file (`pi-fovea/settings`).
 * Read when the observer starts: a change applies from the next session or /reload.
 */
export function observerEnabled(env: Env = process.env): boolean {
	// The file is where Pi's agent directory is, whatever environment the caller passes for the overrides.
	return globalSettings({ PI_CODING_AGENT_DIR: process.env.PI_CODING_AGENT_DIR, ...env }).settings[
		"contour.observer.enabled"
	];
}

/** `CONTOUR_MAX_ROOTS`: 32 when unset or not an integer, any integer clamped to 1–32, so a bad value degrades. */
export function contourMaxRoots(env: Env = process.env): number {
	return envInt("CONTOUR_MAX_ROOTS", CONTOUR_ROOT_LIMIT, 1, CONTOUR_ROOT_LIMIT, env);
}
