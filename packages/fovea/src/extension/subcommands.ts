import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { ShowReport, Subcommand } from "./command-report.ts";

export type { CommandReport, ReportLine, ShowReport, Subcommand } from "./command-report.ts";

/**
 * Reports for a person: in Pi's TUI an entry `<source>-report` with its renderer (it stays in the chat, never reaches
 * the model, and one given at session start is drawn after the restored chat), else a notification. Custom
 * `messages` types get the same view.
 */
export function personReports(pi: ExtensionAPI, source: string, messages: string[] = []): ShowReport {
	let view: typeof import("./report-view.ts") | undefined;
	const load = async () => {
		view ??= await import("./report-view.ts");
	};
	const type = `${source}-report`;
	pi.registerEntryRenderer(type, (entry, o, t) => view?.reportComponent(entry.data, o, t));
	for (const m of messages)
		pi.registerMessageRenderer(m, (msg, o, theme) => view?.messageComponent(msg.content, o, theme));
	// Restored entries are drawn right after session start.
	pi.on("session_start", (_event, ctx) => (ctx.mode === "tui" ? load().catch(() => {}) : undefined));
	return async (ctx, report, verdict) =>
		(await import("./report-show.ts")).showReport(ctx, report, verdict, {
			type,
			load,
			append: (t, data) => pi.appendEntry(t, data),
		});
}

/** Registers `/<name> <subcommand> [args]` with completion; its reports are {@link personReports}. */
export function registerSubcommands(
	pi: ExtensionAPI,
	name: string,
	description: string,
	subcommands: Record<string, Subcommand>,
	fallback: string,
	after?: (ctx: ExtensionContext) => void,
	messages?: string[],
): void {
	const show = personReports(pi, name, messages);
	pi.registerCommand(name, {
		description: `${description} (${Object.keys(subcommands).join("|")})`,
		getArgumentCompletions: async (prefix) =>
			(await import("./subcommand-run.ts")).subcommandCompletions(subcommands, prefix),
		handler: async (args, ctx) => {
			await (await import("./subcommand-run.ts")).runSubcommand(name, subcommands, fallback, args, ctx, show);
			after?.(ctx);
		},
	});
}
