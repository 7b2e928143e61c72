/**
 * What a successful tool result holds attention on inside its root: the lines a `read` with an offset or a limit
 * showed, the lines an `edit` wrote, the symbols a `grep` for an identifier searched for, else the path itself.
 * Read from the tool's input (and, for an edit, the file as written); never from the result's text.
 */
import type { AttentionTarget } from "../model/index.ts";
import { isCount } from "../model/index.ts";
import { DEFAULT_MAX_FILE_BYTES, readBounded } from "../scan/index.ts";

/** Lines Pi's `read` shows when it is given an offset and no limit. */
const READ_DEFAULT_LINES = 2000;
/** A search pattern that can only be a name: the symbols of that name are what was searched for. */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * The attention targets of `toolName` run with `input` on `rel` (root-relative, `.` for the root itself; `absolute`
 * is the same path on disk). Input of the wrong shape falls back to the path.
 */
export async function attendedTargets(
	toolName: string,
	input: Readonly<Record<string, unknown>>,
	rel: string,
	absolute: string,
): Promise<AttentionTarget[]> {
	if (toolName === "read") {
		const lines = readLines(input.offset, input.limit);
		return [lines === undefined ? { path: rel } : { path: rel, lines }];
	}
	if (toolName === "grep" && typeof input.pattern === "string" && IDENTIFIER.test(input.pattern)) {
		return [{ path: rel, symbol: input.pattern }];
	}
	if (toolName === "edit" && Array.isArray(input.edits)) {
		const written = await editedLines(absolute, input.edits);
		if (written.length > 0) return written.map((lines) => ({ path: rel, lines }));
	}
	return [{ path: rel }];
}

/** The lines a read with `offset` (1-based) and `limit` shows; none when it shows the whole file. */
function readLines(offset: unknown, limit: unknown): readonly [number, number] | undefined {
	const first = isCount(offset) ? Math.max(1, offset) : undefined;
	const count = isCount(limit) && limit > 0 ? limit : undefined;
	if (first === undefined && count === undefined) return undefined;
	const start = first ?? 1;
	return [start, start + (count ?? READ_DEFAULT_LINES) - 1];
}

/** Where each edit's new text now stands in the file, by lines; an edit not found (or a file not read) gives none. */
async function editedLines(absolute: string, edits: readonly unknown[]): Promise<(readonly [number, number])[]> {
	const outcome = await readBounded(absolute, DEFAULT_MAX_FILE_BYTES).catch(() => undefined);
	if (outcome?.kind !== "content") return [];
	const text = outcome.bytes.toString("utf8");
	const found: (readonly [number, number])[] = [];
	for (const edit of edits) {
		const newText = (edit as { newText?: unknown } | null)?.newText;
		if (typeof newText !== "string" || newText.trim() === "") continue;
		const at = text.indexOf(newText);
		if (at < 0) continue;
		const first = lineAt(text, at);
		found.push([first, first + lineAt(newText, newText.trimEnd().length) - 1]);
	}
	return found;
}

/** The 1-based line of offset `at` in `text`. */
function lineAt(text: string, at: number): number {
	let line = 1;
	for (let i = text.indexOf("\n"); i >= 0 && i < at; i = text.indexOf("\n", i + 1)) line++;
	return line;
}
