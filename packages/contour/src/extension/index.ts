import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { attachRoaming, type Roaming } from "pi-fovea/roaming";
import { CONTOUR_WORKSPACE_ENTRY } from "pi-fovea/session-entries";
import { registerContourCommands } from "./commands.ts";
import { contourReviews } from "./reviews.ts";
import { registerContourTools } from "./tools.ts";

/**
 * The pi-contour extension. Contour observes Git roots only (a review needs a worktree); loading it does no
 * filesystem work and runs no Git. The review engine and the background observer load on first use.
 */
export default function contour(pi: ExtensionAPI): void {
	let roaming: Roaming | undefined;
	const reviews = contourReviews(() => roaming as Roaming);
	roaming = attachRoaming(pi, {
		source: "contour",
		customType: CONTOUR_WORKSPACE_ENTRY,
		limitEnv: "CONTOUR_MAX_ROOTS",
		gitOnly: true,
		isResident: (root) => reviews.loaded()?.maps.isResident(root) === true,
		onRetire: (roots) => reviews.retire(roots),
		onActivity: (roots) => reviews.activity(roots),
		onSession: (sessionId, roots) => reviews.session(sessionId, roots),
		onAdmit: (root) => reviews.admitted(root),
	});
	registerContourTools(pi, roaming, reviews);
	// The footer item while no tool runs.
	const idle = async (_event: unknown, ctx: ExtensionContext) =>
		(await import("./status-item.ts")).showContourStatus(ctx, roaming as Roaming, reviews);
	pi.on("session_start", idle);
	pi.on("agent_settled", idle);
	registerContourCommands(pi, roaming, reviews, (ctx) => void idle(undefined, ctx));
}
