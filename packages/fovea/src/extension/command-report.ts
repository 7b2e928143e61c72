import type { ExtensionCommandContext, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { printable } from "../cli/printable.ts";

/**
 * A report a command gives a person (`/fovea status`, `/contour review`, a recovery notice): a title, lines each
 * with a tone the TUI colours with the theme, and details shown only on request (expanded). Kept as data in the
 * session (an entry), so it is validated again when read back: a session file can be edited by hand.
 */

/** How a line reads: the theme colour it gets in the TUI. */
export type Tone = "text" | "muted" | "accent" | "success" | "warning" | "error";

/** One line of a report. */
export interface ReportLine {
	text: string;
	tone?: Tone;
}

/** What a report says overall: the colour of its title, and the notification type outside the TUI. */
export type Verdict = "info" | "success" | "warning" | "error";

/** A report for a person; `more` holds the details shown when the report is expanded (ids, full paths, counters). */
export interface CommandReport {
	title: string;
	verdict: Verdict;
	lines: ReportLine[];
	more?: ReportLine[];
}

const TONES = new Set<Tone>(["text", "muted", "accent", "success", "warning", "error"]);
const VERDICTS = new Set<Verdict>(["info", "success", "warning", "error"]);

/** A report of plain text: its first line is the title, the rest its lines. */
export function textReport(text: string, verdict: Verdict = "info"): CommandReport {
	const [title = "", ...rest] = text.split("\n");
	return { title, verdict, lines: rest.map((line) => ({ text: line })) };
}

/** The report as plain text (a notification outside the TUI): title, lines, then the details. Printable. */
export function reportText(report: CommandReport): string {
	return [report.title, ...report.lines, ...(report.more ?? [])]
		.map((line) => printable(typeof line === "string" ? line : line.text))
		.join("\n");
}

/** The notification type of a verdict (Pi knows info, warning and error). */
export function notifyType(verdict: Verdict): "info" | "warning" | "error" {
	return verdict === "success" ? "info" : verdict;
}

/** `data` read back from a session entry as a report, printable; `undefined` when it is not one. */
export function readReport(data: unknown): CommandReport | undefined {
	if (typeof data !== "object" || data === null) return undefined;
	const { title, verdict, lines, more } = data as Record<string, unknown>;
	if (typeof title !== "string" || !VERDICTS.has(verdict as Verdict) || !Array.isArray(lines)) return undefined;
	const readLines = (list: unknown[]): ReportLine[] =>
		list.flatMap((line) => {
			if (typeof line !== "object" || line === null) return [];
			const { text, tone } = line as Record<string, unknown>;
			if (typeof text !== "string") return [];
			return [{ text: printable(text), tone: TONES.has(tone as Tone) ? (tone as Tone) : "text" }];
		});
	return {
		title: printable(title),
		verdict: verdict as Verdict,
		lines: readLines(lines),
		...(Array.isArray(more) ? { more: readLines(more) } : {}),
	};
}

/** One `/<command> <name>` action: it returns the report shown to the user (plain text is a report too). */
export interface Subcommand {
	description: string;
	run(args: string, ctx: ExtensionCommandContext): Promise<CommandReport | string> | CommandReport | string;
}

/** Shows a report to a person (`personReports` in `subcommands.ts`). */
export type ShowReport = (ctx: ExtensionContext, report: CommandReport | string, verdict?: Verdict) => Promise<void>;
