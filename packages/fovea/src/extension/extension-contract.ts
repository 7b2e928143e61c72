import type { CouplingStatus } from "../engine/history/index.ts";
import type { IndexSnapshot } from "../engine/refresh/snapshot.ts";
import type { RetireReason } from "./roaming.ts";

// The types the extension's modules share. Types only: imported with `import type`, they cost startup nothing.
type Engine = typeof import("../engine/index.ts");

/** The per-root observer of the engine (attention, baseline, provenance). */
export type Observer = InstanceType<typeof import("../engine/observe/index.ts")["Observer"]>;

/**
 * The heavy per-root state of this extension instance: code maps (at most FOVEA_CACHE_ROOTS resident) and the
 * per-root observer (attention, baseline, provenance), loaded on first use.
 */
export interface FoveaMaps {
	maps(): Promise<InstanceType<Engine["ResidentMaps"]>>;
	observer(): Promise<Observer>;
	/** The observer if it is already loaded; hooks that must stay cheap use this. */
	loadedObserver(): Observer | undefined;
	isResident(root: string): boolean;
	/** The last published index snapshot of a resident root (nothing is refreshed); `undefined` for a cold root. */
	residentSnapshot(root: string): IndexSnapshot | undefined;
	/** The change coupling status of a resident root's map (nothing is mined); `undefined` for a cold root. */
	residentCoupling(root: string): CouplingStatus | undefined;
	retire(roots: string[], reason: RetireReason): void;
}

/** What the rest of the extension needs from the observation wiring. */
export interface Observation {
	/** Resolves when the post-turn probes started so far have finished. */
	settled(): Promise<void>;
}
