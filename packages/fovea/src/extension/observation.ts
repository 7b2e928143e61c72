import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { FoveaMaps, Observation } from "./extension-contract.ts";
import type { Roaming } from "./roaming.ts";

/** Tools whose `path` argument Fovea attends to, and those that write it (provenance). */
const PATH_TOOLS = new Set(["read", "edit", "write", "grep", "find", "ls"]);
const WRITERS = new Set(["edit", "write"]);

export type { Observation } from "./extension-contract.ts";

/**
 * Wires Fovea's per-root observation (see `engine/observe/observer.ts`, loaded on the first tool result) into the
 * session: attention from successful tool results, provenance from this session's own writes, per-turn decay, a
 * post-turn backstop that probes the roots the agent works in, and one drift message before each run.
 */
export function wireObservation(pi: ExtensionAPI, roaming: Roaming, maps: FoveaMaps): Observation {
	pi.on("tool_execution_start", async (event, ctx) => {
		if (WRITERS.has(event.toolName))
			await (await maps.observer()).writeStarted(event.toolCallId, event.args, ctx.cwd, roaming);
	});
	pi.on("tool_execution_end", async (event) => {
		await maps.loadedObserver()?.writeEnded(event.toolCallId, !event.isError);
	});
	pi.on("tool_result", async (event, ctx) => {
		if (!event.isError && PATH_TOOLS.has(event.toolName))
			await (await maps.observer()).toolResult(event.toolName, event.input, ctx.cwd, roaming);
	});
	pi.on("turn_end", () => {
		maps.loadedObserver()?.decay();
	});
	pi.on("agent_settled", () => {
		maps.loadedObserver()?.backstop(roaming);
	});
	pi.on("before_agent_start", async (_event, ctx) => {
		const observer = maps.loadedObserver();
		if (observer === undefined) return;
		const { settings } = await (await import("./settings-access.ts")).sessionSettings(ctx.cwd, roaming);
		if (!settings["fovea.sync.enabled"]) return;
		const text = await observer.beforeRun(roaming, maps.isResident, settings["fovea.sync.maxTokens"]);
		if (text !== undefined) return { message: { customType: "fovea-sync", content: text, display: true } };
	});
	return { settled: async () => maps.loadedObserver()?.settled() };
}
