/**
 * The progress line of the `fovea` and `contour` command-line tools: while a root indexes, `<label> N/M files` is
 * rewritten in place on a terminal's stderr a few times a second (`pacedProgress`), and cleared before the answer
 * is written. Off a terminal nothing is written: a pipe or a log file would keep every rewrite.
 */
import { pacedProgress } from "../engine/pace/progress.ts";

/** A CLI run's progress line. */
export interface TerminalProgress {
	/** The callback a refresh reports to (`RefreshOptions.onProgress`); `undefined` when stderr is no terminal. */
	readonly onProgress: ((done: number, total: number) => void) | undefined;
	/** Clears the line, if anything was written on it. */
	clear(): void;
}

/** A progress line labelled `label` (`indexing`, `contour: indexing`) on `stream`. */
export function terminalProgress(
	label: string,
	stream: Pick<NodeJS.WriteStream, "isTTY" | "write"> = process.stderr,
): TerminalProgress {
	let shown = false;
	return {
		onProgress:
			stream.isTTY === true
				? pacedProgress((done, total) => {
						shown = true;
						stream.write(`\r${label} ${done}/${total} files`);
					})
				: undefined,
		clear() {
			if (shown) stream.write("\r\x1b[K");
			shown = false;
		},
	};
}
