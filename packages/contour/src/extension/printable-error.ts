/**
 * Errors whose messages carry text from a repository (policy keys and globs, JSON.parse snippets of a policy, paths,
 * Git's own words) made safe to show: the extension's tool and command errors reach Pi's terminal, where an escape
 * sequence could retitle, clear or rewrite the screen. Escaped line by line with the report's `printable`, as the
 * CLI's `reportCliFailure` (`pi-fovea/cli-failure`) escapes its error line.
 */
import { printableLines } from "pi-fovea/printable";

/**
 * `error` with its message made printable. An Error stays the same object (its message rewritten), so its class and
 * fields (a ConflictError's paths) stay as they were; anything else becomes an Error.
 */
export function withPrintableMessage(error: unknown): Error {
	if (!(error instanceof Error)) return new Error(printableLines(String(error)));
	const message = printableLines(error.message);
	if (message === error.message) return error;
	try {
		error.message = message;
		if (error.message === message) return error;
	} catch {
		// A frozen or read-only message: a plain Error says the same.
	}
	return new Error(message);
}
