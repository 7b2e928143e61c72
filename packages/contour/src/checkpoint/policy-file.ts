/**
 * Review policy files: an explicit file, or the root's own `.pi/contour/policy.json`. A policy is data (regions and
 * forbidden imports), never code; it only decides which findings are violations. A malformed policy is an Error,
 * since a silently ignored rule would pass a change it should stop.
 */
import { constants } from "node:fs";
import { lstat, open, realpath } from "node:fs/promises";
import { join } from "node:path";
import { relativeInside } from "pi-fovea/path-inside";
import { parsePolicy, type ReviewPolicy } from "../review/policy.ts";

/** Where a root keeps its policy, relative to the root. */
export const ROOT_POLICY_PATH = ".pi/contour/policy.json";
/** Larger policy files are refused. */
export const MAX_POLICY_BYTES = 256 * 1024;

/** A policy and the file it came from. */
export interface PolicySource {
	policy: ReviewPolicy;
	source: string;
}

/** Reads and validates the policy at `path`; throws an Error naming the file for a missing or invalid one. */
export async function loadPolicyFile(path: string): Promise<PolicySource> {
	const text = await readSmallFile(path, true);
	if (text === undefined) throw new Error(`policy file ${path} does not exist or is not a regular file`);
	return { policy: parsePolicy(text, `policy ${path}`), source: path };
}

/**
 * The root's own policy (`.pi/contour/policy.json`), or undefined when it has none. It is read only from inside the
 * root: a symlink (of the file or of a directory on its way) is followed while it stays inside, and one that leads
 * out, or nowhere, is an error, as are an invalid policy and something other than a regular file there; a policy
 * silently passed over would pass a change it should stop. `root` must be canonical (a realpath).
 */
export async function rootPolicy(root: string): Promise<PolicySource | undefined> {
	const path = join(root, ROOT_POLICY_PATH);
	if ((await lstat(path).catch(() => undefined)) === undefined) return undefined;
	const resolved = await realpath(path).catch(() => undefined);
	if (resolved === undefined) throw new Error(`policy file ${path} is a symbolic link that leads nowhere`);
	if (resolved === root || relativeInside(root, resolved) === undefined) {
		throw new Error(
			`policy file ${path} resolves to ${resolved}, outside the root (through a symlink); a root's policy is read only from inside it`,
		);
	}
	const text = await readSmallFile(resolved, false);
	if (text === undefined) throw new Error(`policy file ${path} is not a regular file`);
	return { policy: parsePolicy(text, `policy ${path}`), source: path };
}

/** A regular file's text (through a final symlink only when `follow`); undefined when there is none. */
async function readSmallFile(path: string, follow: boolean): Promise<string | undefined> {
	const flags = constants.O_RDONLY | constants.O_NONBLOCK | (follow ? 0 : constants.O_NOFOLLOW);
	const handle = await open(path, flags).catch((error: NodeJS.ErrnoException) => {
		if (error.code === "ENOENT" || error.code === "ENOTDIR" || error.code === "ELOOP") return undefined;
		throw new Error(`cannot read policy file ${path}: ${error.message}`);
	});
	if (handle === undefined) return undefined;
	try {
		const info = await handle.stat();
		if (!info.isFile()) return undefined;
		if (info.size > MAX_POLICY_BYTES) throw new Error(`policy file ${path} is over ${MAX_POLICY_BYTES} bytes`);
		return await handle.readFile("utf8");
	} finally {
		await handle.close();
	}
}
