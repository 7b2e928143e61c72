import { join } from "node:path";
import lockfile from "proper-lockfile";
import { RunLockedError } from "./errors.ts";

/** The lock folder inside a run directory. */
export const LOCK_NAME = ".lock";

/**
 * A lock older than this (its holder refreshes it every STALE_MS / 2) belongs to a dead process and is taken over.
 * Waiting gives up only after well past this, so a crashed holder never blocks an update for good.
 */
export const STALE_MS = 10_000;
const RETRIES = { retries: 400, factor: 1.2, minTimeout: 5, maxTimeout: 100, randomize: true };

/** Passed to the locked work: throws if the lock was lost (e.g. the process stalled past STALE_MS). */
export type LockGuard = () => void;

// Work on one run is queued in-process first, so this process's own callers never race each other for the
// on-disk lock; the on-disk lock then orders them with other processes.
const queues = new Map<string, Promise<void>>();

/** Runs `work` holding the lock of the run directory `dir`, within this process and across processes. */
export async function withRunLock<T>(dir: string, work: (guard: LockGuard) => Promise<T>): Promise<T> {
	const previous = queues.get(dir) ?? Promise.resolve();
	let done = (): void => {};
	const mine = new Promise<void>((resolve) => {
		done = resolve;
	});
	const tail = previous.then(() => mine);
	queues.set(dir, tail);
	await previous;
	try {
		return await withFileLock(dir, work);
	} finally {
		done();
		if (queues.get(dir) === tail) queues.delete(dir);
	}
}

async function withFileLock<T>(dir: string, work: (guard: LockGuard) => Promise<T>): Promise<T> {
	const lockPath = join(dir, LOCK_NAME);
	let lost: Error | undefined;
	let release: () => Promise<void>;
	try {
		release = await lockfile.lock(dir, {
			lockfilePath: lockPath,
			realpath: false,
			stale: STALE_MS,
			update: STALE_MS / 2,
			retries: RETRIES,
			// The default throws from a timer and would crash the host; we refuse further writes instead.
			onCompromised: (error) => {
				lost = error;
			},
		});
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ELOCKED") throw new RunLockedError(lockPath, error);
		throw error;
	}
	const guard: LockGuard = () => {
		if (lost) throw new Error(`lost the run lock ${lockPath}: ${lost.message}; nothing more was written`);
	};
	try {
		return await work(guard);
	} finally {
		if (!lost) await release().catch(() => {});
	}
}
