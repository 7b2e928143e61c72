/**
 * A query naming a route or an endpoint (`GET /users/:id`, `/api/orders/42`, "the /health endpoint") is answered by
 * the route's handler first. The words of such a query (`get`, `users`, `id`) match half the root by text; the
 * route anchors of the graph (`graph/anchor-edges.ts`) say which handler serves the path. Pure.
 *
 * A path in the query matches a route segment by segment, a parameter in either matching any segment, the route
 * matching the path's tail (a router mounted under a prefix elsewhere) or the path the route's tail (a query leaving
 * the prefix out); a route file mounted under a prefix elsewhere (`include_router(items.router, prefix="/items")`,
 * `app.use("/api", api)`) matches with the prefix too. A method in the query (`POST /orders`) prefers the routes of that method; a route of another
 * method still matches, at a third of the weight (the same path, a sibling handler).
 */
import type { CodeGraph, RouteAnchor } from "../graph/index.ts";
import {
	httpMethod,
	isParameter,
	isPathLiteral,
	joinRoute,
	MOUNT,
	normalizeRoutePath,
	routeMatches,
	segmentsOf,
} from "../model/index.ts";
import { isTestPath } from "../resolve/index.ts";

/** A route the query names, with how surely (1 for the method and whole path, less for a tail or another method). */
export interface RouteMatch {
	route: RouteAnchor;
	/** The path as served: the route's, under the prefix of the mount it matched through, if any. */
	path: string;
	weight: number;
}

/** Routes named in a query, best first. */
export interface RouteSeeds {
	matches: RouteMatch[];
	/** Seed mass per node: the handlers, and the declaring files. */
	seeds: Map<number, number>;
	/** The handlers' nodes and the files of the matches, in the order of the matches (each once). */
	ranked: number[];
}

/** A route mention: an optional method right before a path starting with `/`. */
const MENTION = /(?:\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+)?(?<![\w./:])(\/[\w\-.~:{}<>[\]/%@*]*)/gi;
/**
 * A local server's base (`http://localhost:8000`), which a query may write before an endpoint's path. Any other
 * URL's path is not taken for a route: `https://github.com/org/repo/issues/12` in an issue names no endpoint here.
 */
const LOCAL_BASE = /\bhttps?:\/\/(?:localhost|127\.0\.0\.1|0\.0\.0\.0)(?::\d+)?(?=\/)/gi;
/** A path naming a source file (a traceback's), not an endpoint. */
const SOURCE_FILE = /\.(?:[cm]?[jt]sx?|py|go|rs|java|rb|php|c|h|cc|cpp)$/i;
/** Routes matched at most: a path every route's tail matches names none of them. */
const MAX_MATCHES = 8;
/** Seed mass of a handler, per unit of match weight; its declaring file gets half. */
const HANDLER_MASS = 10;

/** The routes of `graph` that `text` names, and the seed mass they give (none when it names no route). */
export function routeSeeds(graph: CodeGraph, text: string): RouteSeeds {
	const mentions = mentionsOf(text);
	const seeds = new Map<number, number>();
	if (mentions.length === 0) return { matches: [], seeds, ranked: [] };
	const anchors = graph.directed.routes();
	const routes = anchors.filter((route) => route.method !== MOUNT);
	const prefixes = mountPrefixes(anchors);
	const best = new Map<RouteAnchor, RouteMatch>();
	for (const mention of mentions) {
		const found: RouteMatch[] = [];
		for (const route of routes) {
			const share = isTestCode(graph.nodes[route.file]?.path ?? "") ? TEST_SHARE : 1;
			let match: RouteMatch = { route, path: route.path, weight: matchWeight(route.path, route.method, mention) };
			for (const prefix of prefixes.get(route.file) ?? []) {
				const path = joinRoute(prefix, route.path);
				const weight = matchWeight(path, route.method, mention);
				if (weight > match.weight) match = { route, path, weight };
			}
			if (match.weight > 0) found.push({ ...match, weight: match.weight * share });
		}
		if (found.length === 0 || found.length > MAX_MATCHES * 4) continue;
		for (const match of found) {
			const known = best.get(match.route);
			if (known === undefined || match.weight > known.weight) best.set(match.route, match);
		}
	}
	const matches = [...best.values()]
		.sort((a, b) => b.weight - a.weight || a.route.file - b.route.file || a.route.line - b.route.line)
		.slice(0, MAX_MATCHES);
	const ranked = new Set<number>();
	const add = (id: number, mass: number): void => {
		seeds.set(id, (seeds.get(id) ?? 0) + mass);
		ranked.add(id);
	};
	for (const { route, weight } of matches) {
		add(route.handler, HANDLER_MASS * weight);
		const handlerFile = graph.fileNode.get(graph.nodes[route.handler]?.path ?? "");
		if (handlerFile !== undefined && handlerFile !== route.file) add(handlerFile, HANDLER_MASS * weight);
		add(route.file, (HANDLER_MASS / 2) * weight);
	}
	return { matches, seeds, ranked: [...ranked] };
}

/**
 * Puts the files and symbols the matched routes name above every other, in the order of the matches: the first gets
 * the best score in `score` plus one, the next a little less. `score` holds node scores from `from` to `to` (files
 * or symbols).
 */
export function promoteRoutes(score: Float64Array, seeds: RouteSeeds, from: number, to: number): void {
	if (seeds.ranked.length === 0) return;
	let top = 0;
	for (let id = from; id < to; id++) top = Math.max(top, score[id] as number);
	const inRange = seeds.ranked.filter((id) => id >= from && id < to);
	inRange.forEach((id, rank) => {
		score[id] = top + 1 - rank / (inRange.length + 1);
	});
}

/** How much a route declared in test code counts: a query names the application's routes, tests only mirror them. */
const TEST_SHARE = 0.5;

/** Test files by name or by a test directory on the path (`test/app.router.js`). */
function isTestCode(path: string): boolean {
	return isTestPath(path) || /(?:^|\/)(?:tests?|__tests__|spec|testdata)\//.test(path);
}

/**
 * How much of a mention a route spells out, 0–1, over the segments they align on (from the end): a static segment
 * matched counts 1, a parameter against a parameter of the same name 1 and of another name 0.8, a parameter against
 * a static segment 0. `/user/:id/edit` names `/user/:id/edit` more than `/user/:user/:op`; `/{user_id}` names
 * `/:user_id` more than `/:id`.
 */
function specificity(route: readonly string[], mention: readonly string[]): number {
	const n = Math.min(route.length, mention.length);
	let same = 0;
	for (let i = 1; i <= n; i++) {
		const want = route[route.length - i] as string;
		const have = mention[mention.length - i] as string;
		if (isParameter(want) !== isParameter(have)) continue;
		same += isParameter(want) && want !== have ? 0.8 : 1;
	}
	return n === 0 ? 0 : same / n;
}

interface Mention {
	method: string | undefined;
	segments: string[];
}

/** The route mentions of a query: paths with at least one letter, not source files, each with its method if any. */
function mentionsOf(text: string): Mention[] {
	const mentions: Mention[] = [];
	for (const match of text.replace(LOCAL_BASE, " ").matchAll(MENTION)) {
		const raw = (match[2] as string).replace(/[.,;:]+$/, "");
		// A path naming a source file is a traceback's unless a method says it is requested (`GET /client.js`).
		if (!isPathLiteral(raw) || !/[A-Za-z]/.test(raw) || (match[1] === undefined && SOURCE_FILE.test(raw))) continue;
		const path = normalizeRoutePath(raw);
		if (path === undefined) continue;
		const method = match[1] === undefined ? undefined : httpMethod(match[1]);
		mentions.push({ method, segments: segmentsOf(path) });
		if (mentions.length >= 8) break;
	}
	return mentions;
}

/** The path prefixes each file's routes are served under, by the mounts of other files (one level). */
function mountPrefixes(anchors: readonly RouteAnchor[]): Map<number, string[]> {
	const prefixes = new Map<number, string[]>();
	for (const mount of anchors) {
		if (mount.method !== MOUNT) continue;
		const list = prefixes.get(mount.handler) ?? [];
		list.push(mount.path);
		prefixes.set(mount.handler, list);
	}
	return prefixes;
}

/** How surely a mention names a route: 1 for the same method and whole path, less for a tail or another method. */
function matchWeight(path: string, method: string, mention: Mention): number {
	const segments = segmentsOf(path);
	const forward = routeMatches(segments, mention.segments);
	const backward = forward === undefined ? routeMatches(mention.segments, segments) : undefined;
	const kind = forward ?? backward;
	if (kind === undefined) return 0;
	const pathWeight = (kind === "exact" ? 1 : 0.6) * (0.5 + specificity(segments, mention.segments) / 2);
	const sameMethod = mention.method === undefined || method === "ANY" || method === mention.method;
	return pathWeight * (sameMethod ? 1 : 1 / 3);
}
