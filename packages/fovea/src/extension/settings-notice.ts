import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { Roaming } from "./roaming.ts";
import { sessionSettings } from "./settings-access.ts";

/**
 * Tells the user, before a run, of each problem in the settings files (file, key, what is wrong), once per session:
 * a bad file costs only its bad keys, and without this nobody would learn why a setting did not apply.
 */
export function noticeSettingsProblems(pi: ExtensionAPI, roaming: Roaming): void {
	let told = new Set<string>();
	pi.on("session_start", () => {
		told = new Set();
	});
	pi.on("before_agent_start", async (_event, ctx) => {
		if (!ctx.hasUI) return;
		const { problems } = await sessionSettings(ctx.cwd, roaming);
		const { problemText } = await import("../settings/parse.ts");
		const { printable } = await import("../cli/printable.ts");
		for (const problem of problems) {
			const text = problemText(problem);
			if (told.has(text)) continue;
			told.add(text);
			ctx.ui.notify(printable(`pi-fovea settings: ${text} (the key is ignored; /fovea settings shows all)`), "error");
		}
	});
}
