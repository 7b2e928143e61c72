import type {
	ExtensionAPI,
	ExtensionContext,
	ExtensionUIContext,
	MessageRenderer,
} from "@earendil-works/pi-coding-agent";
import { statusColor } from "pi-fovea/status-item";
import { personReports } from "pi-fovea/subcommands";
import type { ModelChoice } from "../runtime/agent-launch.ts";
import type { CrewExtensionOptions } from "./crew-config.ts";
import { CREW_STATUS_KEY, NO_ACTIVE_RUNS } from "./status-item.ts";
import { TEAM_SUBCOMMANDS } from "./team-command.ts";
import { teamParameters } from "./team-schema.ts";

/** Settings of `createCrewExtension`. */
export type { CrewExtensionOptions } from "./crew-config.ts";

type Session = import("./crew-session.ts").CrewSession;

/** The custom message type of a run that stopped (see crew-session.ts), rendered with a label of its own. */
const RUN_MESSAGE = "pi-crew-run";
/** The custom message type of an agent's question to the coordinator (QUESTION_MESSAGE of question-delivery.ts). */
const QUESTION_MESSAGE = "pi-crew-question";

type SessionModules = typeof import("./session-modules.ts");

const TOOL_DESCRIPTION =
	"Run a team of sub-agents (each a separate Pi process) on a goal in this workspace, and follow or control them. " +
	"action run starts a team (see action teams) or ad-hoc tasks, in single mode (all agents in the workspace) or " +
	"worktree mode (one Git worktree per task); it returns at once with the run id and agent ids unless wait is true. " +
	"list, status, cancel and resume act on this session's runs; steer-agent sends a message a working agent reads " +
	"before its next model call, follow-up-agent one it reads when it would stop, stop-agent ends it and resume-agent " +
	"continues it from its session. Only this session's runs and agents are visible; force takes over the runs of " +
	"an ended session of the same workspace, never a live session's and never another workspace's.";

/**
 * Imports the session modules, again when an import comes back without them: with several hosts loading in one
 * process, a `team` call was seen failing on "reading 'CrewSession' of undefined" (and 'shownText' before it), an
 * import handed back before its module was evaluated. Waiting a moment and importing again finds it whole.
 */
async function importSessionModules(): Promise<SessionModules> {
	for (let attempt = 1; ; attempt++) {
		const modules = (await import("./session-modules.ts")) as SessionModules | undefined;
		if (typeof modules?.CrewSession === "function" && typeof modules.shownText === "function") return modules;
		if (attempt === 5) throw new Error("pi-crew: its modules came back unevaluated from Pi's loader five times");
		await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
	}
}

/**
 * The pi-crew extension with explicit settings (tests and embedders); the default export reads them from the
 * environment. Loading it does no filesystem work and starts nothing: the runtime loads on the first `team` call
 * or `/team` command, or at session start when the workspace already has runs (to recover those whose
 * coordinator died).
 */
export function createCrewExtension(options: CrewExtensionOptions = {}): (pi: ExtensionAPI) => void {
	return (pi) => {
		let ui: ExtensionUIContext | undefined;
		let model: ModelChoice | undefined;
		let session: Promise<Session> | undefined;
		let ended = false;
		let mode = "rpc";
		let loaded: Promise<SessionModules> | undefined;
		let renderer: MessageRenderer | undefined;
		let questionRenderer: MessageRenderer | undefined;
		let lastCtx: ExtensionContext | undefined;
		const load = () => {
			if (loaded === undefined) {
				loaded = importSessionModules();
				loaded.then(
					(modules) => {
						// Read at render time, not here: a failure to render must not become an unhandled rejection.
						renderer = (message, options, theme) => modules.runMessageComponent(message, options, theme);
						questionRenderer = (message, options, theme) => modules.questionMessageComponent(message, options, theme);
					},
					() => {
						loaded = undefined;
					},
				);
			}
			return loaded;
		};
		const host = { ui: () => (ended ? undefined : ui), model: () => model, mode: () => mode };
		// `/team` reports and the recovery warnings of session start: in the TUI entries of the chat, kept when the next
		// report comes and drawn after a restored chat (a notification is one line the next one replaces, and one sent
		// at session start is drawn before the restored chat, out of sight); elsewhere notifications.
		const reports = personReports(pi, "pi-crew");
		// Until the renderer's module is loaded Pi shows the message its own way.
		pi.registerMessageRenderer(RUN_MESSAGE, (message, options, theme) => renderer?.(message, options, theme));
		pi.registerMessageRenderer(QUESTION_MESSAGE, (message, options, theme) =>
			questionRenderer?.(message, options, theme),
		);

		const open = (ctx: ExtensionContext): Promise<Session> => {
			session ??= (async () => {
				const { CrewSession, workspaceOf } = await load();
				const identity = {
					sessionId: ctx.sessionManager.getSessionId(),
					cwd: ctx.cwd,
					workspace: await workspaceOf(ctx.cwd),
				};
				const crew = new CrewSession(pi, options, identity, host);
				const interrupted = await crew.start();
				if (interrupted.length > 0 && host.ui() !== undefined) {
					await reports(
						ctx,
						`pi-crew: ${interrupted.length} interrupted run(s) of this session: ${interrupted.join(", ")}. /team resume <runId> continues one; /team status <runId> shows it.`,
						"warning",
					);
				}
				return crew;
			})();
			session.catch(() => {
				session = undefined;
			});
			return session;
		};

		pi.on("session_start", async (_event, ctx) => {
			ended = false;
			ui = ctx.hasUI ? ctx.ui : undefined;
			mode = ctx.mode;
			lastCtx = ctx;
			model = ctx.model ? { provider: ctx.model.provider, model: ctx.model.id } : undefined;
			// The footer item while idle; the widget's painter keeps it current once the runtime works.
			ui?.setStatus(CREW_STATUS_KEY, statusColor(ctx, "dim", NO_ACTIVE_RUNS));
			// Only a workspace that has runs needs the runtime now (to find runs whose coordinator died).
			const [{ workspaceOf }, { runsDirOf }, { existsSync }] = await Promise.all([
				import("./workspace.ts"),
				import("../state/run-layout.ts"),
				import("node:fs"),
			]);
			try {
				if (existsSync(runsDirOf(await workspaceOf(ctx.cwd)))) await open(ctx);
			} catch (error) {
				// A damaged runs folder must not keep the session from starting; /team status names the problem.
				const { shownText } = await load();
				if (ui)
					await reports(
						ctx,
						shownText(`pi-crew: could not check this workspace's runs: ${(error as Error).message}`),
						"error",
					);
			}
			// In the background: the first /team then finds its modules loaded.
			load().catch(() => {});
		});

		// The runs this session started that ended since its last turn, told to the model as it starts the next one.
		pi.on("before_agent_start", async () => {
			const message = (await session?.catch(() => undefined))?.takeRunMessage();
			return message ? { message } : undefined;
		});

		pi.on("model_select", (event) => {
			model = { provider: event.model.provider, model: event.model.id };
		});

		pi.on("session_shutdown", async () => {
			ended = true;
			const current = session;
			session = undefined;
			await (await current?.catch(() => undefined))?.shutdown();
		});

		pi.registerTool({
			name: "team",
			label: "Team",
			description: TOOL_DESCRIPTION,
			promptSnippet: "Run teams of sub-agents on a goal and steer, follow up, stop or resume them",
			parameters: teamParameters,
			async execute(_id, params, signal, onUpdate, ctx) {
				const crew = await open(ctx);
				const { teamAction } = await load();
				const result = await teamAction(crew, params, {
					...(signal ? { signal } : {}),
					onUpdate: (text, details) => onUpdate?.({ content: [{ type: "text", text }], details }),
					...(options.env ? { env: options.env } : {}),
					waitByDefault: ctx.mode === "print" || ctx.mode === "json",
				});
				return { content: [{ type: "text", text: result.text }], details: result.details, isError: result.isError };
			},
		});

		const names = Object.keys(TEAM_SUBCOMMANDS);
		pi.registerCommand("team", {
			description: `pi-crew teams of sub-agents (${names.join("|")}); /team alone shows help`,
			getArgumentCompletions: async (prefix) => {
				const words = prefix.trimStart().split(/\s+/);
				if (words.length <= 1) {
					// A subcommand typed in full is not offered again: Enter then runs it instead of taking the completion.
					const typed = words[0] ?? "";
					const items = names
						.filter((n) => n.startsWith(typed) && n !== typed)
						.map((n) => ({ value: `${n} `, label: n, description: TEAM_SUBCOMMANDS[n]?.what ?? "" }));
					return items.length > 0 ? items : null;
				}
				// After `run `: the teams of this workspace (the runtime loads now if it has not yet).
				if (words[0] !== "run" || words.length !== 2 || lastCtx === undefined) return null;
				try {
					const { teamCompletions } = await load();
					return await teamCompletions(await open(lastCtx), words[1] ?? "", options.env ?? process.env);
				} catch {
					return null;
				}
			},
			handler: async (args, ctx) => {
				// Loaded on use (or preloaded after session start). What /team shows quotes goals, results, ids and paths.
				let modules: SessionModules;
				try {
					modules = await load();
				} catch (error) {
					// No escaping module to hand: a load error names paths of this installation, not model text.
					const text = `/team: pi-crew could not load: ${(error as Error).message}`;
					// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
					ctx.ui.notify(text.replace(/[\u0000-\u001f\u007f-\u009f]/g, " "), "error");
					return;
				}
				const { shownText, runTeamCommand } = modules;
				// In the TUI each report is an entry of the chat, so the next one does not replace it.
				try {
					const report = await runTeamCommand(await open(ctx), args);
					await reports(ctx, shownText(report.text), report.type);
				} catch (error) {
					await reports(ctx, shownText(`/team: ${(error as Error).message}`), "error");
				}
			},
		});
	};
}

/** The pi-crew extension: the `team` tool, the `/team` command and the widget of this session's runs. */
export default createCrewExtension();
