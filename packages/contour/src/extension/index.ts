import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { attachRoaming } from "pi-fovea/roaming";
import { CONTOUR_WORKSPACE_ENTRY } from "pi-fovea/session-entries";
import { registerContourCommands } from "./commands.ts";

/**
 * The pi-contour extension. Contour observes Git roots only (a review needs a worktree); loading it does no
 * filesystem work and runs no Git.
 */
export default function contour(pi: ExtensionAPI): void {
	const roaming = attachRoaming(pi, {
		source: "contour",
		customType: CONTOUR_WORKSPACE_ENTRY,
		limitEnv: "CONTOUR_MAX_ROOTS",
		gitOnly: true,
	});
	registerContourCommands(pi, roaming);
}
