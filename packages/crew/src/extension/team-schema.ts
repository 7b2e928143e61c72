import { type Static, Type } from "typebox";

/** Actions on runs. */
export const RUN_ACTIONS = [
	"run",
	"list",
	"status",
	"cancel",
	"resume",
	"retry",
	"teams",
	"worktrees",
	"doctor",
] as const;

/** Actions on live agents (names from the isolation seed). */
export const AGENT_ACTIONS = [
	"list-active-live-agents",
	"steer-agent",
	"follow-up-agent",
	"stop-agent",
	"resume-agent",
] as const;

/** Every action of the `team` tool. */
export const TEAM_ACTIONS = [...RUN_ACTIONS, ...AGENT_ACTIONS] as const;

/** One action of the `team` tool. */
export type TeamAction = (typeof TEAM_ACTIONS)[number];

const taskSchema = Type.Object({
	id: Type.String({ description: "Task id: lowercase letters, digits, - and _ (a folder and branch name part)." }),
	agent: Type.String({ description: "The agent definition that does the task (see action teams)." }),
	instructions: Type.Optional(Type.String({ description: "What this task does, besides the run's goal." })),
	dependsOn: Type.Optional(Type.Array(Type.String(), { description: "Ids of tasks that must be done first." })),
});

const budgetSchema = (what: string) =>
	Type.Optional(
		Type.Object(
			{
				turns: Type.Optional(Type.Integer({ minimum: 1, description: "Model turns." })),
				toolCalls: Type.Optional(Type.Integer({ minimum: 1, description: "Tool calls." })),
				tokens: Type.Optional(Type.Integer({ minimum: 1, description: "Tokens (input, output and cache)." })),
				cost: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: "Cost in US dollars." })),
			},
			{ description: what },
		),
	);

/** Parameters of the `team` tool. */
export const teamParameters = Type.Object({
	action: Type.Enum([...TEAM_ACTIONS], {
		description:
			"run: start a team on a goal. list / status / cancel / resume: this session's runs. retry: run a failed task (taskId, default every failed task) and its dependents again. teams: the teams and agents. worktrees: task worktrees. doctor: check Pi, Git, ripgrep, fd, definitions, runs, worktrees and the state folder, each problem with its fix. list-active-live-agents, steer-agent, follow-up-agent, stop-agent, resume-agent: this session's live agents.",
	}),
	team: Type.Optional(Type.String({ description: "run: the team (see action teams); with tasks, optional." })),
	goal: Type.Optional(Type.String({ description: "run: what the team should achieve." })),
	tasks: Type.Optional(
		Type.Array(taskSchema, { description: "run: tasks instead of the team's workflow (an ad-hoc team)." }),
	),
	workspaceMode: Type.Optional(
		Type.Enum(["single", "worktree"], {
			description: "run: single (default: all agents in the workspace) or worktree (one Git worktree per task).",
		}),
	),
	budget: budgetSchema(
		"run: limits on the whole run (all agents together); an agent still working when one is reached is stopped, its task failed with budget-exceeded and its partial result kept.",
	),
	agentBudget: budgetSchema(
		"run: limits on each agent of the run (tighter limits of an agent's own definition still apply).",
	),
	wait: Type.Optional(
		Type.Boolean({
			description:
				"run: wait until the run ends and return its results (default: return at once, except in print and JSON mode).",
		}),
	),
	runId: Type.Optional(
		Type.String({ description: "status, cancel, resume, retry: the run (status: default the latest)." }),
	),
	taskId: Type.Optional(
		Type.String({
			description: "retry: the failed task to run again with its dependents (default: every failed task).",
		}),
	),
	agentId: Type.Optional(Type.String({ description: "Agent operations: the agent, <runId>:<taskId>." })),
	message: Type.Optional(
		Type.String({ description: "steer-agent, follow-up-agent (required), resume-agent (optional): the text to send." }),
	),
	force: Type.Optional(
		Type.Boolean({
			description:
				"Take over the runs and agents of another session of this workspace whose session has ended (its process died or it shut down); the answer names the session it was taken from. Never reaches a live session, nor another workspace.",
		}),
	),
	root: Type.Optional(
		Type.String({
			description:
				"The workspace (absolute, or relative to the session cwd); it must be this session's own workspace (an alias or a folder inside it). Omitted: the session cwd's project.",
		}),
	),
});

/** What the model passes to the `team` tool. */
export type TeamParams = Static<typeof teamParameters>;
