import type { DefinitionCatalog } from "../definitions/catalog.ts";
import { loadDefinitions } from "../definitions/catalog.ts";
import type { TeamDefinition } from "../definitions/team.ts";
import { checkedBudget } from "../runtime/budget.ts";
import type { RunSnapshot } from "../state/run-store.ts";
import type { TaskSpec } from "../state/tasks.ts";
import type { CrewSession } from "./crew-session.ts";
import { runEndedText, runStartedText, shownText } from "./run-text.ts";
import type { TeamParams } from "./team-schema.ts";
import { assertWorktreeReady } from "./worktree-hooks.ts";

/** A tool-style answer: text for the model, whether it failed, and data for renderers and tests. */
export interface ActionResult {
	text: string;
	isError: boolean;
	details: Record<string, unknown>;
}

/** Progress while a run is awaited. */
export type ProgressUpdate = (text: string, details: Record<string, unknown>) => void;

/** The team and tasks a run request names: a defined team, optionally with its own tasks, or an ad-hoc team. */
export function requestedTeam(
	params: Pick<TeamParams, "team" | "tasks" | "workspaceMode">,
	catalog: DefinitionCatalog,
): { team: TeamDefinition; tasks?: TaskSpec[] } {
	if (params.tasks === undefined) {
		if (params.team === undefined || params.team.trim() === "") {
			throw new Error('run: field "team": name a team (see action teams), or give tasks');
		}
		return { team: catalog.team(params.team) };
	}
	if (params.tasks.length === 0) throw new Error('run: field "tasks": give at least one task');
	const tasks: TaskSpec[] = params.tasks.map((task, i) => {
		catalog.agent(task.agent);
		if (typeof task.id !== "string") throw new Error(`run: field "tasks[${i}].id": expected a task id`);
		return {
			id: task.id,
			role: task.agent,
			agent: task.agent,
			dependsOn: task.dependsOn ?? [],
			...(task.instructions === undefined ? {} : { instructions: task.instructions }),
		};
	});
	if (params.team !== undefined && params.team.trim() !== "") return { team: catalog.team(params.team), tasks };
	const agents = [...new Set(tasks.map((t) => t.agent))];
	const team: TeamDefinition = {
		name: "ad-hoc",
		description: "Tasks given to the team tool",
		roles: agents.map((agent) => ({ role: agent, agent })),
		workflow: tasks.map((t) => ({ id: t.id, role: t.role, dependsOn: t.dependsOn ?? [] })),
		workspaceMode: params.workspaceMode ?? "single",
		notes: "",
		file: "(team tool)",
		layer: "project",
	};
	return { team, tasks };
}

function abortPromise(signal: AbortSignal | undefined): Promise<"aborted"> | undefined {
	if (!signal) return undefined;
	return new Promise((resolve) => {
		if (signal.aborted) resolve("aborted");
		else signal.addEventListener("abort", () => resolve("aborted"), { once: true });
	});
}

/**
 * `team {action: "run"}`: loads the workspace's definitions, checks worktree mode before anything is created,
 * starts the run in this session, and either returns at once (the coordinator is told when it ends) or, with
 * `wait`, reports progress and returns every task's result. An aborted wait leaves the run working. `wait`
 * defaults to `waitByDefault`: true where the session ends after one prompt (print and JSON mode), since ending
 * the session ends its agents.
 */
export async function startTeamRun(
	session: CrewSession,
	params: TeamParams,
	call: { signal?: AbortSignal; onUpdate?: ProgressUpdate; env?: NodeJS.ProcessEnv; waitByDefault?: boolean },
): Promise<ActionResult> {
	if (typeof params.goal !== "string" || params.goal.trim() === "") {
		throw new Error('run: field "goal": say what the team should achieve');
	}
	const { workspace } = session.identity;
	const catalog = await loadDefinitions({ root: workspace, env: call.env ?? process.env });
	const { team, tasks } = requestedTeam(params, catalog);
	const budget = checkedBudget(params.budget, "budget");
	const agentBudget = checkedBudget(params.agentBudget, "agentBudget");
	const workspaceMode = params.workspaceMode ?? team.workspaceMode;
	if (workspaceMode === "worktree") await assertWorktreeReady(workspace);
	const scope = session.scope();
	const started = await session.runtime.startRun({
		...scope,
		team,
		goal: params.goal,
		catalog,
		workspaceMode,
		...(tasks ? { tasks } : {}),
		...(budget ? { budget } : {}),
		...(agentBudget ? { agentBudget } : {}),
	});
	const runId = started.manifest.runId;
	const details = {
		runId,
		team: team.name,
		workspace,
		workspaceMode,
		agents: started.tasks.map((t) => `${runId}:${t.id}`),
	};
	if (!(params.wait ?? call.waitByDefault === true)) {
		session.watch(runId);
		await session.repaint();
		return { text: runStartedText(started), isError: false, details };
	}
	const unsubscribe = await session.runtime.subscribe(scope, (event) => {
		if (event.runId !== runId || event.type !== "task.status") return;
		call.onUpdate?.(shownText(`Run ${runId}: task ${event.taskId} ${String(event.data?.status)}`), details);
	});
	try {
		const aborted = abortPromise(call.signal);
		const waited = session.runtime.waitForRun({ ...scope, runId });
		// After an abort nobody awaits it any more; its failure must not become an unhandled rejection.
		waited.catch(() => {});
		const ended = await (aborted ? Promise.race([waited, aborted]) : waited);
		if (ended === "aborted") {
			session.watch(runId);
			return {
				text: `Stopped waiting for run ${runId}; it keeps working. Its end will be reported; team status shows it.`,
				isError: false,
				details,
			};
		}
		return { text: runEndedText(ended as RunSnapshot), isError: ended.manifest.status !== "done", details };
	} finally {
		unsubscribe();
	}
}
