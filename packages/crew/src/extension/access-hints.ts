import { type AgentOrigin, CREW_AGENT_ACCESS_EVENT, crewAgentAccessHint } from "pi-fovea/agent-access";
import type { CrewEvent } from "../runtime/crew-events.ts";
import { ownerRoot } from "./workspace.ts";

/** Emits on the coordinator's event bus. */
export type EmitHint = (channel: string, payload: unknown) => void;

/**
 * Reports the project roots that this session's agents access to the coordinator's Fovea and Contour on Crew's own
 * channel, `CREW_AGENT_ACCESS_EVENT` (never on `WORKSPACE_ACCESS_EVENT`, whose sources are Fovea and Contour only),
 * with the agent as origin: metadata for the coordinator, never authorship of what is there. Each path an agent's
 * successful tool call touched (the runtime's `agent.access` events) is mapped to its owning project, and each new
 * root of an agent is published once. A worktree is its own root (its `.git` file is the nearest
 * marker). Roots are kept per agent for `/team status`.
 */
export class AccessReporter {
	readonly #sessionId: string;
	readonly #emit: EmitHint;
	readonly #roots = new Map<string, string[]>();
	#closed = false;

	constructor(sessionId: string, emit: EmitHint) {
		this.#sessionId = sessionId;
		this.#emit = emit;
	}

	/** Handles one access of an agent. Never throws: an observation must not disturb a run. */
	async report(agentId: string, path: string, event: CrewEvent): Promise<string | undefined> {
		if (this.#closed || event.ownerSessionId !== this.#sessionId || event.taskId === undefined) return undefined;
		const kind = event.data?.kind;
		try {
			const root = await ownerRoot(path, kind === "file" || kind === "directory" ? kind : "unknown");
			if (root === undefined || this.#closed) return undefined;
			const known = this.#roots.get(agentId) ?? [];
			if (known.includes(root)) return root;
			this.#roots.set(agentId, [...known, root]);
			const origin: AgentOrigin = { kind: "crew-agent", agentId, runId: event.runId, taskId: event.taskId };
			this.#emit(CREW_AGENT_ACCESS_EVENT, crewAgentAccessHint(root, this.#sessionId, origin));
			return root;
		} catch {
			return undefined;
		}
	}

	/** The roots `agentId` accessed, in order. */
	rootsOf(agentId: string): readonly string[] {
		return this.#roots.get(agentId) ?? [];
	}

	/** Stops publishing (the session is ending). */
	close(): void {
		this.#closed = true;
	}
}
