import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import type { AccessedPath } from "pi-fovea/workspace";
import { AgentCapture, type AgentUsage } from "./agent-capture.ts";
import type { PiCommand } from "./pi-command.ts";
import { killProcessTree } from "./process-tree.ts";
import { questionToolCall } from "./question-protocol.ts";
import { RpcConnection, type RpcRecord, type RpcResponse } from "./rpc-connection.ts";

/** What a sub-agent process needs. */
export interface ChildAgentOptions {
	pi: PiCommand;
	/** The working folder of the agent (the workspace, or its worktree). */
	cwd: string;
	/** The agent's session file: created on first use, continued when it exists. */
	sessionFile: string;
	/** Further Pi arguments: model, tools, system prompt, extensions. */
	args: readonly string[];
	env: NodeJS.ProcessEnv;
	/** A working agent silent on stdout this long is ended as hung. */
	noOutputTimeoutMs: number;
	/** How long the process may take to answer its first command. Default: 60 s or noOutputTimeoutMs if larger. */
	startupTimeoutMs?: number;
	/** Every record the process writes, after the capture has seen it. */
	onRecord?: (record: RpcRecord) => void;
	/** Each path a successful tool call of the agent touched, the first time it is seen. */
	onAccess?: (access: AccessedPath) => void;
	/** A question the agent asks its coordinator (`ask_coordinator`); without it, questions are answered "cancelled". */
	onQuestion?: (question: AgentQuestion) => void;
	/** The question's tool call ended: answered, timed out in the child, or cancelled. */
	onQuestionClosed?: (toolCallId: string) => void;
}

/** A question of the agent to its coordinator, waiting for `answer()`. */
export interface AgentQuestion {
	toolCallId: string;
	text: string;
}

/** How a prompt ended: the agent settled (`completed`, or `aborted` by an abort), was ended by us, or died. */
export type AgentEnd = "completed" | "aborted" | "stopped" | "timeout" | "exited";

/** The result of one prompt. */
export interface AgentOutcome {
	end: AgentEnd;
	/** The last assistant text. */
	text: string | undefined;
	/** Why the agent failed (model error, exit, timeout), when it did. */
	error: string | undefined;
	/** The signal that ended the process, when it died of one (`exited`): killed, not failed on its own. */
	signal?: NodeJS.Signals;
	usage: AgentUsage;
	changedFiles: string[];
	accessedPaths: string[];
}

/** Where the process stands. */
export type ChildAgentState = "starting" | "working" | "idle" | "exited";

const STDERR_TAIL = 2000;

/**
 * One sub-agent: a `pi --mode rpc --session <file>` child in a process group of its own, with a typed client.
 * `run()` sends a prompt and resolves when Pi settles; `steer`/`followUp` reach the run in flight; `stop()` asks
 * Pi to abort, then ends the whole process tree. A working agent that writes nothing for `noOutputTimeoutMs` is
 * ended as hung. Extension dialogs in the child are answered "cancelled", since nobody is there to answer them.
 */
export class ChildAgent {
	readonly capture: AgentCapture;
	readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
	readonly #options: ChildAgentOptions;
	readonly #child: ChildProcessWithoutNullStreams;
	readonly #rpc: RpcConnection;
	#state: ChildAgentState = "starting";
	#stderr = "";
	#exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
	#timer: NodeJS.Timeout | undefined;
	#timeoutMs = 0;
	#heard = false;
	#ending: "stopped" | "timeout" | undefined;
	#settle: ((aborted: boolean) => void) | undefined;
	#fail: ((error: Error) => void) | undefined;
	/** Open questions: tool call id -> the dialog request id the answer goes to, oldest first. */
	readonly #questions = new Map<string, string>();

	private constructor(options: ChildAgentOptions) {
		this.#options = options;
		this.capture = new AgentCapture(options.cwd);
		const { pi, sessionFile, args } = options;
		this.#child = spawn(pi.command, [...pi.args, "--mode", "rpc", "--session", sessionFile, ...args], {
			cwd: options.cwd,
			env: options.env,
			stdio: ["pipe", "pipe", "pipe"],
			// A group of its own: the coordinator's terminal signals do not reach it, and stop() can end it whole.
			detached: true,
		});
		this.exited = new Promise((resolve) => {
			const done = (code: number | null, signal: NodeJS.Signals | null): void => {
				if (this.#exit) return;
				this.#exit = { code, signal };
				this.#state = "exited";
				this.#disarm();
				this.#rpc.close(new Error(`the agent process exited (${this.#describeExit()})`));
				this.#fail?.(new Error(`the agent process exited (${this.#describeExit()})`));
				resolve(this.#exit);
			};
			this.#child.on("exit", done);
			this.#child.on("error", (error) => {
				this.#stderr += `\n[spawn error] ${error.message}`;
				done(null, null);
			});
		});
		this.#child.stderr.on("data", (chunk: Buffer) => {
			this.#stderr = (this.#stderr + chunk.toString("utf8")).slice(-STDERR_TAIL);
		});
		this.#rpc = new RpcConnection(this.#child.stdin, this.#child.stdout, (record) => this.#record(record));
		this.#arm(this.#startupTimeoutMs());
	}

	#startupTimeoutMs(): number {
		return this.#options.startupTimeoutMs ?? Math.max(60_000, this.#options.noOutputTimeoutMs);
	}

	/** Starts the process. Spawn failures surface as an `exited` outcome of the first `run`. */
	static spawn(options: ChildAgentOptions): ChildAgent {
		return new ChildAgent(options);
	}

	/** The process id (undefined if it could not be started). */
	get pid(): number | undefined {
		return this.#child.pid;
	}

	get state(): ChildAgentState {
		return this.#state;
	}

	/** Records written to the process so far: the strongest check that a refused request sent nothing. */
	get sends(): number {
		return this.#rpc.sent;
	}

	/** The tail of the process's stderr, for error messages. */
	get stderr(): string {
		return this.#stderr;
	}

	#describeExit(): string {
		const exit = this.#exit;
		if (exit === undefined) return "still running";
		return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
	}

	#arm(ms: number): void {
		this.#disarm();
		this.#timer = setTimeout(() => void this.#timedOut(ms), ms);
		this.#timer.unref();
	}

	#disarm(): void {
		if (this.#timer) clearTimeout(this.#timer);
		this.#timer = undefined;
	}

	async #timedOut(ms: number): Promise<void> {
		if (this.#state === "exited" || this.#state === "idle") return;
		if (this.#questions.size > 0) {
			// Waiting for its coordinator is not hanging; the child's own question timeout bounds the wait.
			this.#arm(ms);
			return;
		}
		this.#ending ??= "timeout";
		this.#timeoutMs = ms;
		await this.#kill();
	}

	#record(record: RpcRecord): void {
		this.#heard = true;
		// Silence counts only while the agent works; an idle agent between prompts may be quiet for any time.
		if (this.#state === "working") this.#arm(this.#options.noOutputTimeoutMs);
		else if (this.#state === "starting") this.#disarm();
		for (const access of this.capture.accept(record)) this.#options.onAccess?.(access);
		const asked = record.type === "extension_ui_request" ? questionToolCall(record.title) : undefined;
		if (asked !== undefined && record.method === "input" && typeof record.id === "string" && this.#options.onQuestion) {
			this.#questions.set(asked, record.id);
			this.#options.onQuestion({
				toolCallId: asked,
				text: typeof record.placeholder === "string" ? record.placeholder : "",
			});
		} else if (record.type === "extension_ui_request" && typeof record.id === "string") {
			if (["select", "confirm", "input", "editor"].includes(String(record.method))) {
				this.#rpc.write({ type: "extension_ui_response", id: record.id, cancelled: true });
			}
		}
		if (record.type === "tool_execution_end" && typeof record.toolCallId === "string") {
			if (this.#questions.delete(record.toolCallId)) this.#options.onQuestionClosed?.(record.toolCallId);
		}
		if (record.type === "agent_settled") this.#settle?.(record.aborted === true);
		this.#options.onRecord?.(record);
	}

	/** Sends `prompt` and waits until Pi settles (or the process ends); never rejects. */
	async run(prompt: string): Promise<AgentOutcome> {
		if (this.#state === "working") throw new Error("the agent is already working on a prompt");
		const settled = new Promise<boolean>((resolve, reject) => {
			this.#settle = resolve;
			this.#fail = reject;
		});
		// The process may end before the prompt is even answered; that rejection is read below, not left unhandled.
		settled.catch(() => {});
		let aborted = false;
		let failure: string | undefined;
		try {
			if (this.#state !== "exited") this.#state = "working";
			this.#arm(this.#heard ? this.#options.noOutputTimeoutMs : this.#startupTimeoutMs());
			const response = await this.#rpc.request({ type: "prompt", message: prompt });
			if (!response.success) throw new Error(`Pi refused the prompt: ${response.error ?? "no reason given"}`);
			const disposition = (response.data as { disposition?: unknown } | undefined)?.disposition;
			if (disposition === "started") aborted = await settled;
		} catch (error) {
			failure = (error as Error).message;
		} finally {
			this.#settle = undefined;
			this.#fail = undefined;
			if (this.#state === "working") this.#state = "idle";
			this.#disarm();
		}
		return this.#outcome(aborted, failure);
	}

	#outcome(aborted: boolean, failure: string | undefined): AgentOutcome {
		const c = this.capture;
		const base = {
			text: c.lastText,
			usage: { ...c.usage },
			changedFiles: c.changedFiles,
			accessedPaths: c.accessedPaths,
		};
		if (this.#ending === "timeout") {
			const error = `no output from the agent for ${this.#timeoutMs} ms; its processes were ended`;
			return { ...base, end: "timeout", error };
		}
		if (this.#ending === "stopped") return { ...base, end: "stopped", error: undefined };
		if (failure !== undefined) {
			const tail = this.#stderr.trim();
			const signal = this.#exit?.signal ?? undefined;
			const error = tail === "" ? failure : `${failure}\n${tail.slice(-800)}`;
			return { ...base, end: "exited", error, ...(signal ? { signal } : {}) };
		}
		return { ...base, end: aborted ? "aborted" : "completed", error: c.lastError };
	}

	async #control(type: "steer" | "follow_up", message: string): Promise<RpcResponse> {
		if (this.#state !== "working") throw new Error(`the agent is not working on a prompt (it is ${this.#state})`);
		const response = await this.#rpc.request({ type, message });
		if (!response.success) throw new Error(`Pi refused the ${type}: ${response.error ?? "no reason given"}`);
		return response;
	}

	/** Queues `message` for the run in flight, delivered before the agent's next model call. */
	async steer(message: string): Promise<void> {
		await this.#control("steer", message);
	}

	/** Queues `message` for when the run in flight would end. */
	async followUp(message: string): Promise<void> {
		await this.#control("follow_up", message);
	}

	/** Answers the oldest open question with `text`; returns its tool call id, or undefined when none is open. */
	answer(text: string): string | undefined {
		const [toolCallId, dialogId] = this.#questions.entries().next().value ?? [];
		if (toolCallId === undefined || dialogId === undefined) return undefined;
		this.#questions.delete(toolCallId);
		this.#rpc.write({ type: "extension_ui_response", id: dialogId, value: text });
		return toolCallId;
	}

	/** Asks Pi to abort the run in flight (giving it `graceMs`), then ends the process tree. Idempotent. */
	async stop(graceMs = 1500): Promise<void> {
		if (this.#state === "exited") return;
		this.#ending ??= "stopped";
		if (this.#state === "working") {
			// Pi records the abort in the session, so a later resume sees a clean end of the interrupted turn.
			const abort = this.#rpc.request({ type: "abort" }).catch(() => undefined);
			await Promise.race([abort, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
		}
		await this.#kill();
	}

	/** Ends stdin (Pi's orderly shutdown) and waits; ends the tree if it has not exited after `graceMs`. */
	async close(graceMs = 5000): Promise<void> {
		if (this.#state === "exited") return;
		this.#rpc.close(new Error("the agent was closed"));
		const timer = new Promise<"late">((resolve) => setTimeout(() => resolve("late"), graceMs).unref());
		if ((await Promise.race([this.exited, timer])) === "late") await this.#kill();
	}

	async #kill(): Promise<void> {
		const pid = this.#child.pid;
		if (pid !== undefined && this.#state !== "exited") await killProcessTree(pid, { group: true });
		await this.exited;
	}
}
