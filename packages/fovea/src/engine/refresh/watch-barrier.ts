import { type FSWatcher, mkdtempSync, rmSync, unlinkSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** How long a barrier waits for its own event before the watches are considered untrustworthy. */
const BARRIER_TIMEOUT_MS = 1000;

let directory: string | undefined;
let watcher: FSWatcher | undefined;
let counter = 0;
const waiting = new Map<string, () => void>();

/**
 * Resolves once every file-system event that happened before the call has been delivered to this process's
 * watchers; `false` if that could not be established in time.
 *
 * Why: events are not delivered synchronously (on this machine kind one event-loop turn is not enough), so "no event
 * yet" does not mean "nothing happened". All of a process's watches share one kernel event queue, which keeps
 * order, so creating a file in a private watched directory and waiting for that file's own event proves that every
 * earlier event has arrived. The directory lives in the system temp dir, never in a project.
 */
export async function watchBarrier(): Promise<boolean> {
	try {
		if (watcher === undefined) {
			directory = mkdtempSync(join(tmpdir(), "fovea-barrier-"));
			watcher = watch(directory, { persistent: false }, (_event, name) => {
				if (typeof name !== "string") return;
				const done = waiting.get(name);
				if (done !== undefined) {
					waiting.delete(name);
					done();
				}
			});
			watcher.on("error", () => reset());
			process.once("exit", reset);
		}
		const dir = directory as string;
		const name = `b${process.pid}-${++counter}`;
		const arrived = new Promise<boolean>((resolve) => {
			const timer = setTimeout(() => {
				waiting.delete(name);
				resolve(false);
			}, BARRIER_TIMEOUT_MS);
			waiting.set(name, () => {
				clearTimeout(timer);
				resolve(true);
			});
		});
		writeFileSync(join(dir, name), "");
		const ok = await arrived;
		try {
			unlinkSync(join(dir, name));
		} catch {
			// already gone: nothing to clean
		}
		return ok;
	} catch {
		return false;
	}
}

function reset(): void {
	watcher?.close();
	watcher = undefined;
	for (const done of waiting.values()) done();
	waiting.clear();
	if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
	directory = undefined;
}
