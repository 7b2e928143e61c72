/**
 * Routes that file-convention routers derive from a file's path: Next.js `pages/users/[id].tsx` (and `pages/api/…`),
 * Next.js App Router `app/users/[id]/page.tsx` and `app/api/items/route.ts`, SvelteKit `src/routes/items/[id]/+page.ts`
 * and `+server.ts`. A page serves GET with the file as its handler; a route or server module serves each HTTP method
 * it exports (`export async function POST`, `export const GET = …`), that export its handler. Route groups
 * `(marketing)` and parallel slots `@modal` are not part of the path. Pure.
 */
import type { RouteFact } from "../../model/index.ts";
import { HTTP_METHODS, normalizeRoutePath } from "../../model/index.ts";
import type { LineMap } from "./source-scan.ts";

const SCRIPT = /\.(?:[cm]?[jt]sx?)$/;
const NEXT_PAGES = /(?:^|\/)pages\/(.+)$/;
const NEXT_APP = /(?:^|\/)app\/(?:(.*)\/)?(page|route)\.[cm]?[jt]sx?$/;
const SVELTEKIT = /(?:^|\/)src\/routes\/(?:(.*)\/)?\+(page|page\.server|server)\.[jt]s$/;
const EXPORTED_METHOD = new RegExp(
	`\\bexport\\s+(?:async\\s+)?(?:function\\s*\\*?\\s*|const\\s+|let\\s+)(${HTTP_METHODS.join("|")})\\b`,
	"g",
);

/** Whether a file at `path` may serve a route by its place (a cheap test before reading its text). */
export function mayBeFileRoute(path: string): boolean {
	return /(?:^|\/)(?:pages|app|routes)\//.test(path);
}

/** The routes a JavaScript or TypeScript file at `path` serves by its place in a file-convention router. */
export function fileRoutes(path: string, source: string, lines: LineMap): RouteFact[] {
	if (!SCRIPT.test(path)) return [];
	const app = NEXT_APP.exec(path) ?? SVELTEKIT.exec(path);
	if (app !== null) {
		const route = routePath(app[1] ?? "");
		if (route === undefined) return [];
		if (app[2] === "page" || app[2] === "page.server") return [{ method: "GET", path: route, line: 1 }];
		return [...source.matchAll(EXPORTED_METHOD)].map((match) => ({
			method: match[1] as string,
			path: route,
			line: lines.lineAt(match.index as number),
			handler: match[1] as string,
		}));
	}
	const pages = NEXT_PAGES.exec(path);
	if (pages === null) return [];
	const file = (pages[1] as string).replace(SCRIPT, "");
	if (file.split("/").some((segment) => segment.startsWith("_"))) return [];
	const route = routePath(file.replace(/(?:^|\/)index$/, ""));
	return route === undefined ? [] : [{ method: "ANY", path: route, line: 1 }];
}

/** A directory path of a router as a route: groups and slots dropped, `[id]` a parameter. */
function routePath(directory: string): string | undefined {
	const kept = directory.split("/").filter((segment) => !/^\(.*\)$/.test(segment) && !segment.startsWith("@"));
	return normalizeRoutePath(kept.join("/"));
}
