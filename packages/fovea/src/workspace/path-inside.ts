/**
 * Whether a path lies in a root, by the paths alone: no filesystem work, so links must be resolved first where they
 * matter. One rule for every place that asks, so they cannot disagree about the root itself or a sibling.
 */
import { isAbsolute, relative, sep } from "node:path";

/** `path` relative to `root` with `/` separators (`""` for the root itself), or `undefined` when it lies outside. */
export function relativeInside(root: string, path: string): string | undefined {
	const rel = relative(root, path);
	if (rel.startsWith("..") || isAbsolute(rel)) return undefined;
	return sep === "/" ? rel : rel.split(sep).join("/");
}
