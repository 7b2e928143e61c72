import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { FOVEA_WORKSPACE_ENTRY } from "../workspace/session-entries.ts";
import { registerFoveaCommands } from "./commands.ts";
import { attachHybridGrep } from "./hybrid-grep.ts";
import { wireObservation } from "./observation.ts";
import { attachRoaming } from "./roaming.ts";
import { noticeSettingsProblems } from "./settings-notice.ts";
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
	attachHybridGrep(pi, roaming, maps);
	const sync = wireObservation(pi, roaming, maps);
	registerFoveaCommands(pi, roaming, maps, sync);
	noticeSettingsProblems(pi, roaming);
	pi.on("session_shutdown", async () => (await import("./spill-files.ts")).removeSpills());
}
