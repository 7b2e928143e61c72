/**
 * The bounded reads of a root's settings files (`tsconfig.json`, `package.json`, `go.mod`, `Cargo.toml`…), which
 * are untrusted files like its sources: read as the index reads source files, so a FIFO in their place cannot block
 * the index, a symlink is not followed out and a huge file is not read.
 */
import { readBounded } from "../scan/index.ts";

/** Larger settings files are not read: no real `tsconfig.json` or `go.mod` comes near it. */
const MAX_SETTINGS_BYTES = 1_000_000;

/**
 * A settings file's text, or `undefined` when it is missing, too large or not a regular file: read as the index reads
 * source files (`readBounded`), so a FIFO in its place cannot block the index and a symlink is not followed out.
 */
export async function readSettingsText(path: string): Promise<string | undefined> {
	const outcome = await readBounded(path, MAX_SETTINGS_BYTES);
	return outcome.kind === "content" ? outcome.bytes.toString("utf8") : undefined;
}

/** Reads a JSON-with-comments file (tsconfig, package.json), or `undefined` when it is missing or not parseable. */
export async function readJsonc(path: string): Promise<unknown> {
	const text = await readSettingsText(path);
	if (text === undefined) return undefined;
	const stripped = text
		.replace(/"(?:\\.|[^"\\])*"|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m) => (m.startsWith('"') ? m : ""))
		.replace(/,(\s*[}\]])/g, "$1");
	try {
		return JSON.parse(stripped);
	} catch {
		return undefined;
	}
}
