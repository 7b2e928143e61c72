/**
 * How the `fovea` and `contour` CLIs write their answer to stdout. A reader that stops early (`contour review --json
 * | head -c 100`) closes the pipe, and the write fails with EPIPE: the CLI then ends quietly with its answer's own
 * exit code (0, or Contour's 1 for a violated policy), since who read how much of the answer does not change the
 * verdict, and a pipeline under `set -o pipefail` still sees it. Any other write error (ENOSPC on `> /dev/full`, EIO)
 * means the answer was lost: an `OutputError`, which the CLI reports as one line on stderr with exit code 2
 * (`reportCliFailure`). The write is awaited rather than the process ended from an `error` listener: the code map's
 * cache is flushed after it, which `process.exit` would cut short.
 */

/** The answer could not be written (anything but the reader closing the pipe). */
export class OutputError extends Error {}

const guarded = new WeakSet<NodeJS.WritableStream>();

/**
 * Writes `text` to `stream` (default stdout) and resolves once it is written ("written") or the reader closed the
 * pipe ("closed"); rejects with an OutputError for any other failure.
 */
export function writeOutput(
	text: string,
	stream: NodeJS.WritableStream = process.stdout,
): Promise<"written" | "closed"> {
	// A failed write also emits `error` on the stream, which would end the process with a stack trace if nothing
	// listened; the write's callback below is where the failure is judged.
	if (!guarded.has(stream)) {
		guarded.add(stream);
		stream.on("error", () => {});
	}
	return new Promise((resolve, reject) => {
		stream.write(text, (error?: Error | null) => {
			if (error === undefined || error === null) resolve("written");
			else if ((error as NodeJS.ErrnoException).code === "EPIPE") resolve("closed");
			else reject(new OutputError(`cannot write the output: ${error.message}`));
		});
	});
}
