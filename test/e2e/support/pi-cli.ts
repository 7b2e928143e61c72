/**
 * Drives real `pi` CLI processes for end-to-end tests: the CLI of the installed `@earendil-works/pi-coding-agent`
 * (the file its `pi` bin points at), run with this process's Node (Node 22 under `npm test` / `npx node`), with
 * the scripted model of `../fixtures/faux-model-extension.ts` and an isolated agent directory. No network access
 * (`PI_OFFLINE=1`), no API key, nothing under the real `~/.pi`.
 *
 * `runPi()` runs one-shot commands (`pi install …`); `PiRpc` runs `pi --mode rpc` and speaks its JSONL protocol
 * (docs/rpc.md): commands with ids and their responses, session events, and extension UI requests (`ctx.ui.notify`
 * arrives as `{type: "extension_ui_request", method: "notify", message, notifyType}`).
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { fileURLToPath } from "node:url";
import type { RpcCommand } from "@earendil-works/pi-coding-agent";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

const PI_PACKAGE = join(REPO_ROOT, "node_modules", "@earendil-works", "pi-coding-agent");

/**
 * The entry file of the `pi` bin (`dist/bundle/cli.js` in Pi 1.6), the program users run as `pi`. `PI_E2E_CLI`
 * overrides it (e.g. with the unbundled `dist/cli.js`, which resolves extension imports through aliases instead of
 * the bundle's embedded modules).
 */
export const PI_CLI: string = (() => {
	const override = process.env.PI_E2E_CLI;
	if (override !== undefined && override !== "") return resolve(override);
	const manifest = JSON.parse(readFileSync(join(PI_PACKAGE, "package.json"), "utf8")) as {
		bin?: string | Record<string, string>;
	};
	const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.pi;
	if (bin === undefined) throw new Error("@earendil-works/pi-coding-agent declares no `pi` bin");
	return resolve(PI_PACKAGE, bin);
})();

export const FAUX_MODEL_EXTENSION = fileURLToPath(new URL("../fixtures/faux-model-extension.ts", import.meta.url));
/** CLI flags selecting the scripted model (`FAUX_PROVIDER`/`FAUX_MODEL` of the faux model extension). */
export const FAUX_MODEL_ARGS: readonly string[] = ["--provider", "pi-faux", "--model", "scripted"];

/** Settings for a scripted session: a retry or a warming request would consume the next scripted turn. */
export const CLI_TEST_SETTINGS: Readonly<Record<string, unknown>> = {
	retry: { enabled: false },
	cacheWarming: "off",
};

/** Write `settings` (default `CLI_TEST_SETTINGS`) to `<agentDir>/settings.json`. */
export async function writeAgentSettings(agentDir: string, settings = CLI_TEST_SETTINGS): Promise<void> {
	await writeFile(join(agentDir, "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
}

/** A scripted model turn (see the contract in `faux-model-extension.ts`). */
export type FauxTurn =
	| string
	| {
			text?: string;
			thinking?: string;
			toolCalls?: { name: string; arguments: Record<string, unknown>; id?: string }[];
			error?: string;
	  };

/** Write a faux model script file; pass its path as `PI_FAUX_SCRIPT`. */
export async function writeFauxScript(
	file: string,
	script: FauxTurn[] | { turns?: FauxTurn[]; routes?: { match: string; turns: FauxTurn[] }[] },
): Promise<string> {
	await writeFile(file, `${JSON.stringify(script, null, 2)}\n`);
	return file;
}

/**
 * Environment of a pi child process: this process's environment (PATH keeps Node 22 first under `npx`/`npm run`),
 * minus `PI_CODING_AGENT_SESSION_DIR` and `PI_FAUX_*`, with an isolated agent directory, offline mode, no version check or telemetry, plus `extra` (e.g. `PI_FAUX_SCRIPT`).
 */
export function piEnv(agentDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const inherited = { ...process.env };
	// Not inherited: the harness's session dir, and any faux model settings of the calling environment.
	for (const name of Object.keys(inherited)) {
		if (name === "PI_CODING_AGENT_SESSION_DIR" || name.startsWith("PI_FAUX_")) delete inherited[name];
	}
	return {
		...inherited,
		PI_CODING_AGENT_DIR: agentDir,
		PI_OFFLINE: "1",
		PI_SKIP_VERSION_CHECK: "1",
		PI_TELEMETRY: "0",
		// Pi loads extensions with jiti, which otherwise caches transpiled files in `<tmpdir>/jiti`.
		JITI_FS_CACHE: "false",
		...extra,
	};
}

export interface ExecResult {
	code: number | null;
	stdout: string;
	stderr: string;
}

/**
 * Run a program to completion (killed after `timeoutMs`) with an empty stdin: `pi -p` reads a piped stdin to its
 * end and prepends it to the first prompt. Never rejects on a non-zero exit.
 */
export function run(
	file: string,
	args: readonly string[],
	options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<ExecResult> {
	return new Promise((done) => {
		const child = execFile(
			file,
			args,
			{ cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs ?? 30_000, encoding: "utf8" },
			(error, stdout, stderr) => {
				const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
				done({ code, stdout, stderr });
			},
		);
		child.stdin?.end();
	});
}

/** Run `pi <args>` to completion with this process's Node. */
export function runPi(
	args: readonly string[],
	options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<ExecResult> {
	return run(process.execPath, [PI_CLI, ...args], options);
}

/** One JSON record Pi wrote to stdout in RPC mode. */
export type RpcRecord = { type: string } & Record<string, unknown>;

/** A `response` record. */
export interface RpcReply extends RpcRecord {
	type: "response";
	id?: string;
	command: string;
	success: boolean;
	data?: unknown;
	error?: string;
}

/** One `ctx.ui.notify` call as an RPC client sees it. */
export interface RpcNotification {
	message: string;
	notifyType: string | undefined;
}

/** What one command did: its response, and every record from sending it until then (or until the run settled). */
export interface RpcExchange {
	response: RpcReply;
	records: RpcRecord[];
	notifications: RpcNotification[];
}

export interface PiRpcOptions {
	cwd: string;
	env: NodeJS.ProcessEnv;
	/** CLI arguments after `--mode rpc`. */
	args: readonly string[];
	/** Default deadline of each wait. */
	timeoutMs?: number;
}

/** A `pi --mode rpc` child process and a JSONL client for it. Always `close()` it (e.g. in `finally`). */
export class PiRpc {
	/** Every stdout record so far, in order. */
	readonly records: RpcRecord[] = [];
	/** Non-JSON stdout lines (should stay empty: stdout is reserved for protocol records). */
	readonly strayStdout: string[] = [];
	private stderrText = "";
	private nextId = 0;
	private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
	private readonly waiters = new Set<() => void>();
	private readonly child: ChildProcessWithoutNullStreams;
	private readonly timeoutMs: number;

	private constructor(options: PiRpcOptions) {
		this.timeoutMs = options.timeoutMs ?? 20_000;
		this.child = spawn(process.execPath, [PI_CLI, "--mode", "rpc", ...options.args], {
			cwd: options.cwd,
			env: options.env,
			stdio: ["pipe", "pipe", "pipe"],
		});
		// Split on LF only (docs/rpc.md: readline would also split on U+2028/U+2029 inside JSON strings).
		const decoder = new StringDecoder("utf8");
		let pending = "";
		this.child.stdout.on("data", (chunk: Buffer) => {
			pending += decoder.write(chunk);
			let newline = pending.indexOf("\n");
			while (newline >= 0) {
				const line = pending.slice(0, newline).replace(/\r$/, "");
				pending = pending.slice(newline + 1);
				if (line.trim() !== "") this.accept(line);
				newline = pending.indexOf("\n");
			}
		});
		this.child.stderr.on("data", (chunk: Buffer) => {
			this.stderrText += chunk.toString("utf8");
		});
		this.child.stdin.on("error", () => {});
		this.child.on("exit", (code, signal) => {
			this.exit = { code, signal };
			this.wake();
		});
		this.child.on("error", (error) => {
			this.stderrText += `\n[spawn error] ${error.message}`;
			this.exit ??= { code: null, signal: null };
			this.wake();
		});
	}

	/** Spawn `pi --mode rpc <args>`. */
	static start(options: PiRpcOptions): PiRpc {
		return new PiRpc(options);
	}

	/** Everything the process wrote to stderr so far. */
	get stderr(): string {
		return this.stderrText;
	}

	/** Exit status once the process has exited. */
	get exited(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
		return this.exit;
	}

	private accept(line: string): void {
		let record: unknown;
		try {
			record = JSON.parse(line);
		} catch {
			this.strayStdout.push(line);
			return;
		}
		if (record !== null && typeof record === "object" && typeof (record as { type?: unknown }).type === "string") {
			this.records.push(record as RpcRecord);
		} else {
			this.strayStdout.push(line);
		}
		this.wake();
	}

	private wake(): void {
		for (const waiter of [...this.waiters]) waiter();
	}

	/** Diagnostic text for failures: exit status, stderr tail, last records. */
	describe(): string {
		const tail = this.records
			.slice(-8)
			.map((record) => JSON.stringify(record).slice(0, 300))
			.join("\n  ");
		const exit = this.exit === undefined ? "running" : `exited code=${this.exit.code} signal=${this.exit.signal}`;
		return `pi ${exit}\nstderr:\n${this.stderrText.slice(-3000)}\nlast records:\n  ${tail}`;
	}

	/** Wait until some record at index ≥ `from` satisfies `predicate`; returns it. Fails if the process exits. */
	waitForRecord(
		predicate: (record: RpcRecord) => boolean,
		what: string,
		from = 0,
		timeoutMs = this.timeoutMs,
	): Promise<RpcRecord> {
		return new Promise((resolvePromise, reject) => {
			let scanned = from;
			const check = (): void => {
				for (; scanned < this.records.length; scanned++) {
					const record = this.records[scanned] as RpcRecord;
					if (predicate(record)) {
						finish();
						resolvePromise(record);
						return;
					}
				}
				if (this.exit !== undefined) {
					finish();
					reject(new Error(`pi exited while waiting for ${what}\n${this.describe()}`));
				}
			};
			const timer = setTimeout(() => {
				finish();
				reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${this.describe()}`));
			}, timeoutMs);
			const finish = (): void => {
				clearTimeout(timer);
				this.waiters.delete(check);
			};
			this.waiters.add(check);
			check();
		});
	}

	/** Send a command and wait for its response (any `success`). */
	async send(command: RpcCommand): Promise<RpcReply> {
		const id = `cli-test-${++this.nextId}`;
		const from = this.records.length;
		this.child.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
		const reply = await this.waitForRecord(
			(record) => record.type === "response" && record.id === id,
			`response to ${command.type} ${id}`,
			from,
		);
		return reply as RpcReply;
	}

	/** Send a command that must succeed; returns its `data`. */
	async request(command: RpcCommand): Promise<unknown> {
		const reply = await this.send(command);
		if (!reply.success) throw new Error(`${command.type} failed: ${reply.error ?? "?"}\n${this.describe()}`);
		return reply.data;
	}

	/**
	 * Send a `prompt` and wait until it is done: for a run (`disposition: "started"`), until `agent_settled`; for a
	 * handled prompt (an extension command), until the response. Returns the records in between.
	 */
	async prompt(message: string): Promise<RpcExchange> {
		const from = this.records.length;
		const response = await this.send({ type: "prompt", message });
		if (!response.success) throw new Error(`prompt ${message} failed: ${response.error ?? "?"}\n${this.describe()}`);
		const disposition = (response.data as { disposition?: string } | undefined)?.disposition;
		let end = this.records.indexOf(response) + 1;
		if (disposition === "started") {
			const settled = await this.waitForRecord((record) => record.type === "agent_settled", "agent_settled", from);
			end = this.records.indexOf(settled) + 1;
		}
		const records = this.records.slice(from, end);
		return { response, records, notifications: notificationsOf(records) };
	}

	/** Close stdin (Pi's orderly shutdown) and wait for the exit; SIGKILL after `graceMs`. Idempotent. */
	async close(graceMs = 5000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
		if (this.exit === undefined) {
			this.child.stdin.end();
			const exited = this.waitForExit(graceMs);
			if (!(await exited)) {
				this.child.kill("SIGKILL");
				await this.waitForExit(5000);
			}
		}
		return this.exit ?? { code: null, signal: null };
	}

	/** Kill the process at once (SIGKILL). */
	kill(): void {
		if (this.exit === undefined) this.child.kill("SIGKILL");
	}

	private waitForExit(timeoutMs: number): Promise<boolean> {
		return new Promise((resolvePromise) => {
			const check = (): void => {
				if (this.exit === undefined) return;
				clearTimeout(timer);
				this.waiters.delete(check);
				resolvePromise(true);
			};
			const timer = setTimeout(() => {
				this.waiters.delete(check);
				resolvePromise(false);
			}, timeoutMs);
			this.waiters.add(check);
			check();
		});
	}
}

/** The `notify` extension UI requests among `records`, in order. */
export function notificationsOf(records: readonly RpcRecord[]): RpcNotification[] {
	const result: RpcNotification[] = [];
	for (const record of records) {
		if (record.type !== "extension_ui_request" || record.method !== "notify") continue;
		result.push({
			message: String(record.message),
			notifyType: typeof record.notifyType === "string" ? record.notifyType : undefined,
		});
	}
	return result;
}

/** The tool executions of `records`: name and whether they failed. */
export function toolExecutions(records: readonly RpcRecord[]): { toolName: string; isError: boolean }[] {
	return records
		.filter((record) => record.type === "tool_execution_end")
		.map((record) => ({ toolName: String(record.toolName), isError: record.isError === true }));
}

/** Parse a session JSONL file into its records (header first). */
export function readSessionFile(file: string): RpcRecord[] {
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((line) => line.trim() !== "")
		.map((line) => JSON.parse(line) as RpcRecord);
}

/** `data` of every `custom` entry of `customType` in a parsed session file, in file order. */
export function customEntryData<T>(records: readonly RpcRecord[], customType: string): T[] {
	return records
		.filter((record) => record.type === "custom" && record.customType === customType)
		.map((record) => record.data as T);
}
