import { envInt } from "pi-fovea/workspace";

/** Environment variables the runtime reads. */
export const CREW_ENV = {
	/** Sub-agent processes at once, per runtime (default 4, 1-64). */
	maxWorkers: "PI_CREW_MAX_WORKERS",
	/** How deep sub-agents may nest: a coordinator is depth 0, its agents depth 1 (default 2, 0-8). */
	maxDepth: "PI_CREW_MAX_DEPTH",
	/** The depth of this process; set by the runtime for every agent it starts. */
	depth: "PI_CREW_DEPTH",
	/** A working agent silent this long is ended as hung (default 600000 ms, 1000-86400000). */
	noOutputTimeoutMs: "PI_CREW_NO_OUTPUT_TIMEOUT_MS",
} as const;

/** The runtime's limits. */
export interface CrewLimits {
	maxWorkers: number;
	maxDepth: number;
	/** This process's own depth. */
	depth: number;
	noOutputTimeoutMs: number;
}

/** Limits from `env` (bad or missing values fall back to the defaults), with explicit `overrides` winning. */
export function crewLimits(env: NodeJS.ProcessEnv = process.env, overrides: Partial<CrewLimits> = {}): CrewLimits {
	return {
		maxWorkers: overrides.maxWorkers ?? envInt(CREW_ENV.maxWorkers, 4, 1, 64, env),
		maxDepth: overrides.maxDepth ?? envInt(CREW_ENV.maxDepth, 2, 0, 8, env),
		depth: overrides.depth ?? envInt(CREW_ENV.depth, 0, 0, 1000, env),
		noOutputTimeoutMs:
			overrides.noOutputTimeoutMs ?? envInt(CREW_ENV.noOutputTimeoutMs, 600_000, 1000, 86_400_000, env),
	};
}

/** Starting sub-agents here would nest them deeper than PI_CREW_MAX_DEPTH allows. */
export class DepthLimitError extends Error {
	readonly depth: number;
	readonly maxDepth: number;

	constructor(depth: number, maxDepth: number) {
		super(
			`pi-crew: cannot start sub-agents at depth ${depth + 1}: ${CREW_ENV.maxDepth} is ${maxDepth}` +
				(depth > 0 ? ` and this process is itself a sub-agent at depth ${depth}` : "") +
				". Do the work here, or raise the limit.",
		);
		this.name = "DepthLimitError";
		this.depth = depth;
		this.maxDepth = maxDepth;
	}
}

/** Throws DepthLimitError unless this process may start sub-agents. */
export function assertDepthAllowed(limits: Pick<CrewLimits, "depth" | "maxDepth">): void {
	if (limits.depth + 1 > limits.maxDepth) throw new DepthLimitError(limits.depth, limits.maxDepth);
}
