import type { ExtensionAPI, ExtensionUIContext } from "@earendil-works/pi-coding-agent";
import { statusColor } from "pi-fovea/status-item";
import type { ModelChoice } from "../runtime/agent-launch.ts";
import type { CrewEvent } from "../runtime/crew-events.ts";
import { CrewRuntime } from "../runtime/crew-runtime.ts";
import { processRegistry } from "../runtime/live-agents.ts";
import type { SessionScope } from "../runtime/run-access.ts";
import { isFinalRunStatus, type RunStatus } from "../state/status.ts";
import { AccessReporter } from "./access-hints.ts";
import { type CrewExtensionOptions, coordinatorPiCommand, envPiArgs, parseModelChoice } from "./crew-config.ts";
import { deliverQuestion } from "./question-delivery.ts";
import { runEndedText } from "./run-text.ts";
import { runEndNotice } from "./run-words.ts";
import { crewStatusText, CREW_STATUS_KEY as STATUS_KEY } from "./status-item.ts";
import { WIDGET_KEY, widgetContent, widgetRows } from "./widget.ts";
import { WidgetPainter } from "./widget-painter.ts";
import { worktreePrepareHook } from "./worktree-hooks.ts";

/** Who the session is: its id, the folder Pi runs in, and its workspace (the canonical project root of that folder). */
export interface SessionIdentity {
	sessionId: string;
	cwd: string;
	workspace: string;
}

/**
 * What the session needs from Pi after start: the UI (absent in print and JSON mode), the current model and the
 * run mode (`tui` gets a themed, width-aware widget; RPC clients plain lines).
 */
export interface SessionHost {
	ui(): ExtensionUIContext | undefined;
	model(): ModelChoice | undefined;
	mode(): string;
}

/** A run whose end a `pi-crew-run` message tells, and the state it ended in. */
export interface RunEnd {
	runId: string;
	status: RunStatus;
}

/** The custom message type that tells the coordinator a run it started has ended. */
export const RUN_ENDED_MESSAGE = "pi-crew-run";

/**
 * pi-crew in one Pi session: its runtime (agents run in this process's children), the widget of this workspace's
 * and session's runs, the access reports that make the coordinator's Fovea and Contour enroll the roots agents
 * touch, and a message to the coordinator when a run it left running ends. Every operation is scoped to the
 * session's workspace and id; `force` reaches only ended sessions of the same workspace, never a live one.
 */
export class CrewSession {
	readonly identity: SessionIdentity;
	readonly runtime: CrewRuntime;
	readonly access: AccessReporter;
	readonly #pi: ExtensionAPI;
	readonly #host: SessionHost;
	readonly #painter: WidgetPainter;
	/** Runs started here without waiting: their end is told to the coordinator. */
	readonly #watched = new Set<string>();
	/** The last status told per run, and the newest status event per run: an older state is never sent. */
	readonly #told = new Map<string, RunStatus>();
	readonly #latest = new Map<string, number>();
	/** Run-end texts for the coordinator's next turn, the latest per run (see takeRunMessage). */
	readonly #pending = new Map<string, { status: RunStatus; text: string }>();
	#sequence = 0;
	#unsubscribe: (() => void) | undefined;
	#closed = false;

	constructor(pi: ExtensionAPI, options: CrewExtensionOptions, identity: SessionIdentity, host: SessionHost) {
		this.#pi = pi;
		this.#host = host;
		this.identity = identity;
		const env = options.env ?? process.env;
		const fixedModel = options.model ?? parseModelChoice(env.PI_CREW_MODEL);
		const piCommand =
			options.pi ?? (env.PI_CREW_PI_CLI?.trim() ? undefined : coordinatorPiCommand(options.argv ?? process.argv));
		this.access = new AccessReporter(identity.sessionId, (channel, payload) => pi.events.emit(channel, payload));
		this.runtime = new CrewRuntime({
			registry: processRegistry(),
			env,
			...(piCommand ? { pi: piCommand } : {}),
			piArgs: options.piArgs ?? envPiArgs(env),
			// Read when each run's execution is set up, so agents follow the model the coordinator uses at that time.
			get defaultModel() {
				return fixedModel ?? host.model();
			},
			prepareWorkspace: worktreePrepareHook(),
			onAccess: (agentId, path, event) => void this.access.report(agentId, path, event),
		});
		this.#painter = new WidgetPainter(() => this.#paint());
	}

	/** The scope of this session's requests. */
	scope(force?: boolean): SessionScope {
		return { cwd: this.identity.workspace, sessionId: this.identity.sessionId, ...(force ? { force: true } : {}) };
	}

	/**
	 * Starts watching this session's runs (widget, run-end messages) and, for session_start, marks the workspace's
	 * runs whose owner died as interrupted. Returns this session's interrupted runs, to tell the user.
	 */
	async start(): Promise<string[]> {
		this.#unsubscribe = await this.runtime.subscribe(this.scope(), (event) => this.#onEvent(event));
		await this.runtime.recoverInterrupted(this.scope());
		const interrupted = await this.runtime.list({ ...this.scope(), status: ["interrupted"] });
		await this.#painter.now();
		return interrupted.map((l) => l.runId);
	}

	/** Tells the coordinator (on its next turn) when run `runId` ends. */
	watch(runId: string): void {
		this.#watched.add(runId);
	}

	/** Shows the current state in the widget now. */
	repaint(): Promise<void> {
		return this.#painter.now();
	}

	#onEvent(event: CrewEvent): void {
		if (this.#closed) return;
		this.#painter.request();
		if (event.type === "agent.question") {
			deliverQuestion(this.#pi, { sessionId: this.identity.sessionId, workspace: this.identity.workspace }, event);
			return;
		}
		if (event.type !== "run.status") return;
		const status = event.data?.status as RunStatus | undefined;
		if (status === undefined) return;
		const sequence = ++this.#sequence;
		this.#latest.set(event.runId, sequence);
		if (!isFinalRunStatus(status) && status !== "interrupted") {
			// Resumed or retried: what was pending about the run is no longer true.
			this.#pending.delete(event.runId);
			return;
		}
		const watched = this.#watched.has(event.runId);
		if (isFinalRunStatus(status)) this.#watched.delete(event.runId);
		void this.#tellEnded(event.runId, sequence, watched);
	}

	/**
	 * Tells the person at once (a notification) and, for a run it started without waiting, the coordinator on its
	 * next turn (see takeRunMessage) that run `runId` stopped. A state already told, or one a newer status event
	 * superseded meanwhile (an interrupted run resumed and finished), is not sent.
	 */
	async #tellEnded(runId: string, sequence: number, watched: boolean): Promise<void> {
		try {
			const run = await this.runtime.status({ ...this.scope(), runId });
			const status = run.manifest.status;
			if (this.#closed || this.#latest.get(runId) !== sequence || this.#told.get(runId) === status) return;
			if (!isFinalRunStatus(status) && status !== "interrupted") return;
			this.#told.set(runId, status);
			// A cancel is the person's own doing, and /team cancel answers it already.
			if (status !== "cancelled") {
				const notice = runEndNotice(run.manifest, run.tasks);
				this.#host.ui()?.notify(notice.text, notice.type);
			}
			if (watched) this.#pending.set(runId, { status, text: runEndedText(run) });
		} catch {
			// The run could not be read (edited by hand?); status will say why.
		}
	}

	/**
	 * For before_agent_start: one message telling the coordinator's next turn how the runs it started ended, the
	 * latest state of each only (an interrupted run that was resumed and finished since reads as finished), or
	 * undefined when there is nothing new. Shown in the chat with its own label (run-message.ts).
	 */
	takeRunMessage(): { customType: string; content: string; display: true; details: { runs: RunEnd[] } } | undefined {
		if (this.#closed || this.#pending.size === 0) return undefined;
		const runs = [...this.#pending].map(([runId, { status }]) => ({ runId, status }));
		const content = [...this.#pending.values()].map((p) => p.text).join("\n\n");
		this.#pending.clear();
		return { customType: RUN_ENDED_MESSAGE, content, display: true, details: { runs } };
	}

	async #paint(): Promise<void> {
		const ui = this.#host.ui();
		if (this.#closed || ui === undefined) return;
		const { runs, agents } = await this.runtime.overview(this.scope());
		if (this.#closed) return;
		const content = widgetContent(this.#host.mode(), (options) => widgetRows(runs, agents, options));
		if (typeof content === "function") ui.setWidget(WIDGET_KEY, content);
		else ui.setWidget(WIDGET_KEY, content);
		ui.setStatus(STATUS_KEY, statusColor({ ui, mode: this.#host.mode() }, "dim", crewStatusText(runs)));
	}

	/** For session_shutdown: ends this session's agents (their runs become interrupted and resumable) and the widget. */
	async shutdown(): Promise<void> {
		if (this.#closed) return;
		this.#closed = true;
		this.#painter.close();
		this.access.close();
		this.#unsubscribe?.();
		await this.runtime.shutdown();
		try {
			this.#host.ui()?.setWidget(WIDGET_KEY, undefined);
			this.#host.ui()?.setStatus(STATUS_KEY, undefined);
		} catch {
			// The UI may already be gone.
		}
	}
}
