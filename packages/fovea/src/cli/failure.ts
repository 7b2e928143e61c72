/**
 * How the `fovea` and `contour` command-line tools end on an error: the message after the command's name, the usage
 * when the command line itself was wrong (a `UsageError`, or Node's `parseArgs` refusing it), and exit code 2.
 * Imports only `printable`, so a CLI's entry can use it before anything else loads.
 */
import { printableLines } from "./printable.ts";

/** A command line that names no valid command, argument or flag value: reported with the usage. */
export class UsageError extends Error {}

/** Writes `error` to stderr as `<command>: <message>` (with `usage` when the command line was wrong); exit code 2. */
export function reportCliFailure(command: string, usage: string, error: unknown): void {
	const wrongLine =
		error instanceof UsageError ||
		(error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"));
	// A message can quote the repository (a path, a policy's key, Git's own words): its control characters are
	// written out, so none acts on the terminal.
	const message = printableLines(error instanceof Error ? error.message : String(error));
	process.stderr.write(`${command}: ${message}\n${wrongLine ? `${usage}\n` : ""}`);
	process.exitCode = 2;
}
