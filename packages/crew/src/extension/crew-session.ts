import type { ExtensionAPI, ExtensionUIContext } from "@earendil-works/pi-coding-agent";
import type { ModelChoice } from "../runtime/agent-launch.ts";
import type { CrewEvent } from "../runtime/crew-events.ts";
import { CrewRuntime } from "../runtime/crew-runtime.ts";
import { processRegistry } from "../runtime/live-agents.ts";
import type { SessionScope } from "../runtime/run-access.ts";
import { isFinalRunStatus, type RunStatus } from "../state/status.ts";
import { AccessReporter } from "./access-hints.ts";
import { type CrewExtensionOptions, coordinatorPiCommand, envPiArgs, parseModelChoice } from "./crew-config.ts";
import { runEndedText } from "./run-text.ts";
import { WIDGET_KEY, WidgetPainter, widgetLines } from "./widget.ts";
import { worktreePrepareHook } from "./worktree-hooks.ts";

/** Who the session is: its id, the folder Pi runs in, and its workspace (the canonical project root of that folder). */
export interface SessionIdentity {
	sessionId: string;
	cwd: string;
	workspace: string;
}

/** What the session needs from Pi after start: the UI (absent in print and JSON mode) and the current model. */
export interface SessionHost {
	ui(): ExtensionUIContext | undefined;
	model(): ModelChoice | undefined;
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
		if (event.type !== "run.status" || !this.#watched.has(event.runId)) return;
		const status = event.data?.status as RunStatus | undefined;
		if (status === undefined || (!isFinalRunStatus(status) && status !== "interrupted")) return;
		if (isFinalRunStatus(status)) this.#watched.delete(event.runId);
		void this.#tellEnded(event.runId);
	}

	async #tellEnded(runId: string): Promise<void> {
		try {
			const run = await this.runtime.status({ ...this.scope(), runId });
			if (this.#closed) return;
			this.#pi.sendMessage(
				{ customType: RUN_ENDED_MESSAGE, content: runEndedText(run), display: true, details: { runId } },
				{ deliverAs: "nextTurn" },
			);
		} catch {
			// The run could not be read (edited by hand?); status will say why.
		}
	}

	async #paint(): Promise<void> {
		const ui = this.#host.ui();
		if (this.#closed || ui === undefined) return;
		const { runs, agents } = await this.runtime.overview(this.scope());
		if (this.#closed) return;
		ui.setWidget(WIDGET_KEY, widgetLines(runs, agents));
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
		} catch {
			// The UI may already be gone.
		}
	}
}
