import { createHash } from "node:crypto";
import { open, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { OpenOptions, Repository } from "./repository.ts";
import { git } from "./run.ts";

/** What HEAD and the index are at one moment: compared before and after a snapshot to see that nothing moved. */
export interface RepositoryState {
	/** The commit HEAD names, or null on an unborn branch (a repository without commits). */
	head: string | null;
	/** The branch HEAD points to (`main`, or the full ref outside refs/heads/), or null when HEAD is detached. */
	branch: string | null;
	/** The index's own checksum (its trailer), or a hash of the whole file when Git wrote no checksum. */
	indexDigest: string;
}

/** The digest of a worktree without an index file. */
export const NO_INDEX_DIGEST = "no-index";

/**
 * The object HEAD names, or null when it names none (an unborn branch, or a detached HEAD that is not an object
 * name). Resolves references only: the object itself is not read (a partial clone is refused before anything is),
 * so whether it is a commit is for the caller to check (`takeSnapshot` does, with the blob sizes). `dir` is any
 * directory of the worktree.
 */
export async function resolveHead(dir: string, options: OpenOptions = {}): Promise<string | null> {
	const resolved = await git(dir, ["rev-parse", "-q", "--verify", "HEAD"], { ...options, okCodes: [0, 1, 128] });
	return resolved.code === 0 ? resolved.stdout.toString("utf8").trim() : null;
}

/**
 * The state of `repo` from its HEAD file, `oid` (what HEAD resolved to a moment ago, as `resolveHead` or the
 * snapshot's object reader gives it) and the index checksum. Never writes anything. A detached HEAD that names no
 * object is an error.
 */
export async function readState(repo: Repository, oid: string | null): Promise<RepositoryState> {
	const headFile = await readFile(join(repo.gitDir, "HEAD"), "utf8").catch((error: Error) => {
		throw new Error(`cannot read HEAD of ${repo.root}: ${error.message}`);
	});
	const symbolic = /^ref: (\S+)\s*$/.exec(headFile);
	if (oid === null && symbolic === null)
		throw new Error(`HEAD of ${repo.root} is detached at ${headFile.trim()}, which is not a commit`);
	const ref = symbolic?.[1];
	return {
		head: oid,
		branch: ref === undefined ? null : ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : ref,
		indexDigest: await indexDigest(repo.gitDir, repo.objectFormat, repo.indexFile),
	};
}

/**
 * The index's trailing checksum: Git rewrites the whole file with a new checksum on every change, so equal
 * trailers mean the same index. When the trailer is zero (index.skipHash) the file's own hash stands in.
 */
export async function indexDigest(
	gitDir: string,
	format: Repository["objectFormat"] = "sha1",
	path = join(gitDir, "index"),
): Promise<string> {
	const handle = await open(path, "r").catch((error: NodeJS.ErrnoException) => {
		if (error.code === "ENOENT") return undefined;
		throw new Error(`cannot read the index ${path}: ${error.message}`);
	});
	if (handle === undefined) return NO_INDEX_DIGEST;
	try {
		const { size } = await handle.stat();
		const length = format === "sha1" ? 20 : 32;
		// A 12-byte header, then entries, then the checksum; anything shorter is no index Git wrote.
		if (size < 12 + length) throw new Error(`the index ${path} is truncated (${size} bytes)`);
		const signature = Buffer.alloc(4);
		await handle.read(signature, 0, 4, 0);
		if (signature.toString("latin1") !== "DIRC") throw new Error(`${path} is not a Git index`);
		const trailer = Buffer.alloc(length);
		await handle.read(trailer, 0, length, size - length);
		if (trailer.some((byte) => byte !== 0)) return trailer.toString("hex");
		return createHash("sha256")
			.update(await handle.readFile())
			.digest("hex");
	} finally {
		await handle.close();
	}
}

/** True when two states name the same HEAD, branch and index. */
export function sameState(a: RepositoryState, b: RepositoryState): boolean {
	return a.head === b.head && a.branch === b.branch && a.indexDigest === b.indexDigest;
}
