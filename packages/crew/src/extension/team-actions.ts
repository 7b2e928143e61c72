import { loadDefinitions } from "../definitions/catalog.ts";
import { runDoctor } from "../doctor/doctor.ts";
import { doctorText } from "../doctor/finding.ts";
import { parseAgentId } from "../runtime/crew-events.ts";
import { endedProcessesText } from "../runtime/leftover-processes.ts";
import type { ControlledRun } from "../runtime/run-control.ts";
import { takeoverText } from "../runtime/takeover-text.ts";
import { manifestOwner } from "../state/manifest.ts";
import { isOwnerAlive } from "../state/owner.ts";
import { formatTaskWorktrees, listTaskWorktrees } from "../worktree/list.ts";
import type { CrewSession } from "./crew-session.ts";
import { type ActionResult, type ProgressUpdate, startTeamRun } from "./run-start.ts";
import { runListText, runStatusText, shownText } from "./run-text.ts";
import { TEAM_ACTIONS, type TeamAction, type TeamParams } from "./team-schema.ts";
import { checkedRoot } from "./workspace.ts";

/** How one call reached us: its abort signal and progress channel (tools), and the environment. */
export interface ActionCall {
	signal?: AbortSignal;
	onUpdate?: ProgressUpdate;
	env?: NodeJS.ProcessEnv;
	/** Whether `run` waits when the caller does not say (print and JSON mode: the session ends after one prompt). */
	waitByDefault?: boolean;
}

function ok(text: string, details: Record<string, unknown> = {}): ActionResult {
	return { text, isError: false, details };
}

function requireRunId(params: TeamParams, action: string): string {
	if (typeof params.runId !== "string" || params.runId.trim() === "") {
		throw new Error(`${action}: field "runId": name the run (see action list)`);
	}
	return params.runId.trim();
}

/** The answer to a run control action: `text`, and who had the run when force took it over. */
function controlled(run: ControlledRun, text: string, details: Record<string, unknown> = {}): ActionResult {
	const from = run.takenOverFrom;
	const forced = from ? ` ${takeoverText(from.sessionId, from.pid)}` : "";
	return ok(`${text}${forced}`, { runId: run.manifest.runId, ...details, ...(from ? { takenOverFrom: from } : {}) });
}

async function latestRunId(session: CrewSession, force: boolean): Promise<string> {
	const runs = await session.runtime.list(session.scope(force));
	const last = runs.filter((l) => l.manifest !== undefined).at(-1);
	if (!last) throw new Error(`status: no runs of this session in workspace ${session.identity.workspace}`);
	return last.runId;
}

/** Why a run that says it is working is not: its owner process is gone (it will be marked interrupted). */
async function ownerNote(status: string, owner: Parameters<typeof isOwnerAlive>[0]): Promise<string | undefined> {
	if (status !== "running" && status !== "pending") return undefined;
	return (await isOwnerAlive(owner))
		? undefined
		: "its owner process is gone: the run is interrupted; resume continues it";
}

async function runAction(session: CrewSession, action: TeamAction, params: TeamParams, call: ActionCall) {
	const force = params.force === true;
	const scope = session.scope(force);
	const { workspace } = session.identity;
	switch (action) {
		case "run":
			return startTeamRun(session, params, call);
		case "list": {
			const runs = await session.runtime.list(scope);
			const text = runListText(runs, workspace, force ? "any session" : "this session", session.identity.sessionId);
			return ok(text, { runs: runs.map((l) => l.runId) });
		}
		case "status": {
			const runId = params.runId?.trim() || (await latestRunId(session, force));
			const report = await session.runtime.status({ ...scope, runId });
			const note = await ownerNote(report.manifest.status, manifestOwner(report.manifest));
			const text = runStatusText(report, {
				now: Date.now(),
				rootsOf: (agentId) => session.access.rootsOf(agentId),
				...(note ? { ownerNote: note } : {}),
			});
			return ok(text, { runId, status: report.manifest.status, tasks: report.tasks.map((t) => t.status) });
		}
		case "cancel": {
			const run = await session.runtime.cancel({ ...scope, runId: requireRunId(params, action) });
			await session.repaint();
			const ended = endedProcessesText(run.endedProcesses, "its agents");
			const { runId, status } = run.manifest;
			const said = status === "cancelled" ? `Cancelled run ${runId}.` : `Run ${runId} is ${status}.`;
			const text = `${said}${ended ? ` ${ended}.` : ""}`;
			return controlled(run, text, { endedProcesses: run.endedProcesses });
		}
		case "resume": {
			const run = await session.runtime.resume({ ...scope, runId: requireRunId(params, action) });
			session.watch(run.manifest.runId);
			await session.repaint();
			const unfinished = run.tasks.filter((t) => t.status !== "done").map((t) => t.id);
			return controlled(
				run,
				`Resumed run ${run.manifest.runId}; unfinished tasks start again: ${unfinished.join(", ")}.`,
			);
		}
		case "retry": {
			const runId = requireRunId(params, action);
			const taskId = params.taskId === undefined ? {} : { taskId: params.taskId };
			const run = await session.runtime.retry({ ...scope, runId, ...taskId });
			session.watch(runId);
			await session.repaint();
			const text = `Retrying run ${runId}: ${run.retried.join(", ")} start again.`;
			return controlled(run, text, { retried: run.retried });
		}
		case "teams": {
			const catalog = await loadDefinitions({ root: workspace, env: call.env ?? process.env });
			const lines = ["Teams:"];
			for (const team of catalog.teams.values()) {
				const steps = team.workflow.map((s) => s.id).join(" → ");
				lines.push(`- ${team.name} (${team.workspaceMode}): ${team.description} [${steps}]`);
			}
			lines.push("Agents:");
			for (const agent of catalog.agents.values()) lines.push(`- ${agent.name}: ${agent.description}`);
			if (catalog.problems.length > 0) lines.push("Problems:", ...catalog.problems.map((p) => `- ${p.message}`));
			return ok(lines.join("\n"), { problems: catalog.problems.length });
		}
		case "worktrees": {
			const visible = new Set((await session.runtime.list(scope)).map((l) => l.runId));
			const entries = (await listTaskWorktrees(workspace)).filter((e) => visible.has(e.runId));
			return ok(formatTaskWorktrees(entries, workspace), { worktrees: entries.map((e) => e.path) });
		}
		case "doctor": {
			const findings = await runDoctor({ root: workspace, env: call.env ?? process.env });
			const problems = findings.filter((f) => f.status !== "ok").length;
			return ok(doctorText(findings), { findings, problems });
		}
		default: {
			const result = await session.runtime.agentOperation(action, {
				cwd: workspace,
				sessionId: session.identity.sessionId,
				...(params.agentId === undefined ? {} : { agentId: params.agentId }),
				...(params.message === undefined ? {} : { message: params.message }),
				force,
			});
			if (!result.isError && action === "resume-agent" && typeof params.agentId === "string") {
				// A resumed agent's run tells this session when it ends, whether it was this session's or taken over.
				const parsed = parseAgentId(params.agentId);
				if (parsed) session.watch(parsed.runId);
			}
			if (!result.isError && action !== "list-active-live-agents") await session.repaint();
			return result;
		}
	}
}

/**
 * One `team` action for this session. Input crossed a boundary (the model's tool call), so the action and `root`
 * are checked first; every failure becomes an error result whose text says what was wrong. The text is shown to
 * the person too, so it is made printable whatever it quotes (a goal, a result, an id or path from the request).
 */
export async function teamAction(
	session: CrewSession,
	params: TeamParams,
	call: ActionCall = {},
): Promise<ActionResult> {
	try {
		const action = params?.action as TeamAction;
		if (!(TEAM_ACTIONS as readonly string[]).includes(action)) {
			throw new Error(`unknown action ${JSON.stringify(params?.action)}; known: ${TEAM_ACTIONS.join(", ")}`);
		}
		await checkedRoot(params.root, session.identity.cwd, session.identity.workspace);
		const result = await runAction(session, action, params, call);
		return { ...result, text: shownText(result.text) };
	} catch (error) {
		return { text: shownText((error as Error).message), isError: true, details: { status: "error" } };
	}
}
