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
	if (typeof path !== "string" || path.length === 0 || path.includes("\0")) {
		throw new TypeError(`canonicalPath: expected a nonempty path string, got ${JSON.stringify(path)}`);
	}
	let existing = resolve(cwd, path);
	const missing: string[] = [];
	for (;;) {
		try {
			const physical = await realpath(existing);
			return missing.length === 0 ? physical : join(physical, ...missing.reverse());
		} catch {
			const parent = dirname(existing);
			if (parent === existing) return resolve(existing, ...missing.reverse());
			missing.push(basename(existing));
			existing = parent;
		}
	}
}
