/**
 * Regions of a repository and the new imports that cross them.
 *
 * A file's region is the first policy region with a matching glob; otherwise its top-level directory — or, under a
 * directory that conventionally holds many units (`packages/`, `apps/`, `libs/`, `crates/`, `services/`,
 * `modules/`, `plugins/`), its first two segments (`packages/web`), since those units are the boundaries a monorepo
 * cares about. Files at the root are region `.`.
 *
 * A new import between two regions is advisory and reported once per region pair, and only when the change creates
 * that dependency: if any file of the one region already imported the other, one more such import is not news. A
 * new import matching a `forbid` rule of the policy is a violation whatever the regions, one per import.
 */
import { compileGlob, type Glob, isGlobPattern } from "./glob-match.ts";
import { type ImportEdge, type ImportEdges, newImportEdges } from "./import-cycles.ts";
import type { ForbidRule, ReviewPolicy } from "./policy.ts";

const UNIT_CONTAINERS = new Set(["packages", "apps", "libs", "crates", "services", "modules", "plugins"]);
/** Compiled globs by source; policies are few and small, so the bound only guards against a long-lived process. */
const compiled = new Map<string, Glob>();
const MAX_COMPILED = 1024;

/** New imports from one region to another the change made dependent on it. */
export interface RegionCrossing {
	fromRegion: string;
	toRegion: string;
	edges: ImportEdge[];
}

/** A new import that a policy rule forbids. */
export interface Violation {
	edge: ImportEdge;
	rule: ForbidRule;
}

/**
 * Whether root-relative `path` matches `pattern`: a glob (`glob-match.ts`, in time bounded by their lengths), or a
 * plain path naming the file or a directory above it. Throws a GlobError for a glob `validatePolicy` would refuse.
 */
export function matchesPattern(path: string, pattern: string): boolean {
	if (!isGlobPattern(pattern)) {
		const plain = pattern.replace(/\/+$/, "");
		return path === plain || path.startsWith(`${plain}/`);
	}
	let glob = compiled.get(pattern);
	if (glob === undefined) {
		glob = compileGlob(pattern);
		if (compiled.size >= MAX_COMPILED) compiled.clear();
		compiled.set(pattern, glob);
	}
	return glob.matches(path);
}

/** The region of root-relative `path` under `policy` (see the module comment). */
export function regionOf(path: string, policy?: ReviewPolicy): string {
	for (const region of policy?.regions ?? []) {
		if (region.globs.some((glob) => matchesPattern(path, glob))) return region.name;
	}
	const segments = path.split("/");
	if (segments.length === 1) return ".";
	const top = segments[0] as string;
	return UNIT_CONTAINERS.has(top) && segments.length > 2 ? `${top}/${segments[1]}` : top;
}

/**
 * `regionOf` under `policy`, remembering each path's answer: a review asks it for both ends of every import of the
 * project, so each path's globs are matched once per review, not once per import.
 */
export function regionsOf(policy?: ReviewPolicy): (path: string) => string {
	const known = new Map<string, string>();
	return (path) => {
		let region = known.get(path);
		if (region === undefined) {
			region = regionOf(path, policy);
			known.set(path, region);
		}
		return region;
	};
}

/** Whether `path` is on the `side` of a rule: in the region of that name, or matching it as a glob. */
function onSide(path: string, side: string, policy: ReviewPolicy, region: (path: string) => string): boolean {
	if (policy.regions.some((named) => named.name === side)) return region(path) === side;
	return matchesPattern(path, side);
}

/** The new imports that cross regions or break policy rules. Forbidden imports are only reported as violations. */
export function regionChanges(
	before: ImportEdges,
	after: ImportEdges,
	policy?: ReviewPolicy,
): { crossings: RegionCrossing[]; violations: Violation[] } {
	const violations: Violation[] = [];
	const byPair = new Map<string, RegionCrossing>();
	const oldPairs = new Set<string>();
	const region = regionsOf(policy);
	for (const [from, targets] of before) {
		for (const to of targets.keys()) oldPairs.add(`${region(from)}\0${region(to)}`);
	}
	for (const edge of newImportEdges(before, after)) {
		const rule = policy?.forbid.find(
			(r) => onSide(edge.from, r.from, policy, region) && onSide(edge.to, r.to, policy, region),
		);
		if (rule !== undefined) {
			violations.push({ edge, rule });
			continue;
		}
		const fromRegion = region(edge.from);
		const toRegion = region(edge.to);
		const pair = `${fromRegion}\0${toRegion}`;
		if (fromRegion === toRegion || oldPairs.has(pair)) continue;
		const crossing = byPair.get(pair);
		if (crossing === undefined) byPair.set(pair, { fromRegion, toRegion, edges: [edge] });
		else crossing.edges.push(edge);
	}
	return { crossings: [...byPair.values()], violations };
}
