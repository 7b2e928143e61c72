/**
 * End-to-end harness that drives the real Pi host (`@earendil-works/pi-coding-agent`) in-process.
 *
 * The model is pi-ai's faux provider, answered from a script the test writes: no network, no API key.
 * Each host owns one `AgentSessionRuntime` built the way the CLI builds it (`createAgentSessionServices` +
 * `createAgentSessionFromServices`, extensions loaded by `DefaultResourceLoader` from
 * `additionalExtensionPaths`), persists its session files in a temp session directory, and binds a UI
 * context that records what extensions show (`notify`, `setStatus`, `setWidget`, dialogs).
 *
 * Import this module before any `@earendil-works/*` module: it points Pi's global config directory at a
 * temp directory and enables offline mode before Pi's modules load (Pi reads its `bin/` directory for
 * `rg`/`fd` at module load time).
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AssistantMessage, JsonObject, Message, ToolCall } from "@earendil-works/pi-ai";
import type {
	AgentSession,
	AgentSessionEvent,
	AgentSessionRuntime,
	CompactionResult,
	CreateAgentSessionRuntimeFactory,
	CustomEntry,
	EventBus,
	ExtensionCommandContextActions,
	ExtensionContext,
	ExtensionError,
	ExtensionUIContext,
	ExtensionUIDialogOptions,
	ExtensionWidgetOptions,
	SessionEntry,
} from "@earendil-works/pi-coding-agent";

// ---------------------------------------------------------------------------------------------------------
// Process isolation. Runs before Pi's modules are loaded (they are imported dynamically below).
// ---------------------------------------------------------------------------------------------------------

const processRoot = realpathSync(mkdtempSync(join(tmpdir(), "pi-e2e-process-")));
/** Fallback agent dir for any code path that calls Pi's `getAgentDir()` instead of using a host's agentDir. */
process.env.PI_CODING_AGENT_DIR = join(processRoot, "agent");
process.env.PI_CODING_AGENT_SESSION_DIR = join(processRoot, "sessions");
process.env.PI_OFFLINE = "1";
process.env.PI_SKIP_VERSION_CHECK = "1";
process.env.PI_TELEMETRY = "0";
// Fovea's fact cache goes to this process's temp root unless a test chose its own, never to the user's cache.
process.env.FOVEA_CACHE_DIR ??= join(processRoot, "fovea-cache");
// Pi loads extensions with jiti, which otherwise caches transpiled extensions in `<tmpdir>/jiti`.
process.env.JITI_FS_CACHE ??= "false";
process.on("exit", () => {
	rmSync(processRoot, { recursive: true, force: true });
});

const pi = await import("@earendil-works/pi-coding-agent");
const ai = await import("@earendil-works/pi-ai");

/**
 * Pi's modules, loaded after the isolation above. Tests that need runtime values from Pi should take them from
 * here (or import Pi after this module): a static import of Pi placed before the harness import loads Pi first.
 */
export { ai as piAi, pi as piCodingAgent };

type AgentMessage = AgentSession["messages"][number];
/** `ctx.mode` values: "tui" | "rpc" | "json" | "print". */
export type ExtensionMode = ExtensionContext["mode"];
type FauxHandle = ReturnType<typeof ai.fauxProvider>;
type FauxFactory = Extract<Parameters<FauxHandle["appendResponses"]>[0][number], (...args: never[]) => unknown>;

// ---------------------------------------------------------------------------------------------------------
// Temp directories
// ---------------------------------------------------------------------------------------------------------

const ownedTempDirs = new Set<string>();

/** Create a fresh directory under `os.tmpdir()` (symlinks resolved); `cleanupTempDirs()` removes it. */
export async function tempDir(prefix = "pi-e2e-"): Promise<string> {
	const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
	ownedTempDirs.add(dir);
	return dir;
}

/** Remove every directory created by `tempDir()` that still exists. */
export async function cleanupTempDirs(): Promise<void> {
	const dirs = [...ownedTempDirs];
	ownedTempDirs.clear();
	await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
}

// ---------------------------------------------------------------------------------------------------------
// Model script
// ---------------------------------------------------------------------------------------------------------

/** One tool call the scripted model makes. `id` defaults to a unique generated id. */
export interface ScriptedToolCall {
	name: string;
	arguments: JsonObject;
	id?: string;
}

/**
 * A full assistant turn: optional thinking, optional text, optional tool calls (in that order). `error` makes the
 * turn a failed model response (`stopReason: "error"` with that message); the harness disables Pi's auto-retry.
 */
export interface ScriptedTurnParts {
	thinking?: string;
	text?: string;
	toolCalls?: ScriptedToolCall[];
	error?: string;
}

/** What the scripted model answers with: final text, a list of tool calls, or a full turn. */
export type ScriptedReply = string | ScriptedToolCall[] | ScriptedTurnParts;

/** A queued assistant turn: a fixed reply, or a function of the request that computes it. */
export type ScriptedTurn = ScriptedReply | ((request: ModelRequest) => ScriptedReply);

/** One request Pi sent to the model, as the harness saw it. */
export interface ModelRequest {
	/** `"summary"` for compaction / branch-summary requests (recognised by Pi's summarization system prompt). */
	kind: "turn" | "summary";
	/** Where the answer came from: the `script()` queue, the default reply, or the summary reply. */
	source: "script" | "default" | "summary";
	/** Text of the leading system message. */
	systemPrompt: string;
	/** Non-system messages of the request, in order. */
	messages: Message[];
	/** Names of the tools declared to the model for this request. */
	toolNames: string[];
}

const SUMMARIZATION_PROMPT_PREFIX = "You are a context summarization assistant";

/** Default final text of the scripted model when the script queue is empty. */
export const DEFAULT_REPLY = "ok";
/** Default summary the scripted model writes for compaction and branch-summary requests. */
export const DEFAULT_SUMMARY = "## Goal\nHarness summary.\n\n## Progress\n- scripted";
/** Final text `runTools()` scripts after the tool-call turn. */
export const RUN_TOOLS_FINAL_TEXT = "done";

let generatedToolCallIds = 0;

function toAssistantMessage(reply: ScriptedReply): AssistantMessage {
	const parts: ScriptedTurnParts =
		typeof reply === "string" ? { text: reply } : Array.isArray(reply) ? { toolCalls: reply } : reply;
	const content: (ReturnType<typeof ai.fauxText> | ReturnType<typeof ai.fauxThinking> | ToolCall)[] = [];
	if (parts.thinking !== undefined) content.push(ai.fauxThinking(parts.thinking));
	if (parts.text !== undefined) content.push(ai.fauxText(parts.text));
	const toolCalls = parts.toolCalls ?? [];
	for (const call of toolCalls) {
		generatedToolCallIds++;
		content.push(ai.fauxToolCall(call.name, call.arguments, { id: call.id ?? `call_e2e_${generatedToolCallIds}` }));
	}
	if (parts.error !== undefined) {
		return ai.fauxAssistantMessage(content, { stopReason: "error", errorMessage: parts.error });
	}
	return ai.fauxAssistantMessage(content, { stopReason: toolCalls.length > 0 ? "toolUse" : "stop" });
}

function describeRequest(messages: readonly Message[]): Omit<ModelRequest, "source"> {
	let systemPrompt = "";
	const tools = new Set<string>();
	const rest: Message[] = [];
	for (const message of messages) {
		if (message.role !== "system") {
			rest.push(message);
			continue;
		}
		if (systemPrompt === "") systemPrompt = ai.getSystemMessageText(message);
		for (const tool of message.toolsRemoved ?? []) tools.delete(tool.name);
		for (const tool of message.toolsAdded ?? []) tools.add(tool.name);
	}
	const kind = systemPrompt.startsWith(SUMMARIZATION_PROMPT_PREFIX) ? "summary" : "turn";
	return { kind, systemPrompt, messages: rest, toolNames: [...tools] };
}

// ---------------------------------------------------------------------------------------------------------
// UI capture
// ---------------------------------------------------------------------------------------------------------

/** A dialog an extension opened through `ctx.ui`. */
export type DialogRequest =
	| { method: "select"; title: string; options: string[] }
	| { method: "confirm"; title: string; message: string }
	| { method: "input"; title: string; placeholder: string | undefined }
	| { method: "editor"; title: string; prefill: string | undefined };

/** Answers dialogs: a string for select/input/editor, a boolean for confirm, undefined to cancel. */
export type DialogResponder = (
	request: DialogRequest,
) => string | boolean | undefined | Promise<string | boolean | undefined>;

/** One `ctx.notify` call. */
export interface UINotification {
	message: string;
	type: "info" | "warning" | "error" | undefined;
}

/** Everything an extension did through `ctx.ui`, in call order. */
export type UIEvent =
	| { kind: "notify"; message: string; type: "info" | "warning" | "error" | undefined }
	| { kind: "status"; key: string; text: string | undefined }
	| { kind: "widget"; key: string; lines: string[] | undefined; component: boolean; placement: string | undefined }
	| { kind: "title"; title: string }
	| { kind: "editorText"; text: string }
	| { kind: "dialog"; request: DialogRequest; answer: string | boolean | undefined };

/** Records the UI calls of a host's extensions. One instance per host, shared across runtime replacements. */
export class UICapture {
	/** All UI calls, in order. */
	readonly log: UIEvent[] = [];
	/** Current status texts by key (`setStatus`; cleared keys are removed). */
	readonly statuses = new Map<string, string>();
	/** Current string-array widgets by key (`setWidget`; cleared keys are removed). */
	readonly widgets = new Map<string, string[]>();
	/** Text last set with `setEditorText`/`pasteToEditor`. */
	editorText = "";
	private responder: DialogResponder = () => undefined;

	/** Every `notify` call so far. */
	get notifications(): UINotification[] {
		const result: UINotification[] = [];
		for (const event of this.log) {
			if (event.kind === "notify") result.push({ message: event.message, type: event.type });
		}
		return result;
	}

	/** Messages of every `notify` call so far. */
	get notifiedTexts(): string[] {
		return this.notifications.map((notification) => notification.message);
	}

	/** Set how dialogs (`select`, `confirm`, `input`, `editor`) are answered. Default: cancel / `false`. */
	respondWith(responder: DialogResponder): void {
		this.responder = responder;
	}

	/** Forget the log, statuses, widgets, and editor text. */
	clear(): void {
		this.log.length = 0;
		this.statuses.clear();
		this.widgets.clear();
		this.editorText = "";
	}

	private async dialog(request: DialogRequest): Promise<string | boolean | undefined> {
		const answer = await this.responder(request);
		this.log.push({ kind: "dialog", request, answer });
		return answer;
	}

	/**
	 * Build the `ExtensionUIContext` bound into Pi. `base` (Pi's no-op UI context) supplies the theme and the
	 * TUI-only methods, which behave as in RPC mode. Returns a plain object: Pi spreads it when binding.
	 */
	createContext(base: ExtensionUIContext): ExtensionUIContext {
		return {
			select: async (title: string, options: string[], _opts?: ExtensionUIDialogOptions) => {
				const answer = await this.dialog({ method: "select", title, options });
				return typeof answer === "string" ? answer : undefined;
			},
			confirm: async (title: string, message: string, _opts?: ExtensionUIDialogOptions) => {
				return (await this.dialog({ method: "confirm", title, message })) === true;
			},
			input: async (title: string, placeholder?: string, _opts?: ExtensionUIDialogOptions) => {
				const answer = await this.dialog({ method: "input", title, placeholder });
				return typeof answer === "string" ? answer : undefined;
			},
			editor: async (title: string, prefill?: string) => {
				const answer = await this.dialog({ method: "editor", title, prefill });
				return typeof answer === "string" ? answer : undefined;
			},
			notify: (message: string, type?: "info" | "warning" | "error") => {
				this.log.push({ kind: "notify", message, type });
			},
			setStatus: (key: string, text: string | undefined) => {
				this.log.push({ kind: "status", key, text });
				if (text === undefined) this.statuses.delete(key);
				else this.statuses.set(key, text);
			},
			setWidget: (key: string, content: unknown, options?: ExtensionWidgetOptions) => {
				const lines = Array.isArray(content) ? content.map(String) : undefined;
				this.log.push({
					kind: "widget",
					key,
					lines,
					component: typeof content === "function",
					placement: options?.placement,
				});
				if (lines === undefined) this.widgets.delete(key);
				else this.widgets.set(key, lines);
			},
			setTitle: (title: string) => {
				this.log.push({ kind: "title", title });
			},
			setEditorText: (text: string) => {
				this.editorText = text;
				this.log.push({ kind: "editorText", text });
			},
			pasteToEditor: (text: string) => {
				this.editorText = text;
				this.log.push({ kind: "editorText", text });
			},
			getEditorText: () => this.editorText,
			onTerminalInput: (handler) => base.onTerminalInput(handler),
			setWorkingMessage: (message?: string) => base.setWorkingMessage(message),
			setWorkingVisible: (visible: boolean) => base.setWorkingVisible(visible),
			setWorkingIndicator: (options) => base.setWorkingIndicator(options),
			setHiddenThinkingLabel: (label?: string) => base.setHiddenThinkingLabel(label),
			setFooter: (factory) => base.setFooter(factory),
			setHeader: (factory) => base.setHeader(factory),
			custom: (factory, options) => base.custom(factory, options),
			addAutocompleteProvider: (factory) => base.addAutocompleteProvider(factory),
			setEditorComponent: (factory) => base.setEditorComponent(factory),
			getEditorComponent: () => base.getEditorComponent(),
			get theme() {
				return base.theme;
			},
			getAllThemes: () => base.getAllThemes(),
			getTheme: (name: string) => base.getTheme(name),
			setTheme: (theme) => base.setTheme(theme),
			getToolsExpanded: () => base.getToolsExpanded(),
			setToolsExpanded: (expanded: boolean) => base.setToolsExpanded(expanded),
		};
	}
}

// ---------------------------------------------------------------------------------------------------------
// Host
// ---------------------------------------------------------------------------------------------------------

/** Options of `startHost()`. */
export interface StartHostOptions {
	/** Working directory of the session (tool paths resolve against it). Must exist. */
	cwd: string;
	/** Absolute paths of extension entry files, loaded like `pi -e <path>`. */
	extensions: string[];
	/** Session directory. Default: a harness-owned temp dir, removed by `dispose()`. */
	sessionDir?: string;
	/** Pi's config directory (settings.json, auth.json). Default: a harness-owned temp dir. */
	agentDir?: string;
	/**
	 * Pi's `tools` option. Default `["+grep", "+find", "+ls"]`: Pi's default tools (read, bash, edit, write)
	 * plus grep, find, ls, with extension tools kept active. A plain allowlist (no `+`/`-`) disables every tool
	 * it does not name, extension tools included.
	 */
	tools?: string[];
	/** Settings merged over the harness defaults and written to `<agentDir>/settings.json` before start. */
	settings?: Record<string, unknown>;
	/** Open this existing session file instead of creating a new session (a process restart). */
	sessionFile?: string;
	/** `ctx.mode` seen by extensions. Default `"rpc"` (or `"print"` when `ui` is false). */
	mode?: ExtensionMode;
	/** Bind the capturing UI context. `false` leaves Pi's no-op UI: `ctx.hasUI` false, `notify` dropped. */
	ui?: boolean;
	/** Reply when the script queue is empty. Default: the text `DEFAULT_REPLY`. */
	defaultReply?: ScriptedTurn;
	/** Summary text for compaction / branch-summary requests. Default: `DEFAULT_SUMMARY`. */
	summaryReply?: string | ((request: ModelRequest) => string);
	/**
	 * `pi.events` bus given to every runtime this host creates. Default: a fresh bus per runtime (as the CLI
	 * does: a new one after /new, /resume and /fork; the same one across /reload). Pass one bus to two hosts to
	 * connect their extensions.
	 */
	eventBus?: EventBus;
}

/** Settings the harness writes unless `StartHostOptions.settings` overrides them. */
export const HARNESS_DEFAULT_SETTINGS: Readonly<Record<string, unknown>> = {
	// Manual compaction of a short test conversation is otherwise "Nothing to compact".
	compaction: { keepRecentTokens: 0 },
	// A retry would silently consume the next scripted turn.
	retry: { enabled: false },
	// No background warming requests to the scripted model.
	cacheWarming: "off",
};

/** One tool call of a run, from its tool result message. */
export interface ToolOutcome {
	toolCallId: string;
	toolName: string;
	/** Arguments of the assistant's tool call, when it is part of this run. */
	arguments: JsonObject | undefined;
	isError: boolean;
	/** False when Pi did not execute the tool: blocked by `tool_call`, unknown tool, or invalid arguments. */
	executed: boolean;
	/** Text content of the result, joined with newlines. */
	text: string;
	details: unknown;
}

/** Result of `prompt()` / `runTools()`. */
export interface RunResult {
	/** Messages completed during the run (user, assistant, tool results, custom messages), in order. */
	messages: AgentMessage[];
	/** Tool results of the run, in order. */
	toolResults: ToolOutcome[];
	/** Text of the last assistant message of the run. */
	assistantText: string | undefined;
	/** Model requests made during the run. */
	requests: ModelRequest[];
	/** `ctx.ui.notify` calls during the run. */
	notifications: UINotification[];
	/** Extension errors reported during the run. */
	errors: ExtensionError[];
}

/** Result of `command()`. */
export interface CommandResult {
	/** `ctx.ui.notify` calls during the command. */
	notifications: UINotification[];
	/** All UI calls during the command. */
	ui: UIEvent[];
	/** Extension errors reported during the command (a throwing handler is reported here). */
	errors: ExtensionError[];
	/** Model requests made during the command. */
	requests: ModelRequest[];
}

/** Options of `prompt()`, `runTools()` and `command()`. */
export interface RunOptions {
	/** Do not throw on extension errors or on an assistant error/aborted stop. */
	allowErrors?: boolean;
}

/** Thrown when a run or command reports extension errors or ends with a model error. */
export class HostRunError extends Error {
	readonly errors: ExtensionError[];
	constructor(message: string, errors: ExtensionError[]) {
		super(message);
		this.name = "HostRunError";
		this.errors = errors;
	}
}

function formatErrors(errors: readonly ExtensionError[]): string {
	return errors.map((error) => `${error.extensionPath} [${error.event}]: ${error.error}`).join("\n");
}

function textOf(content: string | readonly { type: string; text?: string }[]): string {
	if (typeof content === "string") return content;
	const texts: string[] = [];
	for (const block of content) {
		if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
	}
	return texts.join("\n");
}

/**
 * A running Pi host. Owns one `AgentSessionRuntime`; after a session replacement (`fork`, `newSession`,
 * `switchSession`, or an extension's `ctx.newSession()` etc.) it rebinds to the new `AgentSession` itself,
 * so `host.session` is always current.
 */
export class PiHost {
	/** Working directory the host was started in. */
	readonly cwd: string;
	/** Pi config directory of this host. */
	readonly agentDir: string;
	/** Directory holding this host's session files. */
	readonly sessionDir: string;
	/** UI calls of the extensions. */
	readonly ui = new UICapture();
	/** Extension errors reported so far (`onError` binding). */
	readonly errors: ExtensionError[] = [];
	/** Every `AgentSession` event so far, across runtime replacements. */
	readonly sessionEvents: AgentSessionEvent[] = [];
	/** Every model request so far. */
	readonly requests: ModelRequest[] = [];
	/** True once an extension called `ctx.shutdown()`. */
	shutdownRequested = false;

	private runtimeRef: AgentSessionRuntime | undefined;
	private readonly faux: FauxHandle;
	private readonly queue: ScriptedTurn[] = [];
	private readonly defaultReply: ScriptedTurn;
	private readonly summaryReply: string | ((request: ModelRequest) => string);
	private readonly mode: ExtensionMode;
	private readonly withUI: boolean;
	private readonly ownedDirs: string[];
	private baseUI: ExtensionUIContext | undefined;
	private unsubscribe: (() => void) | undefined;
	private currentEventBus: EventBus | undefined;
	private disposed = false;

	/** Use `startHost()`. */
	constructor(init: {
		cwd: string;
		agentDir: string;
		sessionDir: string;
		ownedDirs: string[];
		options: StartHostOptions;
	}) {
		this.cwd = init.cwd;
		this.agentDir = init.agentDir;
		this.sessionDir = init.sessionDir;
		this.ownedDirs = init.ownedDirs;
		this.withUI = init.options.ui ?? true;
		this.mode = init.options.mode ?? (this.withUI ? "rpc" : "print");
		this.defaultReply = init.options.defaultReply ?? DEFAULT_REPLY;
		this.summaryReply = init.options.summaryReply ?? DEFAULT_SUMMARY;
		this.faux = ai.fauxProvider();
		// The faux provider errors when its own queue is empty, so it always holds dispatchers that answer
		// from the harness queue; each dispatcher queues its replacement when it runs.
		const dispatch: FauxFactory = (context) => {
			this.faux.appendResponses([dispatch]);
			return this.answer(context.messages);
		};
		this.faux.setResponses([dispatch, dispatch, dispatch, dispatch]);
	}

	/** The runtime that owns the current session. */
	get runtime(): AgentSessionRuntime {
		if (!this.runtimeRef) throw new Error("Host is not started");
		return this.runtimeRef;
	}

	/** The current `AgentSession` (changes after fork, newSession, switchSession). */
	get session(): AgentSession {
		return this.runtime.session;
	}

	/** The `pi.events` bus of the current runtime. Subscriptions do not move to a replacement runtime. */
	get eventBus(): EventBus {
		if (!this.currentEventBus) throw new Error("Host is not started");
		return this.currentEventBus;
	}

	/** @internal Create the runtime and bind it. Called by `startHost()`. */
	async start(options: StartHostOptions): Promise<void> {
		const modelRuntime = await pi.ModelRuntime.create({
			authPath: join(this.agentDir, "auth.json"),
			modelsPath: null,
			refreshOnCreate: false,
		});
		modelRuntime.registerNativeProvider(this.faux.provider);
		await modelRuntime.setRuntimeApiKey(this.faux.provider.id, "e2e-faux-key");
		const model = this.faux.getModel();
		const tools = options.tools ?? ["+grep", "+find", "+ls"];
		const extensions = [...options.extensions];
		const createRuntime: CreateAgentSessionRuntimeFactory = async ({
			cwd,
			agentDir,
			sessionManager,
			sessionStartEvent,
		}) => {
			const eventBus = options.eventBus ?? pi.createEventBus();
			const services = await pi.createAgentSessionServices({
				cwd,
				agentDir,
				modelRuntime,
				resourceLoaderOptions: {
					additionalExtensionPaths: extensions,
					noSkills: true,
					eventBus,
				},
			});
			const loadErrors = services.resourceLoader.getExtensions().errors;
			if (loadErrors.length > 0) {
				throw new Error(`Extensions failed to load:\n${loadErrors.map((e) => `${e.path}: ${e.error}`).join("\n")}`);
			}
			const created = await pi.createAgentSessionFromServices({
				services,
				sessionManager,
				sessionStartEvent,
				model,
				tools,
			});
			this.currentEventBus = eventBus;
			return { ...created, services, diagnostics: services.diagnostics };
		};
		const sessionManager = options.sessionFile
			? pi.SessionManager.open(options.sessionFile, this.sessionDir)
			: pi.SessionManager.create(this.cwd, this.sessionDir);
		const runtime = await pi.createAgentSessionRuntime(createRuntime, {
			cwd: sessionManager.getCwd(),
			agentDir: this.agentDir,
			sessionManager,
		});
		this.runtimeRef = runtime;
		const runtimeErrors = runtime.diagnostics.filter((diagnostic) => diagnostic.type === "error");
		if (runtimeErrors.length > 0) {
			throw new Error(`Pi runtime diagnostics:\n${runtimeErrors.map((d) => d.message).join("\n")}`);
		}
		// Pi's no-op UI context: supplies the theme and the TUI-only methods of the capturing context.
		this.baseUI = runtime.session.extensionRunner.getUIContext();
		runtime.setRebindSession((session) => this.bind(session));
		await this.bind(runtime.session);
	}

	private async bind(session: AgentSession): Promise<void> {
		this.unsubscribe?.();
		// Subscribe before binding so events of session_start handlers are recorded.
		this.unsubscribe = session.subscribe((event) => {
			this.sessionEvents.push(event);
		});
		const actions: ExtensionCommandContextActions = {
			waitForIdle: () => this.session.waitForIdle(),
			newSession: (options) => this.runtime.newSession(options),
			fork: async (entryId, options) => {
				const result = await this.runtime.fork(entryId, options);
				return { cancelled: result.cancelled };
			},
			navigateTree: async (targetId, options) => {
				const result = await this.session.navigateTree(targetId, options);
				return { cancelled: result.cancelled };
			},
			switchSession: (sessionPath, options) => this.runtime.switchSession(sessionPath, options),
			reload: () => this.session.reload(),
		};
		const base = this.baseUI;
		await session.bindExtensions({
			...(this.withUI && base ? { uiContext: this.ui.createContext(base) } : {}),
			mode: this.mode,
			commandContextActions: actions,
			shutdownHandler: () => {
				this.shutdownRequested = true;
			},
			onError: (error) => {
				this.errors.push(error);
			},
		});
	}

	private answer(context: readonly Message[]): AssistantMessage {
		const described = describeRequest(context);
		if (described.kind === "summary") {
			const request: ModelRequest = { ...described, source: "summary" };
			this.requests.push(request);
			const summary = typeof this.summaryReply === "function" ? this.summaryReply(request) : this.summaryReply;
			return toAssistantMessage(summary);
		}
		const scripted = this.queue.shift();
		const request: ModelRequest = { ...described, source: scripted === undefined ? "default" : "script" };
		this.requests.push(request);
		const turn = scripted ?? this.defaultReply;
		return toAssistantMessage(typeof turn === "function" ? turn(request) : turn);
	}

	/** Queue assistant turns; each model request (except summaries) takes the next one. */
	script(...turns: ScriptedTurn[]): void {
		this.queue.push(...turns);
	}

	/** Number of scripted turns not yet taken by a request. */
	pendingTurns(): number {
		return this.queue.length;
	}

	/** Drop scripted turns not yet taken. */
	clearScript(): void {
		this.queue.length = 0;
	}

	/**
	 * Send a user prompt through `AgentSession.prompt()` and wait until Pi settles. Throws `HostRunError` on
	 * extension errors or when the last assistant message stopped with an error, unless `allowErrors`.
	 */
	async prompt(text: string, options: RunOptions = {}): Promise<RunResult> {
		this.assertLive();
		const marks = this.marks();
		await this.session.prompt(text);
		await this.session.waitForIdle();
		const result = this.collectRun(marks);
		if (!options.allowErrors) {
			const last = [...result.messages].reverse().find((message) => message.role === "assistant");
			const problems = [...result.errors];
			if (last?.role === "assistant" && (last.stopReason === "error" || last.stopReason === "aborted")) {
				throw new HostRunError(`Model turn ended with ${last.stopReason}: ${last.errorMessage ?? ""}`, problems);
			}
			if (problems.length > 0) throw new HostRunError(`Extension errors:\n${formatErrors(problems)}`, problems);
		}
		return result;
	}

	/**
	 * Script one turn calling `calls` (in parallel, as one assistant message) followed by the final text
	 * `RUN_TOOLS_FINAL_TEXT`, then prompt. If the run ends before the final turn (a terminating tool result), the
	 * unused final turn is dropped from the script.
	 */
	async runTools(calls: ScriptedToolCall[], options: RunOptions & { prompt?: string } = {}): Promise<RunResult> {
		const finalTurn: ScriptedTurn = () => RUN_TOOLS_FINAL_TEXT;
		this.script(calls, finalTurn);
		try {
			return await this.prompt(options.prompt ?? "run the scripted tools", options);
		} finally {
			const index = this.queue.indexOf(finalTurn);
			if (index >= 0) this.queue.splice(index, 1);
		}
	}

	/**
	 * Run a slash command as the interactive host does. Built-ins handled by the harness: `/compact [text]`,
	 * `/reload`, `/new`, `/fork <entryId>`, `/clone <entryId>`, `/resume <sessionFile>`, `/tree <entryId>`,
	 * `/name <name>`. Anything else must be an extension command; it runs through `AgentSession.prompt()`,
	 * which dispatches it to the handler. Unknown commands throw (they would otherwise reach the model).
	 */
	async command(text: string, options: RunOptions = {}): Promise<CommandResult> {
		this.assertLive();
		if (!text.startsWith("/")) throw new Error(`Not a command: ${text}`);
		const space = text.indexOf(" ");
		const name = space === -1 ? text.slice(1) : text.slice(1, space);
		const args = space === -1 ? "" : text.slice(space + 1).trim();
		const marks = this.marks();
		switch (name) {
			case "compact":
				await this.compact(args || undefined);
				break;
			case "reload":
				await this.reload();
				break;
			case "new":
				await this.newSession();
				break;
			case "fork":
			case "clone":
				await this.fork(args, { position: name === "clone" ? "at" : "before" });
				break;
			case "resume":
				await this.switchSession(args);
				break;
			case "tree":
				await this.navigateTree(args);
				break;
			case "name":
				this.session.setSessionName(args);
				break;
			default:
				if (!this.session.extensionRunner.getCommand(name)) {
					throw new Error(`Unknown command /${name}; extension commands: ${this.commandNames().join(", ")}`);
				}
				await this.session.prompt(text);
				await this.session.waitForIdle();
		}
		const errors = this.errors.slice(marks.errors);
		if (errors.length > 0 && !options.allowErrors) {
			throw new HostRunError(`Command ${text} reported errors:\n${formatErrors(errors)}`, errors);
		}
		const ui = this.ui.log.slice(marks.ui);
		return {
			notifications: ui.flatMap((event) =>
				event.kind === "notify" ? [{ message: event.message, type: event.type }] : [],
			),
			ui,
			errors,
			requests: this.requests.slice(marks.requests),
		};
	}

	/** Invocation names of the registered extension commands. */
	commandNames(): string[] {
		return this.session.extensionRunner.getRegisteredCommands().map((command) => command.invocationName);
	}

	/** Manual compaction (`/compact`): `session_before_compact`, a summary request, then `session_compact`. */
	async compact(customInstructions?: string): Promise<CompactionResult> {
		this.assertLive();
		return this.session.compact(customInstructions);
	}

	/** `/reload`: `session_shutdown` (reload), fresh extension instances, `session_start` with reason "reload". */
	async reload(): Promise<void> {
		this.assertLive();
		await this.session.reload();
		const loadErrors = this.session.resourceLoader.getExtensions().errors;
		if (loadErrors.length > 0) {
			throw new Error(`Extensions failed to reload:\n${loadErrors.map((e) => `${e.path}: ${e.error}`).join("\n")}`);
		}
	}

	/**
	 * Fork into a new session file (`session_start` reason "fork"). `position: "before"` (default, `/fork`)
	 * takes a user message id and keeps the path before it; `"at"` (`/clone`) keeps the path through `entryId`.
	 */
	async fork(
		entryId: string,
		options: { position?: "before" | "at" } = {},
	): Promise<{ cancelled: boolean; selectedText?: string }> {
		this.assertLive();
		return this.runtime.fork(entryId, options);
	}

	/** Start a new session in the same session dir (`session_start` reason "new"). */
	async newSession(): Promise<{ cancelled: boolean }> {
		this.assertLive();
		return this.runtime.newSession();
	}

	/** Resume a session file (`session_start` reason "resume"). */
	async switchSession(sessionFile: string): Promise<{ cancelled: boolean }> {
		this.assertLive();
		return this.runtime.switchSession(sessionFile);
	}

	/** Move the leaf within the current session file (`session_before_tree`, `session_tree`). */
	async navigateTree(
		targetEntryId: string,
		options: { summarize?: boolean; customInstructions?: string; label?: string } = {},
	): Promise<{ cancelled: boolean; editorText?: string }> {
		this.assertLive();
		const result = await this.session.navigateTree(targetEntryId, options);
		return {
			cancelled: result.cancelled,
			...(result.editorText !== undefined ? { editorText: result.editorText } : {}),
		};
	}

	/** Entries of the current branch (root to leaf). */
	branch(): SessionEntry[] {
		return this.session.sessionManager.getBranch();
	}

	/** All entries of the current session file, every branch, in append order. */
	entries(): SessionEntry[] {
		return this.session.sessionManager.getEntries();
	}

	/** Custom entries (`pi.appendEntry`) of `customType` on the current branch (or all branches), in order. */
	customEntryRecords<T = unknown>(customType: string, scope: "branch" | "all" = "branch"): CustomEntry<T>[] {
		const source = scope === "branch" ? this.branch() : this.entries();
		const result: CustomEntry<T>[] = [];
		for (const entry of source) {
			if (entry.type === "custom" && entry.customType === customType) result.push(entry as CustomEntry<T>);
		}
		return result;
	}

	/** `data` of the custom entries of `customType` on the current branch (or all branches). Unchecked cast. */
	customEntries<T = unknown>(customType: string, scope: "branch" | "all" = "branch"): T[] {
		return this.customEntryRecords<T>(customType, scope).map((entry) => entry.data as T);
	}

	/** Id of the current session (`SessionManager.getSessionId()`). */
	sessionId(): string {
		return this.session.sessionManager.getSessionId();
	}

	/** Path of the current session file. Pi writes it only once the session has a user or assistant message. */
	sessionFile(): string {
		const file = this.session.sessionFile;
		if (!file) throw new Error("Session is not persisted");
		return file;
	}

	/** Id of the current leaf entry. */
	leafId(): string | null {
		return this.session.sessionManager.getLeafId();
	}

	/** Id of the last user message on the current branch, optionally the last whose text includes `containing`. */
	lastUserEntryId(containing?: string): string {
		const branch = this.branch();
		for (let index = branch.length - 1; index >= 0; index--) {
			const entry = branch[index];
			if (entry?.type !== "message" || entry.message.role !== "user") continue;
			if (containing === undefined || textOf(entry.message.content).includes(containing)) return entry.id;
		}
		throw new Error(`No user message${containing === undefined ? "" : ` containing "${containing}"`} on the branch`);
	}

	/** Index on the current branch of the tool result message of `toolCallId`, or -1. */
	toolResultIndex(toolCallId: string): number {
		return this.branch().findIndex(
			(entry) =>
				entry.type === "message" && entry.message.role === "toolResult" && entry.message.toolCallId === toolCallId,
		);
	}

	/** Shut the runtime down (`session_shutdown` reason "quit") and remove the temp dirs this host created. */
	async dispose(): Promise<void> {
		if (this.disposed) return;
		this.disposed = true;
		try {
			if (this.runtimeRef) await this.runtimeRef.dispose();
		} finally {
			this.unsubscribe?.();
			await Promise.all(this.ownedDirs.map((dir) => rm(dir, { recursive: true, force: true })));
		}
	}

	private assertLive(): void {
		if (this.disposed) throw new Error("Host is disposed");
	}

	private marks(): { events: number; errors: number; ui: number; requests: number } {
		return {
			events: this.sessionEvents.length,
			errors: this.errors.length,
			ui: this.ui.log.length,
			requests: this.requests.length,
		};
	}

	private collectRun(marks: ReturnType<PiHost["marks"]>): RunResult {
		const messages: AgentMessage[] = [];
		const executed = new Map<string, boolean>();
		for (const event of this.sessionEvents.slice(marks.events)) {
			if (event.type === "message_end") messages.push(event.message);
			if (event.type === "tool_execution_end") executed.set(event.toolCallId, event.durationMs !== undefined);
		}
		const calls = new Map<string, ToolCall>();
		let assistantText: string | undefined;
		const toolResults: ToolOutcome[] = [];
		for (const message of messages) {
			if (message.role === "assistant") {
				for (const block of message.content) if (block.type === "toolCall") calls.set(block.id, block);
				assistantText = textOf(message.content);
			} else if (message.role === "toolResult") {
				toolResults.push({
					toolCallId: message.toolCallId,
					toolName: message.toolName,
					arguments: calls.get(message.toolCallId)?.arguments,
					isError: message.isError,
					executed: executed.get(message.toolCallId) ?? message.durationMs !== undefined,
					text: textOf(message.content),
					details: message.details,
				});
			}
		}
		const ui = this.ui.log.slice(marks.ui);
		return {
			messages,
			toolResults,
			assistantText,
			requests: this.requests.slice(marks.requests),
			notifications: ui.flatMap((event) =>
				event.kind === "notify" ? [{ message: event.message, type: event.type }] : [],
			),
			errors: this.errors.slice(marks.errors),
		};
	}
}

/**
 * Start a Pi host with the scripted model: one `AgentSessionRuntime`, persistent sessions, the built-in tools
 * read/write/edit/bash/grep/find/ls active, `extensions` loaded through `DefaultResourceLoader`, and
 * `session_start` (reason "startup") already emitted.
 */
export async function startHost(options: StartHostOptions): Promise<PiHost> {
	const cwd = await realpath(options.cwd);
	const ownedDirs: string[] = [];
	const ownDir = async (name: string): Promise<string> => {
		const dir = await realpath(await mkdtemp(join(tmpdir(), `pi-e2e-${name}-`)));
		ownedDirs.push(dir);
		return dir;
	};
	const agentDir = options.agentDir ?? (await ownDir("agent"));
	const sessionDir = options.sessionDir ?? (await ownDir("sessions"));
	await mkdir(agentDir, { recursive: true });
	await mkdir(sessionDir, { recursive: true });
	await writeFile(
		join(agentDir, "settings.json"),
		`${JSON.stringify({ ...HARNESS_DEFAULT_SETTINGS, ...(options.settings ?? {}) }, null, 2)}\n`,
	);
	const host = new PiHost({ cwd, agentDir, sessionDir, ownedDirs, options });
	try {
		await host.start(options);
	} catch (error) {
		await host.dispose().catch(() => {});
		throw error;
	}
	return host;
}
