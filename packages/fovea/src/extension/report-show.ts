import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { type CommandReport, notifyType, reportText, textReport, type Verdict } from "./command-report.ts";

/** Where reports go in the TUI: the entry type, how its renderer loads, and how an entry is appended. */
export interface ReportSink {
	type: string;
	load(): Promise<void>;
	append(type: string, data: CommandReport): void;
}

/**
 * Shows `shown` to a person: in Pi's TUI as a session entry (once its renderer is loaded: an entry Pi cannot draw
 * would not be shown at all), elsewhere as a notification of the report's text. Loaded on the first report.
 */
export async function showReport(
	ctx: ExtensionContext,
	shown: CommandReport | string,
	verdict: Verdict | undefined,
	sink: ReportSink,
): Promise<void> {
	const report = typeof shown === "string" ? textReport(shown, verdict) : shown;
	const drawn = ctx.mode === "tui" && (await rendererLoads(sink));
	if (drawn) sink.append(sink.type, report);
	else ctx.ui.notify(reportText(report), notifyType(report.verdict));
}

/** Whether the renderer loaded: an entry Pi cannot draw would not show at all. */
async function rendererLoads(sink: ReportSink): Promise<boolean> {
	try {
		await sink.load();
		return true;
	} catch {
		return false;
	}
}
