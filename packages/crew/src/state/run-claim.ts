import { hostname } from "node:os";
import { RunTakenError } from "./errors.ts";
import type { RunManifest } from "./manifest.ts";
import { processStartMarker } from "./owner.ts";

/**
 * Who owned a run when a caller checked that it may act on it (its own run, or with force one whose session has
 * ended). That check reads files and asks whether processes live, so it cannot run under the run's lock; the
 * state change that follows does, and goes ahead only while the run still has this owner. Two sessions that both
 * passed the check against the same ended owner therefore never both act: the slower one finds a new owner.
 */
export interface RunClaim {
	ownerSessionId: string;
	ownerPid: number;
	ownerStart: string | null;
	ownerHost: string;
}

/** The owner fields a run gets when a session takes it over (resume, retry, cancel). */
export type RunOwner = RunClaim;

/** Who owned the run (the manifest) when it was read. */
export function claimOf(manifest: RunManifest): RunClaim {
	const { ownerSessionId, ownerPid, ownerStart, ownerHost } = manifest;
	return { ownerSessionId, ownerPid, ownerStart, ownerHost };
}

/** The owner a run gets when session `ownerSessionId` of process `pid` (default this one) takes it. */
export async function newOwner(ownerSessionId: string, pid: number = process.pid): Promise<RunOwner> {
	if (typeof ownerSessionId !== "string" || ownerSessionId.trim() === "") {
		throw new Error("ownerSessionId must be a nonempty string");
	}
	return { ownerSessionId, ownerPid: pid, ownerStart: await processStartMarker(pid), ownerHost: hostname() };
}

/** True when the run still has the owner of `claim`. */
export function sameClaim(manifest: RunManifest, claim: RunClaim): boolean {
	const now = claimOf(manifest);
	return (
		now.ownerSessionId === claim.ownerSessionId &&
		now.ownerPid === claim.ownerPid &&
		now.ownerStart === claim.ownerStart &&
		now.ownerHost === claim.ownerHost
	);
}

/**
 * Throws unless the run (read under its lock) still has the owner of `claim`: another session took it over
 * between the caller's check and this change, and the caller's check no longer holds. `action` is what was refused.
 */
export function checkClaim(manifest: RunManifest, claim: RunClaim, action: string): void {
	if (sameClaim(manifest, claim)) return;
	throw new RunTakenError(manifest.runId, manifest.ownerSessionId, manifest.ownerPid, claim.ownerSessionId, action);
}

/** The manifest with `owner` as its owner. */
export function withOwner(manifest: RunManifest, owner: RunOwner): RunManifest {
	return { ...manifest, ...owner };
}
