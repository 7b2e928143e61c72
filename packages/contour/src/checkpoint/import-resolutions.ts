/**
 * How the imports of one review resolve, remembered for that review. Its import graphs are built more than once
 * (to settle region pairs, then for the findings), each for both sides, and the import reach resolves the same
 * imports against the same file lists: the two sides' lists are equal whenever the change adds, deletes and renames
 * no file. Each answer is Fovea's `resolveImport` against one file list with the project's resolution settings; a
 * list equal in content to one met before reuses that list's set (so Fovea builds its per-set indexes once) and its
 * answers. Resolution is pure, so a remembered answer is the answer.
 */
import { type FileFacts, type ResolutionContext, resolveImport } from "pi-fovea/engine";

/** An import as a file's facts hold it. */
type ImportFact = FileFacts["imports"][number];

/** Resolves an import of a file against one side's file list. */
export type ResolveOnSide = (from: Pick<FileFacts, "path" | "language">, imported: ImportFact) => readonly string[];

/** The resolution settings of a project (everything of a `ResolutionContext` but its file list). */
export type ResolutionSettings = Omit<ResolutionContext, "files">;

interface FileList {
	settings: ResolutionSettings | undefined;
	files: ReadonlySet<string>;
	resolve: ResolveOnSide;
}

/** Remembered resolutions of one review (see the module comment). */
export class ImportResolutions {
	readonly #lists: FileList[] = [];
	#resolved = 0;

	/** Imports resolved so far by Fovea (each remembered answer counts once). */
	get resolved(): number {
		return this.#resolved;
	}

	/**
	 * The resolver against the file list `files` with `settings` (compared by identity: a project's settings are one
	 * object), the same function for lists of equal content. `files` must not change while the review lasts.
	 */
	onSide(settings: ResolutionSettings | undefined, files: ReadonlySet<string>): ResolveOnSide {
		const known = this.#lists.find((list) => list.settings === settings && sameFiles(list.files, files));
		if (known !== undefined) return known.resolve;
		const context: ResolutionContext = { ...settings, files };
		const answers = new Map<string, readonly string[]>();
		const resolve: ResolveOnSide = (from, imported) => {
			const key = importKey(from, imported);
			let found = answers.get(key);
			if (found === undefined) {
				found = resolveImport(from, imported, context);
				answers.set(key, found);
				this.#resolved++;
			}
			return found;
		};
		this.#lists.push({ settings, files, resolve });
		return resolve;
	}
}

/** What `resolveImport` reads of an import and its file: everything but the import's line. */
function importKey(from: Pick<FileFacts, "path" | "language">, imported: ImportFact): string {
	return JSON.stringify([from.language, from.path, imported.specifier, imported.names ?? null]);
}

function sameFiles(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
	if (a === b) return true;
	if (a.size !== b.size) return false;
	for (const path of a) if (!b.has(path)) return false;
	return true;
}
