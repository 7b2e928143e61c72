import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { Observation } from "./observation.ts";
import type { Roaming } from "./roaming.ts";
import { registerSubcommands } from "./subcommands.ts";
import type { FoveaMaps } from "./tools.ts";

/** `/fovea status|roots|reset|settings`: what Fovea observes, and a way to forget it; `after` refreshes the footer item. */
export function registerFoveaCommands(
	pi: ExtensionAPI,
	roaming: Roaming,
	maps: FoveaMaps,
	sync: Observation,
	after?: (ctx: ExtensionContext) => void,
): void {
	registerSubcommands(
		pi,
		"fovea",
		"Fovea's per-project code map",
		{
			status: {
				description: "the root used when none is named, the enrolled roots, coverage and attention",
				run: async (_args, ctx) => (await import("./status-text.ts")).foveaStatus(ctx.cwd, roaming, maps, sync),
			},
			roots: {
				description: "the enrolled roots, most recent first, and whether each map is in memory",
				run: async () => (await import("./status-text.ts")).foveaRoots(roaming),
			},
			reset: {
				description: "forget every enrolled root (the list is emptied)",
				run() {
					const retired = roaming.reset();
					return `pi-fovea: retired ${retired.length} root${retired.length === 1 ? "" : "s"}; none is enrolled now.`;
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
		after,
		["fovea-sync"],
	);
}
