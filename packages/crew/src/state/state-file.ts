import { open, readFile } from "node:fs/promises";
import writeFileAtomic from "write-file-atomic";
import { RunStateError } from "./errors.ts";

/**
 * Reads and parses a JSON file. A missing, empty or unparsable file is a RunStateError naming it; nothing is
 * ever written back here, so a damaged file stays exactly as it was for a person to inspect.
 */
export async function readJsonFile(file: string): Promise<unknown> {
	let text: string;
	try {
		text = await readFile(file, "utf8");
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		throw new RunStateError(file, code === "ENOENT" ? "missing" : `cannot be read (${(error as Error).message})`);
	}
	if (text.trim() === "") throw new RunStateError(file, "is empty (half-written?); left unchanged");
	try {
		return JSON.parse(text);
	} catch (error) {
		throw new RunStateError(file, `is not valid JSON (${(error as Error).message}); left unchanged`);
	}
}

/** Reads a text file; undefined when it does not exist. */
export async function readTextIfExists(file: string): Promise<string | undefined> {
	try {
		return await readFile(file, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw new RunStateError(file, `cannot be read (${(error as Error).message})`);
	}
}

/** Writes `value` as JSON atomically: a temporary file in the same folder, flushed, then renamed over `file`. */
export async function writeJsonFile(file: string, value: unknown): Promise<void> {
	await writeFileAtomic(file, `${JSON.stringify(value, null, "\t")}\n`, { fsync: true });
}

/**
 * Appends one line (ending in a newline) to `file`, creating it. When a crash left the file without its final
 * newline, the torn fragment is first ended with a newline so it stays a line of its own and the new line is
 * intact; existing bytes are never rewritten or truncated. Callers hold the run lock.
 */
export async function appendLine(file: string, line: string): Promise<void> {
	const handle = await open(file, "a+");
	try {
		const { size } = await handle.stat();
		let prefix = "";
		if (size > 0) {
			const last = Buffer.alloc(1);
			await handle.read(last, 0, 1, size - 1);
			if (last[0] !== 0x0a) prefix = "\n";
		}
		await handle.appendFile(`${prefix}${line}`);
		await handle.sync();
	} finally {
		await handle.close();
	}
}
