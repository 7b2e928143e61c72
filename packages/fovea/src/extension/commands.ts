import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { Observation } from "./observation.ts";
import type { Roaming } from "./roaming.ts";
import { registerSubcommands } from "./subcommands.ts";
import type { FoveaMaps } from "./tools.ts";

/** `/fovea status|roots|reset|settings`: what Fovea observes, and a way to forget it. */
export function registerFoveaCommands(pi: ExtensionAPI, roaming: Roaming, maps: FoveaMaps, sync: Observation): void {
	registerSubcommands(
		pi,
		"fovea",
		"Fovea's per-project code map",
		{
			status: {
				description: "enrolled roots, the root used when a tool names none, and what is observed",
				run: async (_args, ctx) => (await import("./status-text.ts")).foveaStatus(ctx.cwd, roaming, maps, sync),
			},
			roots: {
				description: "the recency ring: root, marker, lease age, cache residency",
				run: async () => ["pi-fovea roots", ...(await roaming.describe())].join("\n"),
			},
			reset: {
				description: "retire every enrolled root (clears the ring)",
				run() {
					const retired = roaming.reset();
					return `pi-fovea: retired ${retired.length} root${retired.length === 1 ? "" : "s"}; the ring is empty.`;
				},
			},
			settings: {
				description: "show or change settings: [set KEY VALUE | unset KEY] [--repo]",
				run: async (args, ctx) =>
					(await import("../settings/settings-command.ts")).settingsCommand(
						"fovea",
						(await roaming.manualRoot(ctx.cwd))?.root,
						args,
					),
			},
		},
		"status",
	);
}
