import { resolve } from "node:path";
import type { ExtensionContext, ToolResultEvent } from "@earendil-works/pi-coding-agent";
import type { Roaming } from "./roaming.ts";
import { settingsFor } from "./settings-access.ts";
import type { FoveaMaps } from "./tools.ts";

/** How long a grep's result may wait for its root's first index before going out with a note instead. */
const GREP_PATIENCE_MS = 2000;

/** What Pi's tool_result handler may return to change a result: the new content. */
type Patch = { content: Array<{ type: "text"; text: string } | { type: "image"; data: string; mimeType: string }> };

/**
 * Hybrid grep: a successful native `grep` for an identifier, a qualified symbol, a repository path or a route keeps
 * its result exactly and gets a short Fovea section appended (`grep-section.ts`), within the
 * `fovea.hybridGrep.maxTokens` budget; the `fovea.hybridGrep.enabled` setting turns it off. A graph error leaves the
 * native result with one line saying so. Calls made inside another tool's execution (Fabric's inner calls) have the
 * same `tool_result` lifecycle and get the same section. The `tool_result` handler that calls this is registered after
 * roaming's, so the grep's project is enrolled; this module loads on the first grep, not at startup.
 */
export async function hybridGrep(
	event: ToolResultEvent,
	ctx: ExtensionContext,
	roaming: Roaming,
	maps: FoveaMaps,
): Promise<Patch | undefined> {
	if (event.toolName !== "grep" || event.isError) return undefined;
	const { grepSubject } = await import("./grep-subject.ts");
	const subject = grepSubject(event.input);
	if (subject === undefined) return undefined;
	const input = event.input as { path?: unknown };
	const searched = resolve(ctx.cwd, typeof input.path === "string" ? input.path : ".");
	const omitted = async () => {
		const scope = await roaming.manualRoot(ctx.cwd);
		// A cwd mapped only when named (the home directory, /tmp) is not indexed for a grep either.
		return scope?.excluded === undefined ? scope?.root : undefined;
	};
	const root = roaming.ring()?.owner(searched) ?? (await omitted());
	if (root === undefined) return undefined;
	const { settings } = await settingsFor(root);
	if (!settings["fovea.hybridGrep.enabled"]) return undefined;
	let section: string | undefined;
	try {
		const [{ grepSection }, registry] = await Promise.all([import("./grep-section.ts"), maps.maps()]);
		// A grep's result waits for a first index of its root at most this long (a large root takes minutes).
		const patience = { patienceMs: GREP_PATIENCE_MS };
		const refresh = ctx.signal === undefined ? patience : { ...patience, signal: ctx.signal };
		section = await grepSection(
			registry.use(root),
			subject,
			{ root, cwd: ctx.cwd },
			settings["fovea.hybridGrep.maxTokens"],
			refresh,
		);
	} catch (error) {
		const { printable } = await import("../cli/printable.ts");
		const reason = error instanceof Error ? error.message : String(error);
		section = printable(
			`[fovea: no code-map section for this grep (${reason.split("\n")[0]}); the result above is grep's alone]`,
		);
	}
	if (section === undefined) return undefined;
	return { content: [...event.content, { type: "text", text: `\n${section}` }] };
}
