/**
 * Runs this Node (the one running the tests) in a child process and collects its exit code and output, for tests
 * of CLIs and of whole processes (that they exit, what they print), and for benchmarks that time such runs.
 */
import { spawn } from "node:child_process";

/** How a child process ended. */
export interface NodeRun {
	code: number | null;
	/** The signal that ended the child, when one did. */
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	/** Wall time from spawn to exit. */
	ms: number;
}

/**
 * `node ...args` with `env` added to this process's environment. After `timeoutMs` the child is killed, so a process
 * that would not exit shows as a failed run (exit code `null`) rather than as the test runner's own timeout.
 */
export function runNode(
	args: readonly string[],
	options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<NodeRun> {
	return new Promise((resolve, reject) => {
		const start = performance.now();
		const child = spawn(process.execPath, args, {
			...(options.cwd === undefined ? {} : { cwd: options.cwd }),
			env: { ...process.env, ...options.env },
			stdio: ["ignore", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (chunk: Buffer) => {
			stdout += chunk.toString();
		});
		child.stderr.on("data", (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		const timer =
			options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
		child.on("error", (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on("close", (code, signal) => {
			clearTimeout(timer);
			resolve({ code, signal, stdout, stderr, ms: performance.now() - start });
		});
	});
}
