// Temp directories of the localization benchmark that are removed however the process ends: normally (their owner
// removes them), on an error, on Ctrl-C or SIGTERM, or when the reader of stdout goes away (`| head`).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const live = new Set<string>();
let hooked = false;

function removeAll(): void {
	for (const dir of live) rmSync(dir, { recursive: true, force: true });
	live.clear();
}

function hook(): void {
	if (hooked) return;
	hooked = true;
	process.on("exit", removeAll);
	for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => process.exit(130));
	process.stdout.on("error", () => process.exit(1));
}

/** A new directory under the OS temp dir, removed by `removeWorkDir` or at the latest when the process exits. */
export function makeWorkDir(): string {
	hook();
	const dir = mkdtempSync(join(tmpdir(), "fovea-localization-"));
	live.add(dir);
	return dir;
}

/** Removes a directory made by `makeWorkDir`. */
export function removeWorkDir(dir: string): void {
	rmSync(dir, { recursive: true, force: true });
	live.delete(dir);
}
