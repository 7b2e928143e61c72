/**
 * The resolved import graphs of both sides of a change, for import cycles, region crossings and policy checks.
 *
 * With the root's code map, files outside the change contribute their current facts, and every import is resolved
 * with the map's resolution settings (tsconfig paths, Go module) against the file list of that side: the project's
 * files with the change's added files present only after and its deleted files present only before. Changed files
 * contribute the imports of each side's own content, so a staged import that the worktree no longer has still
 * counts for a staged review. Files outside the change whose working copy is not the reviewed state (`leftOut`:
 * edited after staging, untracked, or uncommitted in a branch review) contribute the imports of the state the review
 * analyses where it holds them (`reviewed`), and are left out of both graphs otherwise. Without a map, only imports
 * among the changed files are seen.
 */
import { type FileFacts, type LanguageId, languageOf, type ResolutionContext } from "pi-fovea/engine";
import type { ChangedFile } from "../git/index.ts";
import type { ImportEdges } from "../review/index.ts";
import { ImportResolutions } from "./import-resolutions.ts";
import type { ImportFacts } from "./measure-cache.ts";
import type { ReviewedImports } from "./reviewed-imports.ts";
import type { MeasuredChange } from "./side-measures.ts";

/** What the root's code map knows: each mapped file's facts and how imports resolve. */
export interface ProjectFacts {
	files: ReadonlyMap<string, FileFacts>;
	context: ResolutionContext;
}

/**
 * Import graphs of both sides (importing file → imported file → line of the first such import). `resolutions`
 * remembers how imports resolved for the review's next graphs (`import-resolutions.ts`).
 */
export function importGraphs(
	changes: readonly ChangedFile[],
	measured: readonly MeasuredChange[],
	project: ProjectFacts | undefined,
	leftOut: ReadonlySet<string> = new Set(),
	reviewed: ReadonlyMap<string, ReviewedImports> = new Map(),
	resolutions: ImportResolutions = new ImportResolutions(),
): { before: ImportEdges; after: ImportEdges } {
	const changedPaths = new Set<string>();
	for (const change of changes) {
		changedPaths.add(change.path);
		if (change.oldPath !== undefined) changedPaths.add(change.oldPath);
	}
	return {
		before: sideGraph("before", changes, measured, changedPaths, project, leftOut, reviewed, resolutions),
		after: sideGraph("after", changes, measured, changedPaths, project, leftOut, reviewed, resolutions),
	};
}

function sideGraph(
	side: "before" | "after",
	changes: readonly ChangedFile[],
	measured: readonly MeasuredChange[],
	changedPaths: ReadonlySet<string>,
	project: ProjectFacts | undefined,
	leftOut: ReadonlySet<string>,
	reviewed: ReadonlyMap<string, ReviewedImports>,
	resolutions: ImportResolutions,
): ImportEdges {
	// The map's facts are the working copy's: a file outside the change whose working copy is not the reviewed one
	// stands with the reviewed state's imports where they were read, and is left out otherwise, neither importing
	// nor imported, rather than standing for content the review does not analyse.
	const unchanged = (path: string) => !changedPaths.has(path) && !leftOut.has(path);
	const files = new Set<string>();
	if (project !== undefined) for (const path of project.context.files) if (unchanged(path)) files.add(path);
	for (const path of reviewed.keys()) if (!changedPaths.has(path)) files.add(path);
	for (const change of changes) {
		if (change[side] === undefined) continue;
		const path = side === "before" ? (change.oldPath ?? change.path) : change.path;
		if (languageOf(path) !== undefined) files.add(path);
	}
	const resolve = resolutions.onSide(project?.context, files);
	const edges = new Map<string, Map<string, number>>();
	const add = (path: string, language: LanguageId, imports: ImportFacts): void => {
		for (const imported of imports) {
			for (const target of resolve({ path, language }, imported)) {
				let targets = edges.get(path);
				if (targets === undefined) {
					targets = new Map();
					edges.set(path, targets);
				}
				const line = targets.get(target);
				if (line === undefined || imported.line < line) targets.set(target, imported.line);
			}
		}
	};
	if (project !== undefined) {
		for (const [path, facts] of project.files) {
			if (unchanged(path)) add(path, facts.language, facts.imports);
		}
	}
	for (const [path, held] of reviewed) if (!changedPaths.has(path)) add(path, held.language, held.imports);
	for (const file of measured) {
		const measuredSide = file[side];
		const language = measuredSide === undefined ? undefined : languageOf(measuredSide.path);
		if (measuredSide?.imports === undefined || language === undefined) continue;
		add(measuredSide.path, language, measuredSide.imports);
	}
	return edges;
}
