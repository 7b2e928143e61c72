/**
 * A root that is gone (deleted, moved, or replaced by a file) while or before it is indexed. A walk of a missing
 * directory lists nothing, and an index that published that would answer "no files" for a project that simply is
 * not there any more: a wrong clean. The index checks the root after each walk, and after a path check that found
 * a file gone, and throws this instead of publishing.
 */
import { stat } from "node:fs/promises";

/** The root of an index is no longer a directory; the message says which and what probably happened. */
export class RootGoneError extends Error {
	readonly root: string;

	constructor(root: string) {
		super(`the root ${root} no longer exists (was it deleted or moved?); nothing was published for it`);
		this.name = "RootGoneError";
		this.root = root;
	}
}

/** Whether `root` is (still) a directory. */
export async function rootPresent(root: string): Promise<boolean> {
	const info = await stat(root).catch(() => undefined);
	return info?.isDirectory() === true;
}

/** Resolves when `root` is a directory; rejects with {@link RootGoneError} otherwise. */
export async function ensureRootPresent(root: string): Promise<void> {
	if (!(await rootPresent(root))) throw new RootGoneError(root);
}
