import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { FOVEA_WORKSPACE_ENTRY } from "../workspace/session-entries.ts";
import { registerFoveaCommands } from "./commands.ts";
import { wireObservation } from "./observation.ts";
import { attachRoaming } from "./roaming.ts";
import { foveaMaps, registerFoveaTools } from "./tools.ts";

/**
 * The pi-fovea extension. Loading it does no filesystem work, runs no Git and imports no parser: roots enroll only
 * when a successful tool result touches a project, and the engine loads on the first tool call.
 */
export default function fovea(pi: ExtensionAPI): void {
	const maps = foveaMaps();
	const roaming = attachRoaming(pi, {
		source: "fovea",
		customType: FOVEA_WORKSPACE_ENTRY,
		limitEnv: "FOVEA_MAX_ROOTS",
		isResident: maps.isResident,
		onRetire: maps.retire,
	});
	registerFoveaTools(pi, roaming, maps);
	// Hybrid grep, after roaming's own tool_result handler (the grep's project is enrolled by then).
	pi.on("tool_result", async (e, ctx) =>
		e.toolName === "grep" ? (await import("./hybrid-grep.ts")).hybridGrep(e, ctx, roaming, maps) : undefined,
	);
	const sync = wireObservation(pi, roaming, maps);
	// The footer item while no tool runs.
	const idle = async (_event: unknown, ctx: ExtensionContext) =>
		(await import("./status-item.ts")).showFoveaStatus(ctx, roaming);
	pi.on("session_start", idle);
	pi.on("agent_settled", idle);
	registerFoveaCommands(pi, roaming, maps, sync, (ctx) => void idle(undefined, ctx));
	pi.on("before_agent_start", async (_e, ctx) =>
		(await import("./settings-notice.ts")).tellSettingsProblems(ctx, roaming),
	);
	pi.on("session_shutdown", async () => (await import("./spill-files.ts")).removeSpills());
}
