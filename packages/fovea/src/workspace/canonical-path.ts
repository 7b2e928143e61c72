import { realpathSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";

/**
 * The physical identity of a path: the realpath of its longest existing prefix, followed by the segments that do
 * not exist (yet), normalized and absolute.
 *
 * Symlink aliases of one folder therefore compare equal, while a path that does not exist still has a stable
 * identity. A prefix that cannot be resolved (missing, a symlink loop, unreadable) is treated as not existing, so
 * this never throws for a well-formed path and never walks further than the path's own depth.
 */
export async function canonicalPath(path: string, cwd: string = process.cwd()): Promise<string> {
	const steps = resolving(checkedStart(path, cwd, "canonicalPath"));
	for (let step = steps.next(); ; ) {
		if (step.done === true) return step.value;
		step = steps.next(await realpath(step.value).catch(() => undefined));
	}
}

/** {@link canonicalPath} with synchronous calls, for callers that must answer synchronously. */
export function canonicalPathSync(path: string, cwd: string = process.cwd()): string {
	const steps = resolving(checkedStart(path, cwd, "canonicalPathSync"));
	for (let step = steps.next(); ; ) {
		if (step.done === true) return step.value;
		let physical: string | undefined;
		try {
			physical = realpathSync(step.value);
		} catch {
			physical = undefined;
		}
		step = steps.next(physical);
	}
}

function checkedStart(path: string, cwd: string, name: string): string {
	if (typeof path !== "string" || path.length === 0 || path.includes("\0")) {
		throw new TypeError(`${name}: expected a nonempty path string, got ${JSON.stringify(path)}`);
	}
	return resolve(cwd, path);
}

/**
 * The walk both variants share: yields the next prefix to resolve and receives its real path (`undefined` when it
 * cannot be resolved); returns the canonical path.
 */
function* resolving(start: string): Generator<string, string, string | undefined> {
	let existing = start;
	const missing: string[] = [];
	for (;;) {
		const physical = yield existing;
		if (physical !== undefined) return missing.length === 0 ? physical : join(physical, ...missing.reverse());
		const parent = dirname(existing);
		if (parent === existing) return resolve(existing, ...missing.reverse());
		missing.push(basename(existing));
		existing = parent;
	}
}
