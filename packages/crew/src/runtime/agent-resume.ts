import { claimOf } from "../state/run-claim.ts";
import type { RunSnapshot, RunStore } from "../state/run-store.ts";
import { agentIdOf, parseAgentId } from "./crew-events.ts";
import { foreignSessionMessage, type LiveAgentResult, liveSessionAgentMessage } from "./live-agent-api.ts";
import type { LiveAgentRegistry } from "./live-agents.ts";
import { CrewAccessError, endOrphanedAgents, LiveSessionError, ownedElsewhere, readOwnedRun } from "./run-access.ts";
import type { RunExecution } from "./scheduler.ts";
import { takeoverText } from "./takeover-text.ts";

/** A resume-agent request, already validated and with the canonical workspace. */
export interface AgentResumeRequest {
	cwd: string;
	sessionId: string;
	agentId: string;
	message: string | undefined;
	force: boolean;
}

/**
 * resume-agent for an agent that this process holds no handle for, typically after its coordinator restarted:
 * finds the agent's run in the caller's workspace (another workspace's run is simply not there, so undefined is
 * returned), refuses another session's run unless `force` (and even then a live session's), a run that a live
 * process still owns and one another runtime of this process works on. The caller's session then becomes the
 * run's owner as with a forced `resume` (only while the run still has the owner the access check saw), agent
 * processes the dead coordinator left are ended, and the agent starts again on its session file.
 */
export async function resumeAgentFromRunState(
	store: RunStore,
	request: AgentResumeRequest,
	context: {
		registry: LiveAgentRegistry;
		execution: (run: RunSnapshot) => RunExecution;
		/** True when another runtime of this process works on the run (its agents are that runtime's children). */
		heldElsewhere?: (runId: string) => boolean;
	},
): Promise<LiveAgentResult | undefined> {
	const parsed = parseAgentId(request.agentId);
	if (!parsed) return undefined;
	const fail = (text: string): LiveAgentResult => ({
		text,
		isError: true,
		details: { status: "error", agentId: request.agentId },
	});
	let run: RunSnapshot;
	try {
		run = await readOwnedRun(store, request, parsed.runId, "resume");
	} catch (error) {
		if (!(error instanceof CrewAccessError) || error.message.startsWith("No run")) return undefined;
		if (error instanceof LiveSessionError) return fail(liveSessionAgentMessage(request.agentId, request.cwd));
		return fail(foreignSessionMessage(request.agentId, request.cwd));
	}
	if (!run.tasks.some((task) => task.id === parsed.taskId)) return undefined;
	if (await ownedElsewhere(run)) {
		return fail(`Live agent '${request.agentId}' is run by process ${run.manifest.ownerPid}; resume it there.`);
	}
	if (context.heldElsewhere?.(parsed.runId)) {
		return fail(`Live agent '${request.agentId}' is run by another session of this process; resume it there.`);
	}
	try {
		await context.execution(run).resumeTask(parsed.taskId, request.message, {
			sessionId: request.sessionId,
			claim: claimOf(run.manifest),
			beforeLaunch: () => endOrphanedAgents(store, parsed.runId),
		});
	} catch (error) {
		return fail(`resume-agent '${request.agentId}' failed: ${(error as Error).message}`);
	}
	const agent = context.registry.get(agentIdOf(parsed.runId, parsed.taskId), store.root);
	const previous = run.manifest.ownerSessionId;
	const forced = previous === request.sessionId ? "" : ` ${takeoverText(previous, run.manifest.ownerPid)}`;
	return {
		text: `Resumed agent '${request.agentId}' from its session.${forced}`,
		isError: false,
		details: {
			status: "ok",
			agentId: request.agentId,
			runId: parsed.runId,
			agent,
			...(forced ? { takenOverFrom: { sessionId: previous, pid: run.manifest.ownerPid } } : {}),
		},
	};
}
