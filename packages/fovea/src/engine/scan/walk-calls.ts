/**
 * The file system calls of a walk (`walk.ts`), each answering `undefined` where the entry vanished or cannot be read:
 * a walk meets both all the time and goes on. Synchronous variants serve while a walk's calls are fast
 * (`pace/sync-while-fast.ts`).
 */
import { type Dirent, lstat as lstatCallback, lstatSync, readdirSync, type Stats } from "node:fs";

/**
 * `lstat`, or `undefined` when the entry vanished or cannot be read. Asynchronously with the callback API (on a walk
 * of thousands of files about a third faster than `fs/promises`), once a walk has met a slow call.
 */
export function lstatOrUndefined(path: string): Promise<Stats | undefined> {
	return new Promise((done) => lstatCallback(path, (error, info) => done(error === null ? info : undefined)));
}

/** A directory's entries with a synchronous call, or `undefined` when it cannot be read or vanished. */
export function readdirOrUndefined(dir: string): Dirent[] | undefined {
	try {
		return readdirSync(dir, { withFileTypes: true });
	} catch {
		return undefined;
	}
}

/** `lstatOrUndefined` with a synchronous call, while a walk's calls are fast (`pace/sync-while-fast.ts`). */
export function lstatSyncOrUndefined(path: string): Stats | undefined {
	try {
		return lstatSync(path, { throwIfNoEntry: false });
	} catch {
		return undefined;
	}
}
