import { WORKSPACE_ACCESS_EVENT } from "pi-fovea/workspace";
import type { CrewEvent } from "../runtime/crew-events.ts";
import { ownerRoot } from "./workspace.ts";

/** Who accessed a root: the agent, as metadata for the coordinator (never authorship of what is there). */
export interface AgentOrigin {
	kind: "crew-agent";
	agentId: string;
	runId: string;
	taskId: string;
}

/** Emits on the coordinator's event bus. */
export type EmitHint = (channel: string, payload: unknown) => void;

/**
 * The two version-1 access hints that make the coordinator's Fovea and Contour enroll `root`. Each extension
 * accepts hints only from the other one (`source` "contour" reaches Fovea, "fovea" reaches Contour), and the hint
 * protocol has no source for a third extension yet, so pi-crew relays the agent's access under each peer's name;
 * `origin` says that an agent, not the peer, touched the root (receivers ignore fields they do not know).
 */
export function agentRootHints(
	root: string,
	sessionId: string,
	origin: AgentOrigin,
): { version: 1; source: "fovea" | "contour"; root: string; sessionId: string; origin: AgentOrigin }[] {
	return [
		{ version: 1, source: "contour", root, sessionId, origin },
		{ version: 1, source: "fovea", root, sessionId, origin },
	];
}

/**
 * Reports the project roots that this session's agents access to the coordinator's Fovea and Contour: each path
 * an agent's successful tool call touched (the runtime's `agent.access` events) is mapped to its owning project,
 * and each new root of an agent is published once. A worktree is its own root (its `.git` file is the nearest
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
			for (const hint of agentRootHints(root, this.#sessionId, origin)) this.#emit(WORKSPACE_ACCESS_EVENT, hint);
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
