import { type Budget, readBudget } from "../runtime/budget.ts";
import type { WorkspaceMode } from "../state/manifest.ts";
import { WORKSPACE_MODES } from "../state/manifest.ts";
import { TASK_ID_HINT, TASK_ID_PATTERN } from "../state/run-id.ts";
import type { TaskSpec } from "../state/tasks.ts";
import { DEFINITION_NAME_HINT, DEFINITION_NAME_PATTERN, type DefinitionLayer, definitionReader } from "./agent.ts";
import { readFrontMatter } from "./front-matter.ts";

/** A role of a team and the agent that plays it. */
export interface TeamRole {
	role: string;
	agent: string;
}

/** One step of a team's default workflow; it becomes a task of a run. */
export interface WorkflowStep {
	/** Unique in the team; becomes the task id (defaults to the role). */
	id: string;
	role: string;
	/** Earlier steps that must be done first. */
	dependsOn: string[];
	/** What the step asks of its agent, besides the run's goal. */
	instructions?: string;
}

/** A team: roles played by agents, an ordered default workflow, a workspace mode and a concurrency limit. */
export interface TeamDefinition {
	name: string;
	description: string;
	roles: TeamRole[];
	workflow: WorkflowStep[];
	workspaceMode: WorkspaceMode;
	/** At most this many tasks at once; absent means the runtime's limit. */
	concurrency?: number;
	/** Limits on what a whole run of the team may spend, all its agents together. */
	budget?: Budget;
	/** Limits on what each agent of a run may spend (an agent's own budget may be tighter). */
	agentBudget?: Budget;
	/** The Markdown body: notes for the coordinator. */
	notes: string;
	file: string;
	layer: DefinitionLayer;
}

/**
 * Parses a team file. Front matter: `name`, `description`, `roles` (list of `{role, agent}`), `workflow` (ordered
 * list of `{id?, role, dependsOn?, instructions?}`, where dependsOn names earlier steps), `workspaceMode`
 * (single | worktree, default single) and `concurrency`. Whether the agents exist is checked by the catalog.
 */
export function parseTeamDefinition(text: string, file: string, layer: DefinitionLayer): TeamDefinition {
	const { data, body } = readFrontMatter(text, file);
	const r = definitionReader(data, file);
	r.onlyKeys(["name", "description", "roles", "workflow", "workspaceMode", "concurrency", "budget", "agentBudget"]);
	const name = r.string("name", { pattern: DEFINITION_NAME_PATTERN, hint: DEFINITION_NAME_HINT });
	const description = r.string("description");
	const roleReaders = r.objects("roles");
	if (roleReaders.length === 0) throw r.error("a team needs at least one role", "roles");
	const roles = roleReaders.map((role) => {
		role.onlyKeys(["role", "agent"]);
		return {
			role: role.string("role", { pattern: DEFINITION_NAME_PATTERN, hint: DEFINITION_NAME_HINT }),
			agent: role.string("agent", { pattern: DEFINITION_NAME_PATTERN, hint: DEFINITION_NAME_HINT }),
		};
	});
	roles.forEach(({ role }, i) => {
		if (roles.findIndex((other) => other.role === role) !== i) {
			throw r.error(`role ${JSON.stringify(role)} is declared twice`, `roles[${i}].role`);
		}
	});
	const stepReaders = r.objects("workflow");
	if (stepReaders.length === 0) throw r.error("a team needs at least one workflow step", "workflow");
	const workflow: WorkflowStep[] = [];
	for (const step of stepReaders) {
		step.onlyKeys(["id", "role", "dependsOn", "instructions"]);
		const role = step.string("role");
		if (!roles.some((declared) => declared.role === role)) {
			throw step.error(
				`unknown role ${JSON.stringify(role)}; the team's roles: ${roles.map((x) => x.role).join(", ")}`,
				"role",
			);
		}
		const id = step.optionalString("id", { pattern: TASK_ID_PATTERN, hint: TASK_ID_HINT }) ?? role;
		if (workflow.some((earlier) => earlier.id === id)) {
			throw step.error(
				`step id ${JSON.stringify(id)} is used twice; give each step its own id`,
				step.has("id") ? "id" : "role",
			);
		}
		const dependsOn = step.optionalStringList("dependsOn", { split: true }) ?? [];
		dependsOn.forEach((dep, d) => {
			if (!workflow.some((earlier) => earlier.id === dep)) {
				throw step.error(
					`${JSON.stringify(dep)} is not an earlier step (steps are ordered; earlier: ${workflow.map((w) => w.id).join(", ") || "none"})`,
					`dependsOn[${d}]`,
				);
			}
		});
		const instructions = step.optionalString("instructions");
		workflow.push({
			id,
			role,
			dependsOn,
			...(instructions === undefined ? {} : { instructions: instructions.trim() }),
		});
	}
	const team: TeamDefinition = {
		name,
		description,
		roles,
		workflow,
		workspaceMode: r.optionalOneOf("workspaceMode", WORKSPACE_MODES) ?? "single",
		notes: body.trim(),
		file,
		layer,
	};
	const concurrency = r.optionalInteger("concurrency", 1, 64);
	if (concurrency !== undefined) team.concurrency = concurrency;
	const budget = readBudget(r, "budget");
	if (budget !== undefined) team.budget = budget;
	const agentBudget = readBudget(r, "agentBudget");
	if (agentBudget !== undefined) team.agentBudget = agentBudget;
	return team;
}

/** The tasks of a run that follows `team`'s default workflow: one per step, played by the role's agent. */
export function workflowTasks(team: TeamDefinition): TaskSpec[] {
	return team.workflow.map((step) => {
		const agent = team.roles.find((r) => r.role === step.role)?.agent;
		if (agent === undefined) throw new Error(`${team.file}: step ${step.id} names unknown role ${step.role}`);
		const task: TaskSpec = { id: step.id, role: step.role, agent, dependsOn: [...step.dependsOn] };
		if (step.instructions !== undefined) task.instructions = step.instructions;
		return task;
	});
}
