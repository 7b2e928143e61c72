/**
 * Routes of Go servers: Gin and Echo `r.GET("/x", h)` with groups (`v1 := r.Group("/v1")` prefixes `v1.GET(…)`, group
 * of a group too), chi `r.Get("/x", h)` and `r.Method("GET", "/x", h)`, and `net/http` / gorilla
 * `mux.HandleFunc("/x", h)` and Go 1.22 patterns with a method (`"GET /items/{id}"`). The handler is the last
 * argument when it is a name (`h`, `handlers.List`). Pure.
 */
import type { RouteFact } from "../../model/index.ts";
import { httpMethod, joinRoute, normalizeRoutePath } from "../../model/index.ts";
import { callArguments, handlerName, type LineMap, stringLiteral } from "./source-scan.ts";

const CALL =
	/\b([A-Za-z_]\w*)\s*\.\s*(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|Any|Get|Post|Put|Patch|Delete|Head|Options|Handle|HandleFunc|Method|MethodFunc)\s*\(/g;
const GROUP = /\b([A-Za-z_]\w*)\s*:?=\s*([A-Za-z_]\w*)\s*\.\s*Group\s*\(\s*"([^"]*)"/g;

/** The routes `source` declares. */
export function goRoutes(source: string, lines: LineMap): RouteFact[] {
	const groups = new Map<string, { parent: string; prefix: string }>();
	for (const match of source.matchAll(GROUP))
		groups.set(match[1] as string, { parent: match[2] as string, prefix: match[3] as string });
	const routes: RouteFact[] = [];
	for (const match of source.matchAll(CALL)) {
		const open = (match.index as number) + match[0].length - 1;
		const { args } = callArguments(source, open);
		const call = match[2] as string;
		const methodArg = call === "Method" || call === "MethodFunc";
		let method = methodArg ? stringLiteral(args[0]) : call;
		let raw = stringLiteral(args[methodArg ? 1 : 0]);
		if (raw === undefined || method === undefined || args.length < (methodArg ? 3 : 2)) continue;
		const pattern = /^([A-Z]+)\s+(\/\S*)$/.exec(raw); // Go 1.22: "GET /items/{id}"
		if (pattern !== null) {
			method = pattern[1] as string;
			raw = pattern[2] as string;
		}
		if (!raw.startsWith("/")) continue;
		const verb = httpMethod(method);
		const path = normalizeRoutePath(joinRoute(prefixOf(match[1] as string, groups), raw));
		if (verb === undefined || path === undefined) continue;
		const handler = handlerName(args[args.length - 1]);
		const line = lines.lineAt(match.index as number);
		routes.push(handler === undefined ? { method: verb, path, line } : { method: verb, path, line, handler });
	}
	return routes;
}

/** The path prefix of a router variable: its group's, after its parent group's (at most a few levels). */
function prefixOf(name: string, groups: ReadonlyMap<string, { parent: string; prefix: string }>): string {
	let prefix = "";
	let at = name;
	for (let depth = 0; depth < 8; depth++) {
		const group = groups.get(at);
		if (group === undefined || group.parent === at) break;
		prefix = joinRoute(group.prefix, prefix);
		at = group.parent;
	}
	return prefix;
}
