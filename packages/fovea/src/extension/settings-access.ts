import type { LoadedSettings } from "../settings/files.ts";
import type { Roaming } from "./roaming.ts";

/**
 * The effective settings for `root` (the session cwd's project when omitted), loading the settings module on first
 * use so the extension's startup import graph does not grow. Never throws: a bad file is a problem in the result.
 */
export async function settingsFor(root: string | undefined): Promise<LoadedSettings> {
	const { loadSettings } = await import("../settings/files.ts");
	return loadSettings(root);
}

/** The settings of the session: those of the session cwd's own project. */
export async function sessionSettings(cwd: string, roaming: Roaming): Promise<LoadedSettings> {
	return settingsFor((await roaming.manualRoot(cwd))?.root);
}
