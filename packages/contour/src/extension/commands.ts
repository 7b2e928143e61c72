import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { Roaming } from "pi-fovea/roaming";
import { registerSubcommands } from "pi-fovea/subcommands";

/** `/contour status|reset`: which Git roots Contour observes and which one a review would take. */
export function registerContourCommands(pi: ExtensionAPI, roaming: Roaming): void {
	registerSubcommands(
		pi,
		"contour",
		"Contour's per-root structural review",
		{
			status: {
				description: "enrolled Git roots and the root a review takes when none is named",
				async run(_args, ctx) {
					const target = await roaming.manualRoot(ctx.cwd);
					const review =
						target === undefined
							? "none: the session cwd is in no Git worktree and no Git root is enrolled"
							: `${target.root} [${target.marker}, ${target.from === "cwd" ? "session cwd's Git project" : "most recent Git root in the ring"}]`;
					return ["pi-contour status", `review root (no root given): ${review}`, ...(await roaming.describe())].join(
						"\n",
					);
				},
			},
			reset: {
				description: "retire every enrolled root (clears the ring)",
				run() {
					const retired = roaming.reset();
					return `pi-contour: retired ${retired.length} root${retired.length === 1 ? "" : "s"}; the ring is empty.`;
				},
			},
		},
		"status",
	);
}
