/**
 * A file's anchors at once: its comments (and Python's docstrings) blanked out once, then the routes it declares and
 * the literals it holds read from what is left. Pure.
 */
import type { LanguageId, RouteFact } from "../../model/index.ts";
import { anchorLiterals } from "./literals.ts";
import { routesOf } from "./routes.ts";
import { withoutComments } from "./source-scan.ts";

/** The routes and anchor literals of the file at `path` (root-relative) in `language`, with `source` as its text. */
export function anchorsOf(
	path: string,
	language: LanguageId,
	source: string,
): { routes: RouteFact[]; literals: string[] } {
	const code = withoutComments(source, language === "python");
	return { routes: routesOf(path, language, code), literals: anchorLiterals(code) };
}
