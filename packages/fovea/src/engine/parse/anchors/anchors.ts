/**
 * A file's anchors at once: the routes it declares and the literals it holds, comments (and Python's docstrings)
 * left out. Where the comments are is found once, and only when a file holds a candidate: the routes are read from a
 * copy with the comments blanked out, made only for a file naming a route keyword; a literal found inside a comment
 * is dropped. Pure.
 */
import type { LanguageId, RouteFact } from "../../model/index.ts";
import { anchorLiterals } from "./literals.ts";
import { routesOf } from "./routes.ts";
import { blankRanges, commentRanges } from "./source-scan.ts";

/** The routes and anchor literals of the file at `path` (root-relative) in `language`, with `source` as its text. */
export function anchorsOf(
	path: string,
	language: LanguageId,
	source: string,
): { routes: RouteFact[]; literals: string[] } {
	let ranges: number[] | undefined;
	const comments = (): number[] => {
		ranges ??= commentRanges(source, language === "python");
		return ranges;
	};
	return {
		routes: routesOf(path, language, source, () => blankRanges(source, comments())),
		literals: anchorLiterals(source, comments),
	};
}
