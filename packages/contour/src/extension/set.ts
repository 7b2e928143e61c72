import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import type { Roaming } from "pi-fovea/roaming";
import { settingsCommand } from "pi-fovea/settings";

/**
 * `/contour settings [set KEY VALUE | unset KEY] [--repo]`: the shared settings command for Contour's keys, the
 * repository layer being the session cwd's Git project. Loaded on use, off the extension's startup path (whose byte
 * budget leaves no room for more than the subcommand's entry).
 */
export async function run(args: string, ctx: ExtensionCommandContext, roaming: Roaming): Promise<string> {
	return settingsCommand("contour", (await roaming.manualRoot(ctx.cwd))?.root, args);
}
