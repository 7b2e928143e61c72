import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { printable } from "../cli/printable.ts";
import { loadSettings } from "../settings/files.ts";
import { problemText } from "../settings/parse.ts";
import type { Roaming } from "./roaming.ts";

/** The problems told in the current session (only its id's: a new session tells them again). */
let told: { sessionId: string; texts: Set<string> } | undefined;

/**
 * Tells the user, before a run, of each problem in the settings files (file, key, what is wrong), once per session:
 * a bad file costs only its bad keys, and without this nobody would learn why a setting did not apply. It reads the
 * global file and, when the session cwd lies in an enrolled root, that root's file: no discovery runs in this hook.
 */
export async function tellSettingsProblems(ctx: ExtensionContext, roaming: Roaming): Promise<void> {
	if (!ctx.hasUI) return;
	const sessionId = ctx.sessionManager.getSessionId();
	if (told?.sessionId !== sessionId) told = { sessionId, texts: new Set() };
	const { problems } = await loadSettings(roaming.ring()?.owner(ctx.cwd));
	for (const problem of problems) {
		const text = problemText(problem);
		if (told.texts.has(text)) continue;
		told.texts.add(text);
		ctx.ui.notify(printable(`pi-fovea settings: ${text} (the key is ignored; /fovea settings shows all)`), "error");
	}
}
