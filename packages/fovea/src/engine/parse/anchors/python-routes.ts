/**
 * Routes of Python web frameworks: Flask `@app.route("/x", methods=[…])` and blueprints, Flask 2 / FastAPI
 * `@router.get("/x")` (the decorated `def` is the handler; a same-file `APIRouter(prefix=…)` or
 * `Blueprint(…, url_prefix=…)` prefixes the router's paths), Django `path("x/<int:pk>/", view)` and `re_path(r"^…$",
 * view)`, and Starlette `Route("/x", endpoint, methods=[…])`; FastAPI `include_router(items.router, prefix="/items")`
 * and Flask `register_blueprint(auth.bp, url_prefix="/auth")` are mounts of the module named first. Pure.
 */
import type { RouteFact } from "../../model/index.ts";
import { httpMethod, joinRoute, MOUNT, normalizeRoutePath } from "../../model/index.ts";
import { callArguments, handlerName, type LineMap, nextDefinition, stringLiteral } from "./source-scan.ts";

const DECORATOR = /@\s*([A-Za-z_]\w*)\s*\.\s*(route|get|post|put|patch|delete|head|options|api_route|websocket)\s*\(/g;
const DEF = /\bdef\s+([A-Za-z_]\w*)/g;
const PREFIXED_ROUTER =
	/\b([A-Za-z_]\w*)\s*=\s*(?:\w+\.)?(?:APIRouter|Blueprint)\s*\(([^)]*?\b(?:url_)?prefix\s*=\s*[rRbuU]?(["'])([^"']*)\3)/g;
const DJANGO = /\b(re_path|path|url)\s*\(/g;
const STARLETTE = /\b(Route|WebSocketRoute)\s*\(/g;
const MOUNTING = /\.\s*(include_router|register_blueprint)\s*\(/g;

/** The routes `source` declares. */
export function pythonRoutes(source: string, lines: LineMap): RouteFact[] {
	const routes: RouteFact[] = [];
	const prefixes = new Map<string, string>();
	for (const match of source.matchAll(PREFIXED_ROUTER)) prefixes.set(match[1] as string, match[4] as string);
	for (const match of source.matchAll(DECORATOR)) {
		const open = (match.index as number) + match[0].length - 1;
		const { args, end } = callArguments(source, open);
		const raw = stringLiteral(args[0]) ?? stringLiteral(keyword(args, "path")) ?? stringLiteral(keyword(args, "rule"));
		if (raw === undefined) continue;
		const handler = nextDefinition(source, end, DEF);
		const verb = match[2] as string;
		const methods = verb === "route" || verb === "api_route" ? (listed(keyword(args, "methods")) ?? ["GET"]) : [verb];
		const path = joinRoute(prefixes.get(match[1] as string) ?? "", raw);
		for (const method of methods) add(routes, method, path, lines.lineAt(match.index as number), handler);
	}
	for (const match of source.matchAll(DJANGO)) {
		const open = (match.index as number) + match[0].length - 1;
		const { args } = callArguments(source, open);
		const raw = stringLiteral(args[0]);
		const view = args[1];
		if (raw === undefined || view === undefined || stringLiteral(view) !== undefined) continue;
		if (/^include\s*\(/.test(view)) continue;
		const regex = match[1] !== "path";
		const path = normalizeRoutePath(raw, { regex });
		if (path === undefined) continue;
		const handler = handlerName(view.replace(/^\w+\s*=\s*/, ""));
		const line = lines.lineAt(match.index as number);
		routes.push(handler === undefined ? { method: "ANY", path, line } : { method: "ANY", path, line, handler });
	}
	for (const match of source.matchAll(STARLETTE)) {
		const open = (match.index as number) + match[0].length - 1;
		const { args } = callArguments(source, open);
		const raw = stringLiteral(args[0]) ?? stringLiteral(keyword(args, "path"));
		const endpoint = keyword(args, "endpoint") ?? args.find((arg, i) => i > 0 && !arg.includes("="));
		if (raw === undefined || endpoint === undefined) continue;
		const methods = match[1] === "WebSocketRoute" ? ["GET"] : (listed(keyword(args, "methods")) ?? ["GET"]);
		for (const method of methods) add(routes, method, raw, lines.lineAt(match.index as number), handlerName(endpoint));
	}
	for (const match of source.matchAll(MOUNTING)) {
		const { args } = callArguments(source, (match.index as number) + match[0].length - 1);
		const prefix = stringLiteral(keyword(args, match[1] === "include_router" ? "prefix" : "url_prefix"));
		const module = /^([A-Za-z_]\w*)(?:\.\w+)*$/.exec(args[0] ?? "")?.[1];
		const path = prefix === undefined ? undefined : normalizeRoutePath(prefix);
		if (module !== undefined && path !== undefined && path !== "/")
			routes.push({ method: MOUNT, path, line: lines.lineAt(match.index as number), handler: module });
	}
	return routes;
}

/** The value of a keyword argument `name=…`, as text. */
function keyword(args: readonly string[], name: string): string | undefined {
	for (const arg of args) {
		const match = KEYWORD.exec(arg);
		if (match !== null && match[1] === name) return match[2];
	}
	return undefined;
}

const KEYWORD = /^(\w+)\s*=\s*([\s\S]*)$/;

/** The string items of a list or tuple literal (`["GET", "POST"]`), or `undefined` when there are none. */
function listed(text: string | undefined): string[] | undefined {
	if (text === undefined) return undefined;
	const items = [...text.matchAll(/["'](\w+)["']/g)].map((m) => m[1] as string);
	return items.length > 0 ? items : undefined;
}

function add(routes: RouteFact[], method: string, raw: string, line: number, handler: string | undefined): void {
	const verb = method === "websocket" ? "GET" : httpMethod(method);
	const path = normalizeRoutePath(raw);
	if (verb === undefined || path === undefined) return;
	routes.push(handler === undefined ? { method: verb, path, line } : { method: verb, path, line, handler });
}
