import type { AgentDefinition, ThinkingLevel } from "../definitions/agent.ts";
import { THINKING_LEVELS } from "../definitions/agent.ts";
import type { RunMeta } from "../state/manifest.ts";
import { type Budget, checkedBudget, tighterBudget } from "./budget.ts";
import { ASK_EXTENSION, ASK_TOOL } from "./question-protocol.ts";
import { CREW_ENV } from "./runtime-config.ts";

/**
 * An agent definition as a run uses it, kept in the run's manifest (`meta.agents`) so that a resumed run starts
 * the same agents even if the definition files changed since.
 */
export interface AgentSnapshot {
	name: string;
	model?: string;
	tools?: string[];
	thinking?: ThinkingLevel;
	systemPrompt: string;
	/** The agent's own budget, tightened by the one its run gives every agent. */
	budget?: Budget;
}

/** The model for agents whose definition names none: usually the coordinator's. */
export interface ModelChoice {
	provider?: string;
	model?: string;
}

/** The snapshot of `agent`, whose budget is the tightest of its own and `runAgentBudget` (each agent of the run). */
export function agentSnapshot(agent: AgentDefinition, runAgentBudget?: Budget): AgentSnapshot {
	const snapshot: AgentSnapshot = { name: agent.name, systemPrompt: agent.systemPrompt };
	const budget = tighterBudget(agent.budget, runAgentBudget);
	if (budget !== undefined) snapshot.budget = budget;
	if (agent.model !== undefined) snapshot.model = agent.model;
	if (agent.tools !== undefined) snapshot.tools = [...agent.tools];
	if (agent.thinking !== undefined) snapshot.thinking = agent.thinking;
	return snapshot;
}

function isStringList(value: unknown): value is string[] {
	return Array.isArray(value) && value.every((item) => typeof item === "string" && /^[A-Za-z0-9_-]+$/.test(item));
}

/** The agent snapshot `name` from a manifest's meta (read from disk, so validated); `where` names the file. */
export function readAgentSnapshot(meta: RunMeta | undefined, name: string, where: string): AgentSnapshot {
	const agents = meta?.agents;
	const raw = agents !== null && typeof agents === "object" ? (agents as Record<string, unknown>)[name] : undefined;
	const fail = (why: string) => new Error(`${where}: field "meta.agents.${name}": ${why}`);
	if (raw === undefined) throw fail("missing; the run does not know this agent");
	if (raw === null || typeof raw !== "object") throw fail("expected an object");
	const r = raw as Record<string, unknown>;
	if (typeof r.systemPrompt !== "string" || r.systemPrompt.trim() === "") throw fail("systemPrompt must be text");
	const snapshot: AgentSnapshot = { name, systemPrompt: r.systemPrompt };
	if (r.model !== undefined) {
		if (typeof r.model !== "string" || r.model.trim() === "") throw fail("model must be a nonempty string");
		snapshot.model = r.model;
	}
	if (r.tools !== undefined) {
		if (!isStringList(r.tools)) throw fail("tools must be a list of tool names");
		snapshot.tools = [...r.tools];
	}
	if (r.thinking !== undefined) {
		if (!THINKING_LEVELS.includes(r.thinking as ThinkingLevel))
			throw fail(`thinking must be one of ${THINKING_LEVELS.join(", ")}`);
		snapshot.thinking = r.thinking as ThinkingLevel;
	}
	try {
		const budget = checkedBudget(r.budget, "budget");
		if (budget !== undefined) snapshot.budget = budget;
	} catch (error) {
		throw fail((error as Error).message);
	}
	return snapshot;
}

/**
 * Pi arguments for one agent: the supervisor channel's extension, its model (else `defaultModel`), its tool
 * allowlist (plus `ask_coordinator`), thinking level and system prompt (appended from `systemPromptFile`, so the text never passes through the command line), after `extra`.
 */
export function agentArgs(
	agent: AgentSnapshot,
	options: { systemPromptFile: string; defaultModel?: ModelChoice; extra?: readonly string[] },
): string[] {
	// Every agent can ask its coordinator a question (the supervisor channel), whatever tools it may use besides.
	const args = [...(options.extra ?? []), "-e", ASK_EXTENSION];
	if (agent.model !== undefined) args.push("--model", agent.model);
	else if (options.defaultModel?.model !== undefined) {
		if (options.defaultModel.provider !== undefined) args.push("--provider", options.defaultModel.provider);
		args.push("--model", options.defaultModel.model);
	}
	if (agent.tools !== undefined) args.push("--tools", [...agent.tools, ASK_TOOL].join(","));
	if (agent.thinking !== undefined) args.push("--thinking", agent.thinking);
	args.push("--append-system-prompt", options.systemPromptFile);
	return args;
}

/** Identity of an agent for its environment. */
export interface AgentIdentity {
	runId: string;
	taskId: string;
	agentId: string;
	workspace: string;
}

/**
 * The environment of an agent process: `base` plus its depth (this process's depth + 1, which the depth guard of
 * a nested runtime reads) and its identity, so tools and nested runtimes know whom they work for.
 */
export function agentEnv(base: NodeJS.ProcessEnv, depth: number, who: AgentIdentity): NodeJS.ProcessEnv {
	return {
		...base,
		[CREW_ENV.depth]: String(depth + 1),
		PI_CREW_RUN_ID: who.runId,
		PI_CREW_TASK_ID: who.taskId,
		PI_CREW_AGENT_ID: who.agentId,
		PI_CREW_WORKSPACE: who.workspace,
	};
}
