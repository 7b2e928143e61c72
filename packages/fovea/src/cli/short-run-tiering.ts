/**
 * A CLI command is a short run, so V8 optimizes its JavaScript with TurboFan later than by default: a function runs
 * about three times as many invocations (or loop iterations) in the baseline tiers before V8 compiles it optimized.
 *
 * Why: an optimizing compile runs on a background thread, but a cold command keeps both cores busy (the main thread
 * and a parsing thread parse), so every compile is paid in wall time. Most of the functions V8 picks by default are
 * warm, not hot, in a run of a second, and each parsing thread's isolate compiles them again for itself (and again
 * after a deoptimization). Truly hot functions (the parse loop's glue, term splitting) still reach TurboFan within the
 * first files. Measured per command, CPU time of the whole process (user + system, children included), medians of
 * runs side by side: a cold `fovea status` of vuejs/core 2,130 → 1,920 ms, ripgrep 1,030 → 940, gin 590 → 530,
 * gson 1,040 → 1,020, pytest 1,440 → 1,430, xarray 2,510 → 2,530 (noise); a cold index of sympy's 1,603 files
 * (~9.4 s) unchanged; a warm `fovea focus` / `fovea impact` of vuejs/core ~440 / ~400 → ~395 / ~360 ms.
 *
 * V8 has one set of flags per process: the parsing threads follow. The Pi extension, a long-lived process where
 * optimizing pays off, keeps V8's defaults; a process started with its own `--invocation-count-for-turbofan` keeps it.
 */
import { setFlagsFromString } from "node:v8";

/** The V8 flag that sets how much a function must run before TurboFan compiles it (V8's default: 3,000). */
export const TURBOFAN_THRESHOLD_FLAG = "--invocation-count-for-turbofan";
/** The short-run threshold: about three times V8's default. */
export const SHORT_RUN_TURBOFAN_THRESHOLD = 10_000;

/**
 * Raises V8's TurboFan threshold for the rest of this process (see the module comment), unless the process was started
 * with the flag (`startArgs`: its `execArgv` and `NODE_OPTIONS`). Returns whether it changed the flag.
 */
export function useShortRunTiering(
	startArgs: readonly string[] = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)],
	setFlags: (flags: string) => void = setFlagsFromString,
): boolean {
	// V8 reads `_` in a flag's name as `-`.
	if (startArgs.some((arg) => arg.replaceAll("_", "-").startsWith(TURBOFAN_THRESHOLD_FLAG))) return false;
	setFlags(`${TURBOFAN_THRESHOLD_FLAG}=${SHORT_RUN_TURBOFAN_THRESHOLD}`);
	return true;
}
