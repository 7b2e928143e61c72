import { canonicalPath } from "pi-fovea/workspace";
import { endedProcessesText } from "./leftover-processes.ts";
import { isActiveAgent, type LiveAgentHandle, type LiveAgentRegistry, liveAgents } from "./live-agents.ts";

/** The team-tool operations on live agents (names from the isolation seed). */
export const LIVE_AGENT_OPERATIONS = [
	"list-active-live-agents",
	"steer-agent",
	"follow-up-agent",
	"stop-agent",
	"resume-agent",
] as const;

/** One of LIVE_AGENT_OPERATIONS. */
export type LiveAgentOperation = (typeof LIVE_AGENT_OPERATIONS)[number];

/** Who asks, and about which agent. */
export interface LiveAgentRequest {
	/** The caller's workspace (any alias of it); the isolation boundary. */
	cwd: string;
	/** The caller's Pi session; agents of another session's runs are refused unless `force`. */
	sessionId: string;
	agentId?: string;
	/** The text of a steer or follow-up (required), or of a resume (optional). */
	message?: string;
	/**
	 * Lets a session take over the agents of another session of the same workspace whose session has ended; never
	 * a live session's, never another workspace's.
	 */
	force?: boolean;
}

/** A tool-style result: text for the model, whether it is an error, structured details. */
export interface LiveAgentResult {
	text: string;
	isError: boolean;
	details: Record<string, unknown>;
}

/** What the operations need besides the registry. */
export interface LiveAgentApiOptions {
	registry?: LiveAgentRegistry;
	/**
	 * Whether the caller may see and control `agent` of another session: only when forced and the agent's session
	 * has ended (the runtime knows which sessions of the process are live). Default: never, force or not.
	 */
	mayReach?: (agent: LiveAgentHandle, caller: { cwd: string; sessionId: string; force: boolean }) => Promise<boolean>;
	/**
	 * resume-agent for an agent this process holds no handle for (its coordinator restarted): resumes it from the
	 * run state of workspace `cwd` (canonical), or returns undefined when that workspace has no such agent.
	 */
	resumeUnknown?: (request: {
		cwd: string;
		sessionId: string;
		agentId: string;
		message: string | undefined;
		force: boolean;
	}) => Promise<LiveAgentResult | undefined>;
}

/** The refusal for an agent of another workspace (the seed's exact words). */
export function foreignWorkspaceMessage(agentId: string, cwd: string): string {
	return `Live agent '${agentId}' does not belong to workspace ${cwd}.`;
}

/** The refusal for an agent of another session of the same workspace. */
export function foreignSessionMessage(agentId: string, cwd: string): string {
	return `Live agent '${agentId}' belongs to another session of workspace ${cwd}; pass force to control it.`;
}

/** The refusal, even with force, for an agent of another session that is still live. */
export function liveSessionAgentMessage(agentId: string, cwd: string): string {
	return `Live agent '${agentId}' belongs to another live session of workspace ${cwd}; force only takes over agents whose session has ended.`;
}

function error(text: string, details: Record<string, unknown> = {}): LiveAgentResult {
	return { text, isError: true, details: { status: "error", ...details } };
}

function ok(text: string, details: Record<string, unknown>): LiveAgentResult {
	return { text, isError: false, details: { status: "ok", ...details } };
}

interface CheckedRequest {
	cwd: string;
	sessionId: string;
	agentId: string | undefined;
	message: string | undefined;
	force: boolean;
}

/** Validates a request that crossed a boundary (tool input); returns an error text naming the bad field. */
function check(operation: LiveAgentOperation, request: unknown): CheckedRequest | string {
	if (request === null || typeof request !== "object") return "expected an object with cwd and sessionId";
	const r = request as Record<string, unknown>;
	const text = (field: string): string | undefined | null => {
		const value = r[field];
		if (value === undefined) return undefined;
		return typeof value === "string" && value.trim() !== "" ? value : null;
	};
	const cwd = text("cwd");
	const sessionId = text("sessionId");
	const agentId = text("agentId");
	const message = text("message");
	if (typeof cwd !== "string") return 'field "cwd": expected the workspace folder as a nonempty string';
	if (typeof sessionId !== "string") return 'field "sessionId": expected a nonempty string';
	if (r.force !== undefined && typeof r.force !== "boolean") return 'field "force": expected true or false';
	if (agentId === null) return 'field "agentId": expected a nonempty string';
	if (message === null) return 'field "message": expected a nonempty string';
	if (operation !== "list-active-live-agents" && agentId === undefined) {
		return `field "agentId": ${operation} needs the id of an agent (see list-active-live-agents)`;
	}
	if ((operation === "steer-agent" || operation === "follow-up-agent") && message === undefined) {
		return `field "message": ${operation} needs the text to send`;
	}
	return { cwd, sessionId, agentId, message, force: r.force === true };
}

function describe(agent: LiveAgentHandle): string {
	const tool = agent.currentTool ? `, running ${agent.currentTool}` : "";
	return `${agent.agentId}  ${agent.status}  task ${agent.taskId}  pid ${agent.pid ?? "-"}${tool}`;
}

/**
 * Runs one live-agent operation for a caller in workspace `cwd` and session `sessionId`. Only agents whose
 * workspaceId is the caller's canonical workspace are listed or controlled; an agent of another workspace is
 * refused with the seed's message, and one of another session of this workspace unless `force` takes over an
 * ended session's agent (`options.mayReach`); a live session's agent is refused even then. A refused request sends
 * nothing to the agent.
 */
export async function runLiveAgentOperation(
	operation: string,
	request: unknown,
	options: LiveAgentApiOptions = {},
): Promise<LiveAgentResult> {
	const registry = options.registry ?? liveAgents;
	if (!(LIVE_AGENT_OPERATIONS as readonly string[]).includes(operation)) {
		return error(`Unknown live-agent operation '${operation}'; known: ${LIVE_AGENT_OPERATIONS.join(", ")}.`);
	}
	const op = operation as LiveAgentOperation;
	const checked = check(op, request);
	if (typeof checked === "string") return error(`${operation}: ${checked}`);
	const cwd = await canonicalPath(checked.cwd);
	const { sessionId, force, message } = checked;
	const caller = { cwd, sessionId, force };
	const mayReach = async (agent: LiveAgentHandle): Promise<boolean> =>
		agent.ownerSessionId === sessionId || (force && ((await options.mayReach?.(agent, caller)) ?? false));
	if (op === "list-active-live-agents") {
		const agents: LiveAgentHandle[] = [];
		for (const agent of registry.listByWorkspace(cwd).filter(isActiveAgent)) {
			if (await mayReach(agent)) agents.push(agent);
		}
		const text =
			agents.length === 0
				? `No active live agents in workspace ${cwd}.`
				: [`Active live agents in workspace ${cwd}:`, ...agents.map(describe)].join("\n");
		return ok(text, { operation, workspace: cwd, agents });
	}
	const agentId = checked.agentId as string;
	// Looked up by workspace and id: an agent of another workspace with the same id is never the one acted on.
	const live = registry.get(agentId, cwd);
	if (!live && registry.get(agentId) !== undefined)
		return error(foreignWorkspaceMessage(agentId, cwd), { agentId, workspace: cwd });
	if (!live) {
		if (op === "resume-agent" && options.resumeUnknown) {
			const resumed = await options.resumeUnknown({ cwd, sessionId, agentId, message, force });
			if (resumed) return resumed;
		}
		return error(`No live agent '${agentId}' in workspace ${cwd}.`, { agentId, workspace: cwd });
	}
	if (live.ownerSessionId !== sessionId && !force) {
		return error(foreignSessionMessage(agentId, cwd), { agentId, workspace: cwd });
	}
	if (!(await mayReach(live))) return error(liveSessionAgentMessage(agentId, cwd), { agentId, workspace: cwd });
	if (
		op === "resume-agent" &&
		live.ownerSessionId !== sessionId &&
		live.status === "stopped" &&
		options.resumeUnknown
	) {
		// Taking over an ended session's agent: resumed by the caller's runtime, not by the ended one's execution.
		const resumed = await options.resumeUnknown({ cwd, sessionId, agentId, message, force });
		if (resumed) return resumed;
	}
	const control = registry.control(cwd, agentId);
	const active = isActiveAgent(live);
	if (
		op === "resume-agent" ? live.status !== "stopped" : !active || (op !== "stop-agent" && live.status === "stopping")
	) {
		const want = op === "resume-agent" ? "stopped" : "running";
		return error(`Live agent '${agentId}' is ${live.status}, not ${want}; nothing was sent.`, {
			agentId,
			agentStatus: live.status,
		});
	}
	let answered = false;
	try {
		if (op === "steer-agent") await control?.steer(message as string);
		else if (op === "follow-up-agent") answered = (await control?.followUp(message as string)) === "answered";
		else if (op === "stop-agent") await control?.stop();
		else await control?.resume(message);
	} catch (failure) {
		return error(`${operation} '${agentId}' failed: ${(failure as Error).message}`, { agentId });
	}
	const done: Record<LiveAgentOperation, string> = {
		"list-active-live-agents": "",
		"steer-agent": `Steered live agent '${agentId}'; the message arrives before its next model call.`,
		"follow-up-agent": answered
			? `Answered the question of live agent '${agentId}'; it goes on with your answer.`
			: `Queued a follow-up for live agent '${agentId}'; it arrives when the agent would stop.`,
		"stop-agent": `Stopped live agent '${agentId}'; resume-agent continues it from its session.`,
		"resume-agent": `Resumed live agent '${agentId}' from its session.`,
	};
	const agent = registry.get(agentId, cwd);
	const ended = op === "stop-agent" ? endedProcessesText(agent?.endedProcesses ?? []) : "";
	const details = { operation, agentId, agent, ...(answered ? { answered } : {}) };
	return ok(ended === "" ? done[op] : `${done[op]} ${ended}.`, details);
}
