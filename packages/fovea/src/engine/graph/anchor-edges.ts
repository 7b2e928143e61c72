/**
 * The route and literal edges of one file, derived with its other edges (`edges.ts`) so they are kept, patched and
 * reversed for impact like them:
 * - a route the file declares links it to its handler when the handler is defined in another file (`route`);
 * - a URL path the file writes (`"/users/42"`, a test's request or a client's call) links it to the handler of each
 *   route of another file that matches it, a route mounted under a prefix matching the path's tail (`route`);
 * - a route declared in a test is a fixture, for queries only: it links nothing, and no path links to it;
 * - a name-like literal the file shares with few other files (`MAX_LITERAL_FILES`) links it to each of them
 *   (`literal`), the rarest shared literal naming the link.
 * One edge per node linked, labelled with the route (`GET /users/:id`) or the literal (`"x-request-id"`) for
 * evidence.
 */
import {
	basenameOf,
	dirnameOf,
	type FileFacts,
	firstOf,
	handlerParts,
	isPathLiteral,
	MOUNT,
	normalizeRoutePath,
	routeMatches,
	segmentsOf,
} from "../model/index.ts";
import type { EdgeContext } from "./edge-context.ts";
import type { FileAnchors, FileEdgeKind, RouteAnchor } from "./model.ts";

/** URL paths of one file matched against the root's routes at most: a fixture of thousands of URLs links nothing. */
const MAX_ROUTE_REFERENCES = 64;
/** Routes one URL path may link to at most: a path every route's tail matches (`/:id`) names none of them. */
const MAX_MATCHED_ROUTES = 4;

/**
 * Derives the file's anchor edges through `link` (from the file's node) and returns its routes and labels, or
 * `undefined` when it has none. `resolve` finds a handler name's definitions as a call's callee is found.
 */
export function anchorEdges(
	file: FileFacts,
	fileId: number,
	context: EdgeContext,
	resolve: (name: string) => readonly number[],
	link: (to: number, kind: FileEdgeKind) => void,
): FileAnchors | undefined {
	const routes: RouteAnchor[] = [];
	const labels = new Map<number, string>();
	const linkOnce = (to: number, kind: FileEdgeKind, label: string): void => {
		if (to === fileId || labels.has(to) || context.nodes[to]?.path === file.path) return;
		labels.set(to, label);
		link(to, kind);
	};
	// A route a test declares is a fixture (a framework's own tests declare hundreds): an anchor for queries, no edge.
	const fixture = isTest(file.path, context);
	for (const route of file.routes ?? []) {
		if (route.method === MOUNT) {
			// A mount links nothing (the file imports what it mounts); its anchor gives the mounted file's routes a prefix.
			const mounted = mountedFile(file, route.handler, context);
			if (mounted !== undefined) routes.push({ ...route, file: fileId, handler: mounted, method: MOUNT });
			continue;
		}
		let handler = fileId;
		const parts = route.handler === undefined ? undefined : handlerParts(route.handler);
		const found = parts === undefined ? [] : resolve(parts.name);
		// A handler that is no symbol (`exports.show = …`, an object's method) is its module's file when the holder
		// names one the file imports (`users.show` with `users` from `./users`).
		const candidates = found.length > 0 ? found : [mountedFile(file, parts?.holder, context)].filter(isNode);
		if (candidates.length > 0 && candidates.length <= MAX_MATCHED_ROUTES) {
			handler = candidates[0] as number;
			if (!fixture) for (const id of candidates) linkOnce(id, "route", `${route.method} ${route.path}`);
		}
		routes.push({ method: route.method, path: route.path, file: fileId, line: route.line, handler });
	}
	let references = 0;
	for (const literal of file.literals ?? []) {
		if (!isPathLiteral(literal)) continue;
		const path = normalizeRoutePath(literal);
		if (path === undefined) continue;
		if (++references > MAX_ROUTE_REFERENCES) break;
		const segments = segmentsOf(path);
		const matched: [number, string][] = [];
		for (const other of context.anchors.routeFilesFor(path)) {
			if (other === file.path || isTest(other, context)) continue;
			for (const route of context.facts.get(other)?.routes ?? []) {
				if (route.method === MOUNT) continue;
				if (routeMatches(segmentsOf(route.path), segments) === undefined) continue;
				const target = handlerOf(other, route.handler, context) ?? context.fileNode.get(other);
				if (target !== undefined) matched.push([target, `${route.method} ${route.path}`]);
			}
		}
		if (matched.length <= MAX_MATCHED_ROUTES) for (const [target, label] of matched) linkOnce(target, "route", label);
	}
	const shared = (file.literals ?? [])
		.filter((literal) => !isPathLiteral(literal) && context.anchors.literalHolders(literal).length > 0)
		.sort((x, y) => context.anchors.literalCount(x) - context.anchors.literalCount(y));
	for (const literal of shared) {
		for (const holder of context.anchors.literalHolders(literal)) {
			const target = context.fileNode.get(holder);
			if (target !== undefined && holder !== file.path) linkOnce(target, "literal", `"${literal}"`);
		}
	}
	return routes.length === 0 && labels.size === 0 ? undefined : { routes, labels };
}

/**
 * The handler `name` of a route declared in `path`, as that file sees it: its own definition, else one in a file it
 * imports (`app.get("/x", getUser)` with `getUser` imported from a handlers module).
 */
function handlerOf(path: string, handler: string | undefined, context: EdgeContext): number | undefined {
	if (handler === undefined) return undefined;
	const { name, holder } = handlerParts(handler);
	const own = firstOf(context.symbolsOf.named(path, name));
	if (own !== undefined) return own;
	const facts = context.facts.get(path);
	if (facts === undefined) return undefined;
	for (const target of context.imports(facts)) {
		const found = firstOf(context.symbolsOf.named(target, name));
		if (found !== undefined) return found;
	}
	return mountedFile(facts, holder, context);
}

function isNode(id: number | undefined): id is number {
	return id !== undefined;
}

/** Whether `path` is test code: a file the graph links to the subjects it tests. */
function isTest(path: string, context: EdgeContext): boolean {
	const facts = context.facts.get(path);
	return facts !== undefined && context.subjects(path, facts).length > 0;
}

/**
 * The file a module name (a mount's, a handler's holder) names among the files `file` imports: the one whose name (or
 * package directory's, for `__init__.py`, `index.ts`, `mod.rs`) is that module, ignoring case and a
 * `router`/`routes` suffix.
 */
function mountedFile(file: FileFacts, name: string | undefined, context: EdgeContext): number | undefined {
	if (name === undefined) return undefined;
	const wanted = moduleKey(name);
	for (const target of context.imports(file)) {
		const base = basenameOf(target).replace(/\.[^.]+$/, "");
		const stem = /^(?:__init__|index|mod)$/.test(base) ? basenameOf(dirnameOf(target)) : base;
		if (moduleKey(stem) === wanted) return context.fileNode.get(target);
	}
	return undefined;
}

function moduleKey(name: string): string {
	return name.toLowerCase().replace(/[-_]?(?:router|routes)$/, "");
}

/** Whether two derivations of a file's anchors are the same routes and labels. */
export function sameAnchors(x: FileAnchors | undefined, y: FileAnchors | undefined): boolean {
	if (x === undefined || y === undefined) return x === y;
	if (x.routes.length !== y.routes.length || x.labels.size !== y.labels.size) return false;
	for (const [to, label] of x.labels) if (y.labels.get(to) !== label) return false;
	return x.routes.every((route, i) => {
		const other = y.routes[i] as RouteAnchor;
		return (
			route.method === other.method &&
			route.path === other.path &&
			route.line === other.line &&
			route.handler === other.handler
		);
	});
}
