import type { ExtensionContext, ExtensionUIContext } from "@earendil-works/pi-coding-agent";
import type { Roaming } from "./roaming.ts";

/**
 * Fovea's footer item while no tool runs: how many roots it keeps a map for (`fovea: 2 roots`), so an idle
 * extension is not invisible. Indexing progress replaces it while a tool indexes (`tool-runs.ts`) and it comes
 * back after.
 */
export function showFoveaStatus(ctx: ExtensionContext, roaming: Roaming): void {
	if (!ctx.hasUI) return;
	const n = roaming.ring()?.size ?? 0;
	const text = n === 0 ? "fovea: no roots yet" : `fovea: ${n} root${n === 1 ? "" : "s"}`;
	ctx.ui.setStatus("fovea", statusColor(ctx, "dim", text));
}

/**
 * `text` in the theme's `color` in Pi's own TUI; the words alone for an RPC client, or a host whose theme is not
 * initialised (reading it throws there).
 */
export function statusColor(
	ctx: { mode: string; ui: ExtensionUIContext },
	color: "dim" | "success" | "warning",
	text: string,
): string {
	if (ctx.mode !== "tui") return text;
	try {
		return ctx.ui.theme.fg(color, text);
	} catch {
		return text;
	}
}
