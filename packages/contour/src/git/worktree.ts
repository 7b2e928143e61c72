import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { type FileHandle, lstat, open, readlink, realpath } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { GitWork } from "./run.ts";

/** The Git blob id of `bytes`: the hash of `blob <length>\0` and the bytes, as Git would store them (never written). */
export function gitBlobOid(bytes: Uint8Array, format: "sha1" | "sha256" = "sha1"): string {
	return createHash(format).update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** What one worktree path is, as far as a review may look at it. */
export type WorktreeEntry =
	| { kind: "file" | "symlink"; mode: string; bytes: number; oid: string | null; content?: Buffer }
	| { kind: "missing" }
	| { kind: "special"; bytes: number }
	| { kind: "escaped" }
	/** A path Git printed in bytes that are not UTF-8: it cannot be named as a string, so it is not read. */
	| { kind: "unnamed" };

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CHUNK = 1 << 20;

/**
 * Reads files of one worktree, never outside it: a symlink is described (its target's blob id), never followed; a
 * path whose directory resolves elsewhere (a symlinked parent) is `escaped` and not opened; FIFOs, sockets and
 * devices are `special` and not read (the non-blocking open cannot hang on them).
 */
export class WorktreeReader {
	readonly root: string;
	readonly format: "sha1" | "sha256";
	private readonly work: GitWork | undefined;
	private readonly parents = new Map<string, Promise<boolean>>();

	/** `root` must be canonical (a realpath), so a parent directory resolves to `root/<its relative path>`. */
	constructor(root: string, format: "sha1" | "sha256" = "sha1", work?: GitWork) {
		this.root = root;
		this.format = format;
		this.work = work;
	}

	/**
	 * Describes `path` with its blob id: regular files up to `maxHashBytes` are hashed (streamed, not kept), larger
	 * ones get a null id. With `keep`, the bytes of a file up to `maxHashBytes` are returned too.
	 */
	async describe(path: string, maxHashBytes: number, keep = false): Promise<WorktreeEntry> {
		if (!(await this.insideRoot(path))) return { kind: "escaped" };
		const absolute = join(this.root, path);
		const info = await lstat(absolute).catch(missing);
		if (info === undefined) return { kind: "missing" };
		if (info.isSymbolicLink()) {
			const target = await readlink(absolute, { encoding: "buffer" }).catch(missing);
			if (target === undefined) return { kind: "missing" };
			return { kind: "symlink", mode: "120000", bytes: target.length, oid: gitBlobOid(target, this.format) };
		}
		if (!info.isFile()) return { kind: "special", bytes: info.size };
		const handle = await open(absolute, READ_FLAGS).catch((error: NodeJS.ErrnoException) => {
			// O_NOFOLLOW met a symlink that replaced the file after the lstat.
			if (error.code === "ELOOP") throw changed(this.root, path);
			return missing(error);
		});
		if (handle === undefined) return { kind: "missing" };
		try {
			const opened = await handle.stat();
			// Replaced between lstat and open: describe what was opened, never something else.
			if (!opened.isFile()) return { kind: "special", bytes: opened.size };
			const mode = (opened.mode & 0o100) !== 0 ? "100755" : "100644";
			if (opened.size > maxHashBytes) return { kind: "file", mode, bytes: opened.size, oid: null };
			const { oid, content } = await this.hashFile(handle, path, opened.size, keep);
			return { kind: "file", mode, bytes: opened.size, oid, ...(content ? { content } : {}) };
		} finally {
			await handle.close();
		}
	}

	/** Streams a file of `size` bytes through the blob hash; a size that moves while reading is an error. */
	private async hashFile(
		handle: FileHandle,
		path: string,
		size: number,
		keep: boolean,
	): Promise<{ oid: string; content?: Buffer }> {
		const hash = createHash(this.format).update(`blob ${size}\0`);
		const kept = keep ? Buffer.alloc(size) : undefined;
		const scratch = kept ?? Buffer.alloc(Math.min(CHUNK, Math.max(size, 1)));
		let total = 0;
		while (total < size) {
			const at = kept ? total : 0;
			const length = Math.min(scratch.length - at, size - total);
			const { bytesRead } = await handle.read(scratch, at, length, total);
			if (bytesRead === 0) throw changed(this.root, path);
			hash.update(scratch.subarray(at, at + bytesRead));
			total += bytesRead;
		}
		// One byte past the end tells a file that grew after its size was taken.
		if ((await handle.read(Buffer.alloc(1), 0, 1, size)).bytesRead !== 0) throw changed(this.root, path);
		if (this.work) {
			this.work.worktreeFilesRead++;
			this.work.worktreeBytes += total;
		}
		return { oid: hash.digest("hex"), ...(kept ? { content: kept } : {}) };
	}

	/** True when the directory of `path` resolves to itself under the root (no symlink on the way). */
	private insideRoot(path: string): Promise<boolean> {
		const parent = dirname(path);
		if (parent === ".") return Promise.resolve(true);
		let known = this.parents.get(parent);
		if (known === undefined) {
			const expected = join(this.root, parent);
			known = realpath(expected).then(
				(real) => real === expected,
				() => false,
			);
			this.parents.set(parent, known);
		}
		return known;
	}
}

function missing(error: NodeJS.ErrnoException): undefined {
	if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
	throw error;
}

function changed(root: string, path: string): Error {
	return new Error(`${path} in ${root} changed while it was being read; take the snapshot again`);
}
