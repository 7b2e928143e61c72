/**
 * Real temporary directory trees for filesystem tests: created under `os.tmpdir()` with a `fovea-` prefix and
 * removed (after restoring permissions) by {@link removeTempDir}.
 */
import { chmod, lstat, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { git } from "../../../../test/e2e/support/workspaces.ts";

/** A new empty temp directory; the caller removes it (`removeTempDir`, or a `tempDirs` registry does). */
export function makeTempDir(): Promise<string> {
	return mkdtemp(join(tmpdir(), "fovea-"));
}

/** The temp trees one test file makes, removed together when it ends (`after(temps.removeAll)`). */
export interface TempDirs {
	/** A new temp tree (`makeTempDir`), removed by `removeAll`. */
	make(): Promise<string>;
	/** Registers `dir`, made some other way, for removal; returns it. */
	add(dir: string): string;
	/** Removes every registered tree (`removeTempDir`), each once. */
	removeAll(): Promise<void>;
}

/**
 * A registry of temp trees, so a test file does not keep its own list, maker and removal hook. Its methods need no
 * `this`: `after(temps.removeAll)` and `const temp = temps.make` work. The file registers the hook itself, so it
 * orders the removal against its other cleanup (maps and pools are closed before their directories go).
 */
export function tempDirs(): TempDirs {
	const dirs: string[] = [];
	const add = (dir: string): string => {
		dirs.push(dir);
		return dir;
	};
	return {
		add,
		make: async () => add(await makeTempDir()),
		removeAll: async () => {
			for (const dir of dirs.splice(0)) await removeTempDir(dir);
		},
	};
}

/** Creates each file (with parents) under `base`; a path ending in `/` creates a directory. */
export async function writeTree(base: string, entries: Record<string, string>): Promise<void> {
	for (const [rel, content] of Object.entries(entries)) {
		const full = join(base, rel);
		if (rel.endsWith("/")) {
			await mkdir(full, { recursive: true });
		} else {
			await mkdir(dirname(full), { recursive: true });
			await writeFile(full, content);
		}
	}
}

/** Removes a temp tree, first making every directory accessible again (tests chmod some to 000). */
/** Writes `entries` (path → content) under the Git work tree `dir` and commits them. */
export async function commitTree(dir: string, entries: Record<string, string>, subject = "change"): Promise<void> {
	await writeTree(dir, entries);
	git(dir, "add", "-A");
	git(dir, "commit", "-qm", subject);
}

export async function removeTempDir(base: string): Promise<void> {
	await restorePermissions(base);
	await rm(base, { recursive: true, force: true });
}

async function restorePermissions(dir: string): Promise<void> {
	try {
		const s = await lstat(dir);
		if (!s.isDirectory()) return;
		await chmod(dir, 0o755);
		for (const name of await readdir(dir)) await restorePermissions(join(dir, name));
	} catch {
		// best effort: whatever is left is removed by rm's force
	}
}

/** Whether tests run as root, for whom chmod-000 directories stay readable. */
export const runningAsRoot = process.getuid?.() === 0;

/** Resolves with `promise`, or rejects when it has not settled within `ms` (a hang is a failure, not a stall). */
export function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
	});
	return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
