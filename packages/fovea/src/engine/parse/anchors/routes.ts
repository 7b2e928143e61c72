/**
 * The routes one file declares, by its language: the framework extractors of its family and, for JavaScript and
 * TypeScript, the file-convention routers that read the file's path. Each route is kept once per method, path and
 * line. Pure.
 */
import type { LanguageId, RouteFact } from "../../model/index.ts";
import { fileRoutes, mayBeFileRoute } from "./file-routes.ts";
import { goRoutes } from "./go-routes.ts";
import { javaRoutes } from "./java-routes.ts";
import { jsRoutes } from "./js-routes.ts";
import { pythonRoutes } from "./python-routes.ts";
import { rustRoutes } from "./rust-routes.ts";
import { LineMap } from "./source-scan.ts";

/** Files whose text names no route keyword skip the extractors (most files of a root). */
const MAY_ROUTE: Readonly<Record<LanguageId, RegExp>> = {
	typescript: /\.(?:get|post|put|patch|delete|del|head|options|all|route|use)\s*\(/,
	tsx: /\.(?:get|post|put|patch|delete|del|head|options|all|route|use)\s*\(/,
	javascript: /\.(?:get|post|put|patch|delete|del|head|options|all|route|use)\s*\(/,
	python:
		/\b(?:route|get|post|put|patch|delete|head|options|api_route|websocket|path|re_path|url|Route|include_router|register_blueprint)\s*\(/,
	go: /\.(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|Any|Get|Post|Put|Patch|Delete|Head|Options|Handle|HandleFunc|Method|MethodFunc)\s*\(/,
	rust: /\.route\s*\(|#\[\s*(?:actix_web\s*::\s*)?(?:get|post|put|patch|delete|head|options)\s*\(|web\s*::\s*resource/,
	java: /Mapping\b/,
};

const EXTRACTORS: Readonly<Record<LanguageId, (source: string, lines: LineMap) => RouteFact[]>> = {
	typescript: jsRoutes,
	tsx: jsRoutes,
	javascript: jsRoutes,
	python: pythonRoutes,
	go: goRoutes,
	rust: rustRoutes,
	java: javaRoutes,
};

/**
 * The routes the file at `path` (root-relative) in `language` declares, in line order. `code` gives its text to read
 * routes from (the source with its comments blanked out, see `anchors.ts`); it is asked only when the source names
 * a route keyword or the file may be a file-convention route.
 */
export function routesOf(
	path: string,
	language: LanguageId,
	source: string,
	code: () => string = () => source,
): RouteFact[] {
	const script = language === "typescript" || language === "tsx" || language === "javascript";
	const inCode = MAY_ROUTE[language].test(source);
	if (!inCode && !(script && mayBeFileRoute(path))) return [];
	const text = code();
	const lines = new LineMap(text);
	const found = [
		...(script ? fileRoutes(path, text, lines) : []),
		...(inCode ? EXTRACTORS[language](text, lines) : []),
	];
	const seen = new Set<string>();
	const routes = found.filter((route) => {
		const key = `${route.method} ${route.path} ${route.line}`;
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	});
	return routes.sort((a, b) => a.line - b.line);
}
