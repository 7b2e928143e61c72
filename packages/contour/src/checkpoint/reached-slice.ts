/**
 * The project slice of one review: the root listed and read (`project-slice.ts`), holding the facts of the changed
 * files' staged sides where the worktree holds the same bytes, and parsed where the change's
 * imports reach (`import-reach.ts`), each import resolved against the file list of each side as the import graphs
 * resolve it (`import-edges.ts`). An error of the listing becomes a note, as an error of the code map does.
 */
import { type FileFacts, languageOf, type ResolutionContext } from "pi-fovea/engine";
import type { ChangedFile } from "../git/index.ts";
import { type ReachedSide, reachImports } from "./import-reach.ts";
import type { ImportResolutions } from "./import-resolutions.ts";
import type { ProjectSlice } from "./project-slice.ts";
import type { ReviewedImports } from "./reviewed-imports.ts";
import type { MeasuredChange } from "./side-measures.ts";

/**
 * The slice `listing` lists (`projectSlice`) parsed where the change (`text`, measured in `sides`) reaches, or why
 * there is none; `undefined` for a root too large to hold as a slice.
 */
export async function sliceOf(
	listing: Promise<ProjectSlice | undefined>,
	text: readonly ChangedFile[],
	sides: { measured: readonly MeasuredChange[]; reviewed: ReadonlyMap<string, ReviewedImports> },
	changedPaths: ReadonlySet<string>,
	leftOut: ReadonlySet<string>,
	options: {
		signal?: AbortSignal;
		afterFacts: Iterable<FileFacts>;
		/** Told how the listed project resolves imports, before any file of it is parsed. */
		onContext?: (context: ResolutionContext) => void;
		/** The review's remembered resolutions, shared with its import graphs (`import-resolutions.ts`). */
		resolutions?: ImportResolutions;
	},
): Promise<ProjectSlice | { error: string } | undefined> {
	try {
		const slice = await listing;
		if (slice === undefined) return undefined;
		options.onContext?.(slice.project.context);
		for (const facts of options.afterFacts) slice.adopt(facts);
		const unchanged = [...slice.project.context.files].filter((path) => !changedPaths.has(path) && !leftOut.has(path));
		const sideFiles = (side: "before" | "after") => {
			const files = new Set(unchanged);
			for (const path of sides.reviewed.keys()) if (!changedPaths.has(path)) files.add(path);
			for (const change of text) {
				if (change[side] === undefined) continue;
				const path = side === "before" ? (change.oldPath ?? change.path) : change.path;
				if (languageOf(path) !== undefined) files.add(path);
			}
			return files;
		};
		const reached: ReachedSide[] = [];
		for (const file of sides.measured)
			for (const side of [file.before, file.after]) {
				const language = side === undefined ? undefined : languageOf(side.path);
				if (side?.imports !== undefined && language !== undefined)
					reached.push({ path: side.path, language, imports: side.imports });
			}
		for (const [path, held] of sides.reviewed) reached.push({ path, language: held.language, imports: held.imports });
		await reachImports(
			slice,
			reached,
			changedPaths,
			{ before: sideFiles("before"), after: sideFiles("after") },
			options.signal,
			options.resolutions,
		);
		return slice;
	} catch (error) {
		options.signal?.throwIfAborted();
		return { error: error instanceof Error ? error.message : String(error) };
	}
}
