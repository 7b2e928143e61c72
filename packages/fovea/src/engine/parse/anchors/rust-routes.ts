/**
 * Routes of Rust servers: Axum `.route("/x", get(list).post(create))`, Actix and Rocket attributes
 * `#[get("/x")]` on the handler `fn`, and Actix `web::resource("/x").route(web::get().to(h))` and
 * `.route("/x", web::get().to(h))`. Pure.
 */
import type { RouteFact } from "../../model/index.ts";
import { httpMethod, normalizeRoutePath } from "../../model/index.ts";
import { callArguments, handlerName, type LineMap, nextDefinition } from "./source-scan.ts";

const ROUTE_CALL = /\.\s*route\s*\(\s*"([^"]*)"\s*,/g;
const RESOURCE = /\bweb\s*::\s*resource\s*\(\s*"([^"]*)"\s*\)/g;
const ATTRIBUTE = /#\[\s*(?:actix_web\s*::\s*)?(get|post|put|patch|delete|head|options)\s*\(\s*"([^"]*)"/g;
const FN = /\bfn\s+([A-Za-z_]\w*)/g;
/** `get(h)`, `post(h)`, `web::get().to(h)` in a method router or a resource. */
const METHOD_ROUTER =
	/\b(?:web\s*::\s*)?(get|post|put|patch|delete|head|options|any)\s*\(\s*(?:([\w:]+)\s*)?\)(?:\s*\.\s*to\s*\(\s*([\w:]+)\s*\))?/g;

/** The routes `source` declares. */
export function rustRoutes(source: string, lines: LineMap): RouteFact[] {
	const routes: RouteFact[] = [];
	for (const match of source.matchAll(ROUTE_CALL)) {
		const open = source.indexOf("(", match.index as number);
		const { args } = callArguments(source, open);
		methodRouters(routes, match[1] as string, args.slice(1).join(","), lines.lineAt(match.index as number));
	}
	for (const match of source.matchAll(RESOURCE)) {
		const at = (match.index as number) + match[0].length;
		const chain = /^(?:\s*\.\s*(?:route|to|name|guard|wrap)\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))+/.exec(
			source.slice(at, at + 2000),
		);
		if (chain === null) continue;
		const line = lines.lineAt(match.index as number);
		const direct = /^\s*\.\s*to\s*\(\s*([\w:]+)\s*\)/.exec(chain[0]);
		if (direct !== null) add(routes, "any", match[1] as string, line, handlerName(direct[1]));
		else methodRouters(routes, match[1] as string, chain[0], line);
	}
	for (const match of source.matchAll(ATTRIBUTE)) {
		const handler = nextDefinition(source, (match.index as number) + match[0].length, FN);
		add(routes, match[1] as string, match[2] as string, lines.lineAt(match.index as number), handler);
	}
	return routes;
}

/** Each `get(h)` / `web::get().to(h)` in `text` as a route of `raw`. */
function methodRouters(routes: RouteFact[], raw: string, text: string, line: number): void {
	for (const method of text.matchAll(METHOD_ROUTER)) {
		add(routes, method[1] as string, raw, line, handlerName(method[3] ?? method[2]));
	}
}

function add(routes: RouteFact[], method: string, raw: string, line: number, handler: string | undefined): void {
	const verb = httpMethod(method);
	const path = normalizeRoutePath(raw);
	if (verb === undefined || path === undefined) return;
	routes.push(handler === undefined ? { method: verb, path, line } : { method: verb, path, line, handler });
}
