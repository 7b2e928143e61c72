import type { DefinitionCatalog } from "../definitions/catalog.ts";
import { type TeamDefinition, workflowTasks } from "../definitions/team.ts";
import type { WorkspaceMode } from "../state/manifest.ts";
import type { CreateRunInput } from "../state/run-store.ts";
import type { TaskSpec } from "../state/tasks.ts";
import { type AgentSnapshot, agentSnapshot } from "./agent-launch.ts";
import { type Budget, tighterBudget } from "./budget.ts";
import type { SessionScope } from "./run-access.ts";

/** What startRun needs. */
export interface StartRunInput extends SessionScope {
	/** A team name (looked up in `catalog`) or a team definition. */
	team: string | TeamDefinition;
	goal: string;
	/** Default: the built-in, user and project definitions of the workspace. */
	catalog?: DefinitionCatalog;
	/** Default: the team's workflow. */
	tasks?: TaskSpec[];
	workspaceMode?: WorkspaceMode;
	/** Tasks at once for this run (capped by PI_CREW_MAX_WORKERS); default the team's. */
	concurrency?: number;
	/** Limits on the whole run, tightening the team's `budget`. */
	budget?: Budget;
	/** Limits on each agent of the run, tightening the team's `agentBudget` and each agent's own. */
	agentBudget?: Budget;
}

/**
 * The run that `input` asks for, as RunStore.createRun takes it: the team's tasks (or the given ones), a
 * snapshot of every agent they use (kept in `meta.agents`, so a resumed run starts the same agents), the
 * workspace mode and concurrency. Unknown teams or agents, and worktree mode without a hook, are clear errors.
 */
export function planRun(
	input: StartRunInput,
	catalog: DefinitionCatalog,
	options: { depth: number; hasWorktreeHook: boolean },
): CreateRunInput {
	if (typeof input.goal !== "string" || input.goal.trim() === "")
		throw new Error('startRun: field "goal": expected text');
	const team = typeof input.team === "string" ? catalog.team(input.team) : input.team;
	const tasks = input.tasks ?? workflowTasks(team);
	const agents: Record<string, AgentSnapshot> = {};
	const eachAgent = tighterBudget(team.agentBudget, input.agentBudget);
	for (const task of tasks) agents[task.agent] ??= agentSnapshot(catalog.agent(task.agent), eachAgent);
	const budget = tighterBudget(team.budget, input.budget);
	const workspaceMode = input.workspaceMode ?? team.workspaceMode;
	if (workspaceMode === "worktree" && !options.hasWorktreeHook) {
		throw new Error(
			`startRun: team ${team.name} uses worktree mode, but this runtime has no worktree hook (prepareWorkspace)`,
		);
	}
	const concurrency = input.concurrency ?? team.concurrency;
	if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1)) {
		throw new Error(`startRun: field "concurrency": expected a positive integer, got ${concurrency}`);
	}
	return {
		ownerSessionId: input.sessionId,
		team: team.name,
		goal: input.goal,
		workspaceMode,
		tasks,
		meta: {
			agents,
			depth: options.depth,
			...(concurrency === undefined ? {} : { concurrency }),
			...(budget === undefined ? {} : { budget }),
		},
	};
}
