/**
 * Spill files: where the full ranked list of a cut answer goes, so the agent can read or grep the rest. Each session
 * has its own private directory under FOVEA_SPILL_DIR (default `<tmpdir>/pi-fovea-spill-<uid>`); a file holds at most
 * FOVEA_SPILL_BYTES (default 256 KiB; the list is cut at a line and says so), a session keeps at most FOVEA_SPILL_FILES
 * (default 16; the oldest goes first). A session's directory is removed when the session ends, and directories left
 * by sessions that ended without that (a crash) are removed once older than a day.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { rmdirSync, rmSync } from "node:fs";
import { lstat, mkdir, readdir, rm, rmdir, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { envInt } from "../workspace/env.ts";

/** How long a directory left by another session is kept. */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Directories this process created, with the files each holds, oldest first. */
const sessions = new Map<string, string[]>();
let swept = false;

/** Where every session's spill directory lives. */
export function spillRoot(env: Record<string, string | undefined> = process.env): string {
	const configured = env.FOVEA_SPILL_DIR?.trim() ?? "";
	if (isAbsolute(configured)) return configured;
	return join(tmpdir(), `pi-fovea-spill-${process.getuid?.() ?? "user"}`);
}

/**
 * Writes `lines` to a new spill file of session `sessionId` named for `tool`, within the size bound, dropping the
 * session's oldest file past the count bound. Returns the file's path.
 */
export async function writeSpill(sessionId: string, tool: string, lines: readonly string[]): Promise<string> {
	const root = spillRoot();
	const dir = join(root, sessionId.replace(/[^\w-]/g, "_") || "session");
	await mkdir(root, { recursive: true, mode: 0o700 });
	// In a shared temp directory the root could be someone else's, or a link to elsewhere: it must be our own directory.
	const owned = await lstat(root);
	if (!owned.isDirectory() || (process.getuid !== undefined && owned.uid !== process.getuid())) {
		throw new Error(`${root} is not a directory of this user`);
	}
	await mkdir(dir, { recursive: true, mode: 0o700 });
	if (!swept) {
		swept = true;
		// A process that ends without ending its session (a crash of the host, a test calling a tool body) leaves none.
		process.once("exit", () => {
			if (sessions.size === 0) return;
			for (const left of sessions.keys()) rmSync(left, { recursive: true, force: true });
			try {
				rmdirSync(root);
			} catch {
				// Not empty: another process's session still spills there.
			}
		});
		await sweepOld(root, dir);
	}
	const maxBytes = envInt("FOVEA_SPILL_BYTES", 256 * 1024, 4096, 16 * 1024 * 1024);
	const text = bounded(lines, maxBytes);
	// Named for its content: the same ranked list asked for again is the same file, not one more.
	const file = join(dir, `${tool}-${createHash("sha256").update(text).digest("hex").slice(0, 12)}.txt`);
	await writeFile(file, text, { mode: 0o600 });
	const files = (sessions.get(dir) ?? []).filter((known) => known !== file);
	files.push(file);
	sessions.set(dir, files);
	const maxFiles = envInt("FOVEA_SPILL_FILES", 16, 1, 256);
	while (files.length > maxFiles) await rm(files.shift() as string, { force: true });
	return file;
}

/** Removes every spill directory this process created (the session ended), and their root once it is empty. */
export async function removeSpills(): Promise<void> {
	const dirs = [...sessions.keys()];
	sessions.clear();
	await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
	if (dirs.length > 0) await rmdir(spillRoot()).catch(() => {});
}

/** `lines` joined, cut at a line so that the text and its closing note fit `maxBytes`. */
function bounded(lines: readonly string[], maxBytes: number): string {
	let bytes = 0;
	let kept = 0;
	for (const line of lines) {
		const cost = Buffer.byteLength(line, "utf8") + 1;
		if (bytes + cost > maxBytes - 200) break;
		bytes += cost;
		kept++;
	}
	const rest = lines.length - kept;
	const text = lines.slice(0, kept).join("\n");
	return rest === 0 ? `${text}\n` : `${text}\n… ${rest} more lines not written (FOVEA_SPILL_BYTES ${maxBytes})\n`;
}

/** Removes spill directories under `root`, other than `keep`, not touched for MAX_AGE_MS. */
async function sweepOld(root: string, keep: string): Promise<void> {
	const names = await readdir(root).catch(() => [] as string[]);
	const now = Date.now();
	for (const name of names) {
		const dir = join(root, name);
		if (dir === keep) continue;
		const info = await stat(dir).catch(() => undefined);
		if (info?.isDirectory() === true && now - info.mtimeMs > MAX_AGE_MS)
			await rm(dir, { recursive: true, force: true });
	}
}
