/**
 * How the `fovea` and `contour` command-line tools end on an error: the message after the command's name, the usage
 * when the command line itself was wrong (a `UsageError`, or Node's `parseArgs` refusing it), and exit code 2; and
 * how they end when their output cannot be written. Imports only `printable`, so a CLI's entry can use it before
 * anything else loads.
 */
import { printable } from "./printable.ts";

/** A command line that names no valid command, argument or flag value: reported with the usage. */
export class UsageError extends Error {}

/** Writes `error` to stderr as `<command>: <message>` (with `usage` when the command line was wrong); exit code 2. */
export function reportCliFailure(command: string, usage: string, error: unknown): void {
	const wrongLine =
		error instanceof UsageError ||
		(error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"));
	// A message can quote the repository (a path, a policy's key, Git's own words): its control characters are
	// written out, so none acts on the terminal.
	const message = (error instanceof Error ? error.message : String(error)).split("\n").map(printable).join("\n");
	process.stderr.write(`${command}: ${message}\n${wrongLine ? `${usage}\n` : ""}`);
	process.exitCode = 2;
}

/**
 * Ends the process when standard output can no longer be written: quietly, with the exit code so far, when its
 * reader went away (`fovea sketch | head -1`: the rest has nobody to read it, which is no failure of the command);
 * with one line on stderr and exit code 2 for any other error (a full disk). Without it Node threw the write error
 * with a stack trace and exit code 1, which `contour` uses for a violated policy.
 */
export function endWhenOutputFails(command: string): void {
	process.stdout.on("error", (error: NodeJS.ErrnoException) => {
		if (error.code === "EPIPE") process.exit();
		process.stderr.write(`${command}: cannot write the output: ${printable(error.message)}\n`);
		process.exit(2);
	});
}
