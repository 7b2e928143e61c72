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
import { posix } from "node:path";
import { type ImportEdge, type ImportEdges, newImportEdges } from "./import-cycles.ts";
import type { ForbidRule, ReviewPolicy } from "./policy.ts";

const UNIT_CONTAINERS = new Set(["packages", "apps", "libs", "crates", "services", "modules", "plugins"]);
const GLOB_CHARS = /[*?[\]{}!]/;

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

/** Whether root-relative `path` matches `pattern`: a glob, or a plain path naming the file or a directory above it. */
export function matchesPattern(path: string, pattern: string): boolean {
	if (!GLOB_CHARS.test(pattern)) {
		const plain = pattern.replace(/\/+$/, "");
		return path === plain || path.startsWith(`${plain}/`);
	}
	return posix.matchesGlob(path, pattern);
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

/** Whether `path` is on the `side` of a rule: in the region of that name, or matching it as a glob. */
function onSide(path: string, side: string, policy: ReviewPolicy): boolean {
	if (policy.regions.some((region) => region.name === side)) return regionOf(path, policy) === side;
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
	for (const [from, targets] of before) {
		for (const to of targets.keys()) oldPairs.add(`${regionOf(from, policy)}\0${regionOf(to, policy)}`);
	}
	for (const edge of newImportEdges(before, after)) {
		const rule = policy?.forbid.find((r) => onSide(edge.from, r.from, policy) && onSide(edge.to, r.to, policy));
		if (rule !== undefined) {
			violations.push({ edge, rule });
			continue;
		}
		const fromRegion = regionOf(edge.from, policy);
		const toRegion = regionOf(edge.to, policy);
		const pair = `${fromRegion}\0${toRegion}`;
		if (fromRegion === toRegion || oldPairs.has(pair)) continue;
		const crossing = byPair.get(pair);
		if (crossing === undefined) byPair.set(pair, { fromRegion, toRegion, edges: [edge] });
		else crossing.edges.push(edge);
	}
	return { crossings: [...byPair.values()], violations };
}
