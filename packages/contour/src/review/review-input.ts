/**
 * The files of a change as the review engine receives them, and their validation: the input crosses a boundary
 * (the integrator builds it from Git), so a malformed entry is a clear Error naming the entry, not a wrong review.
 */
import { type FileMeasure, MEASURE_VERSION } from "./measure.ts";

/**
 * One file of a change. A side is absent when the file does not exist there (added: no `before`; deleted: no
 * `after`). Content may be text or raw bytes (bytes are checked for binary content and UTF-8). A cached
 * `beforeMeasure`/`afterMeasure` from `measureFile` replaces parsing that side.
 */
export interface ChangeFile {
	/** Root-relative path with `/` separators, on the after side (or the deleted file's path). */
	path: string;
	/** The path before a rename. */
	previousPath?: string;
	before?: string | Uint8Array;
	after?: string | Uint8Array;
	beforeMeasure?: FileMeasure;
	afterMeasure?: FileMeasure;
}

/** The validated file list of `input`; throws an Error naming the first malformed entry. */
export function checkInput(input: { files: readonly ChangeFile[] }): readonly ChangeFile[] {
	if (typeof input !== "object" || input === null || !Array.isArray(input.files)) {
		throw new Error("Contour review input must be an object with a `files` list");
	}
	const seen = new Set<string>();
	input.files.forEach((file: ChangeFile, i: number) => {
		const where = `Contour review input files[${i}]`;
		if (typeof file !== "object" || file === null) throw new Error(`${where} must be an object`);
		checkPath(file.path, `${where}.path`);
		if (file.previousPath !== undefined) checkPath(file.previousPath, `${where}.previousPath`);
		if (seen.has(file.path)) throw new Error(`${where}.path ${JSON.stringify(file.path)} appears twice`);
		seen.add(file.path);
		for (const side of ["before", "after"] as const) {
			const content = file[side];
			if (content !== undefined && typeof content !== "string" && !(content instanceof Uint8Array)) {
				throw new Error(`${where}.${side} must be a string or bytes`);
			}
			const measure = side === "before" ? file.beforeMeasure : file.afterMeasure;
			if (
				measure !== undefined &&
				(typeof measure !== "object" || measure === null || measure.version !== MEASURE_VERSION)
			) {
				throw new Error(
					`${where}.${side}Measure is not a measure of version ${MEASURE_VERSION}; measure the content again`,
				);
			}
		}
		const hasBefore = file.before !== undefined || file.beforeMeasure !== undefined;
		const hasAfter = file.after !== undefined || file.afterMeasure !== undefined;
		if (!hasBefore && !hasAfter) throw new Error(`${where} (${file.path}) has neither a before nor an after side`);
	});
	return input.files;
}

function checkPath(path: unknown, where: string): void {
	if (typeof path !== "string" || path === "") throw new Error(`${where} must be a non-empty string`);
	if (path.startsWith("/") || path.includes("\\") || path.includes("\0") || path.split("/").includes("..")) {
		throw new Error(`${where} ${JSON.stringify(path)} must be a root-relative path with / separators`);
	}
}
