/**
 * One spelling for every framework's route path, so a route declared as `/users/<int:id>` (Flask), `/users/{id}`
 * (FastAPI, Spring, Axum), `/users/:id` (Express, Gin) or `pages/users/[id].tsx` (Next.js) is the same route, and a
 * query or a test naming `/users/42` finds it. Pure.
 *
 * The normal form: a leading `/`, no trailing `/` (except the root itself), no empty segments, and each parameter
 * written `:name` (a wildcard too: `*rest`, `{*rest}`, `[...slug]`, `<path:rest>` → `:rest`; an unnamed one `:*`).
 */

/** Longest path kept: anything longer is not a route someone names. */
const MAX_PATH = 200;

/** HTTP methods as frameworks spell them, upper case; `ANY` when a route takes every method. */
export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

/**
 * The method of a mount rather than a route: a router or blueprint served under a path prefix from another file
 * (`app.include_router(items.router, prefix="/items")`, `app.use("/api", api)`); its handler names the module.
 */
export const MOUNT = "MOUNT";

/** `method` upper case when it is an HTTP method (`del` → `DELETE`, `all`/`any` → `ANY`), else `undefined`. */
export function httpMethod(method: string): string | undefined {
	const upper = method.toUpperCase();
	if (upper === "DEL") return "DELETE";
	if (upper === "ALL" || upper === "ANY" || upper === "HANDLE" || upper === "HANDLEFUNC") return "ANY";
	return (HTTP_METHODS as readonly string[]).includes(upper) ? upper : undefined;
}

/**
 * The normal form of a route path as a framework writes it, or `undefined` when it cannot be one (white space,
 * quotes, too long). `regex` reads Django's `re_path` patterns: anchors dropped, a named group `(?P<pk>…)` a
 * parameter `:pk`, an unnamed group `:*`.
 */
export function normalizeRoutePath(raw: string, options: { regex?: boolean } = {}): string | undefined {
	let path = raw.trim();
	if (path.length > MAX_PATH || /[\s"'`\\]/.test(options.regex === true ? path.replace(/\\./g, "") : path))
		return undefined;
	if (options.regex === true) path = regexPath(path);
	const segments = path.split("/").flatMap((segment) => {
		if (segment === "" || segment === ".") return [];
		return [normalSegment(segment)];
	});
	return `/${segments.join("/")}`;
}

/** Django's `re_path` regex as a path: `^users/(?P<pk>[0-9]+)/$` → `users/:pk`. */
function regexPath(pattern: string): string {
	let path = pattern.replace(/^\^/, "").replace(/\$$/, "");
	path = path.replace(/\(\?P<(\w+)>(?:[^()]|\([^()]*\))*\)/g, ":$1");
	path = path.replace(/\((?:[^()]|\([^()]*\))*\)/g, ":*");
	return path.replace(/\\(.)/g, "$1").replace(/[?+*]/g, "");
}

/** One segment in the normal form: every parameter syntax becomes `:name`. */
function normalSegment(segment: string): string {
	let match = /^\[\[?(?:\.\.\.)?(\w+)\]\]?$/.exec(segment); // Next.js / SvelteKit [id], [...slug], [[...slug]]
	if (match !== null) return `:${match[1]}`;
	match = /^<(?:\w+:)?(\w+)>$/.exec(segment); // Flask/Django <int:id>, <id>
	if (match !== null) return `:${match[1]}`;
	match = /^\$?\{\*?(\w+)(?:\.\.\.)?(?::[^}]*)?\}$/.exec(segment); // {id}, {id:[0-9]+}, {rest...}, {*rest}, ${id}
	if (match !== null) return `:${match[1]}`;
	match = /^[:*](\w+)/.exec(segment); // :id, :id?, :id(\d+), *filepath
	if (match !== null) return `:${match[1]}`;
	if (segment === "*" || segment === "**") return ":*";
	return segment;
}

/** Whether a segment of the normal form is a parameter. */
export function isParameter(segment: string): boolean {
	return segment.startsWith(":");
}

/** The route's identity for comparison: parameters unnamed, static segments lower case (`/users/:id` → `/users/:`). */
export function routeKey(path: string): string {
	return path
		.split("/")
		.map((segment) => (isParameter(segment) ? ":" : segment.toLowerCase()))
		.join("/");
}

/** Segments of a normal-form path (none for the root). */
export function segmentsOf(path: string): string[] {
	return path.split("/").filter((segment) => segment !== "");
}

/**
 * Whether `route` (normal form) matches the concrete or normal-form `path`: segment by segment, a parameter
 * matching any one segment and static segments equal ignoring case. The route may match the path's tail: a router
 * mounted under a prefix in another file (`app.use("/api", router)`, `include_router(prefix=…)`) declares
 * `/users/:id` for what is called as `/api/users/42`. A route of parameters only matches nothing but itself.
 */
export function routeMatches(route: readonly string[], path: readonly string[]): "exact" | "tail" | undefined {
	if (route.length > path.length || route.length === 0) return undefined;
	if (route.every(isParameter)) return route.length === path.length && path.every(isParameter) ? "exact" : undefined;
	const offset = path.length - route.length;
	for (let i = 0; i < route.length; i++) {
		const want = route[i] as string;
		const have = path[offset + i] as string;
		if (isParameter(want)) continue;
		if (isParameter(have) || want.toLowerCase() !== have.toLowerCase()) return undefined;
	}
	return offset === 0 ? "exact" : "tail";
}

/** `prefix` and `path` (both as written, either may be empty) joined with one `/`. */
export function joinRoute(prefix: string, path: string): string {
	if (prefix === "") return path;
	if (path === "" || path === "/") return prefix;
	return `${prefix.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}

/** Whether a string literal is a URL path (a route reference) rather than a name. */
export function isPathLiteral(literal: string): boolean {
	return literal.startsWith("/");
}

/**
 * Whether a string literal is a command-line option (`--fixtures`, `--setup-show`): a query naming the option finds
 * the file declaring it, but it links no files (`graph/anchor-index.ts`), as the tests passing it are many.
 */
export function isOptionLiteral(literal: string): boolean {
	return literal.startsWith("--");
}

/**
 * The parts of a route's handler as written (`users.show`, `handlers.List`): the name its definition has (the last
 * part) and the module or object holding it (the first part), when there is one.
 */
export function handlerParts(handler: string): { name: string; holder?: string } {
	const dot = handler.lastIndexOf(".");
	if (dot < 0) return { name: handler };
	return { name: handler.slice(dot + 1), holder: handler.slice(0, handler.indexOf(".")) };
}
