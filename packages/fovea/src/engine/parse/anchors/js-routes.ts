/**
 * Routes of JavaScript and TypeScript servers declared in code: Express, Hono, Fastify and Koa-router style
 * `app.get("/users/:id", handler)` (any receiver name but an HTTP client's, a named Koa route's name skipped),
 * Express's `app.route("/book").get(h).post(h)`, and Fastify's `fastify.route({ method, url, handler })`. A call is a
 * route only when a handler follows the path (an argument that is not an options object alone), which tells
 * `router.get("/x", show)` from `map.get("/x")` and `axios.get("/x", { params })`. `app.use("/api", api)` mounts the
 * router `api` names under `/api`. Pure.
 */
import type { RouteFact } from "../../model/index.ts";
import { httpMethod, MOUNT, normalizeRoutePath } from "../../model/index.ts";
import { callArguments, handlerName, type LineMap, stringLiteral } from "./source-scan.ts";

/** Receivers that send requests rather than serve them. */
const CLIENTS = new Set([
	"axios",
	"http",
	"https",
	"fetch",
	"request",
	"client",
	"agent",
	"superagent",
	"supertest",
	"$http",
	"httpClient",
	"ky",
	"got",
	"api",
	"cy",
]);

const METHOD_CALL = /\b([A-Za-z_$][\w$]*)\s*\.\s*(get|post|put|patch|delete|del|head|options|all)\s*\(/g;
const ROUTE_CHAIN = /\.\s*route\s*\(\s*(["'`])(\/[^"'`]*)\1\s*\)/g;
const CHAINED_METHOD = /^\s*\.\s*(get|post|put|patch|delete|del|head|options|all)\s*\(/;
const ROUTE_OBJECT = /\.\s*route\s*\(\s*\{/g;
/** `app.use("/api", api)` or `app.use("/api", require("./routes/api"))`: a router mounted under a prefix. */
const MOUNTING =
	/\.\s*use\s*\(\s*(["'`])(\/[^"'`]*)\1\s*,\s*(?:([A-Za-z_$][\w$]*)|require\s*\(\s*["'`]([^"'`]+)["'`]\s*\))\s*\)/g;

/** The routes `source` declares in code. */
export function jsRoutes(source: string, lines: LineMap): RouteFact[] {
	const routes: RouteFact[] = [];
	for (const match of source.matchAll(METHOD_CALL)) {
		if (CLIENTS.has(match[1] as string)) continue;
		const open = (match.index as number) + match[0].length - 1;
		const { args } = callArguments(source, open);
		// Koa-router's named routes: router.get("name", "/path", handler).
		const at = stringLiteral(args[0])?.startsWith("/") !== true && stringLiteral(args[1])?.startsWith("/") ? 1 : 0;
		const raw = stringLiteral(args[at]);
		const rest = args.slice(at + 1);
		if (raw === undefined || !raw.startsWith("/") || rest.length === 0) continue;
		if (rest.length === 1 && (rest[0] as string).startsWith("{")) continue;
		add(routes, match[2] as string, raw, lines.lineAt(match.index as number), handlerName(rest[rest.length - 1]));
	}
	for (const match of source.matchAll(ROUTE_CHAIN)) {
		let at = (match.index as number) + match[0].length;
		for (let step = 0; step < 8; step++) {
			const next = CHAINED_METHOD.exec(source.slice(at, at + 200));
			if (next === null) break;
			const { args, end } = callArguments(source, at + next[0].length - 1);
			add(routes, next[1] as string, match[2] as string, lines.lineAt(at), handlerName(args[args.length - 1]));
			at = end;
		}
	}
	for (const match of source.matchAll(ROUTE_OBJECT)) {
		const open = (match.index as number) + match[0].length - 1;
		const body = source.slice(open, open + 2000);
		const url = /\burl\s*:\s*(["'`])(\/[^"'`]*)\1/.exec(body)?.[2];
		if (url === undefined) continue;
		const methods = /\bmethod\s*:\s*(?:\[([^\]]*)\]|(["'`])(\w+)\2)/.exec(body);
		const names = methods === null ? ["all"] : (methods[1]?.match(/\w+/g) ?? [methods[3] as string]);
		const handler = handlerName(/\bhandler\s*:\s*([\w$.]+)/.exec(body)?.[1]);
		for (const method of names) add(routes, method, url, lines.lineAt(match.index as number), handler);
	}
	for (const match of source.matchAll(MOUNTING)) {
		const module = match[3] ?? match[4]?.replace(/\.[cm]?[jt]sx?$/, "").replace(/^.*\//, "");
		const path = normalizeRoutePath(match[2] as string);
		if (module !== undefined && module !== "" && path !== undefined && path !== "/")
			routes.push({ method: MOUNT, path, line: lines.lineAt(match.index as number), handler: module });
	}
	return routes;
}

function add(routes: RouteFact[], method: string, raw: string, line: number, handler: string | undefined): void {
	const verb = httpMethod(method);
	const path = normalizeRoutePath(raw);
	if (verb === undefined || path === undefined) return;
	routes.push(handler === undefined ? { method: verb, path, line } : { method: verb, path, line, handler });
}
