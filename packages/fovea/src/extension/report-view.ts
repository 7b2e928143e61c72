import type { EntryRenderOptions, Theme } from "@earendil-works/pi-coding-agent";
import { type Component, Text } from "@earendil-works/pi-tui";
import { readReport, textReport, type Verdict } from "./command-report.ts";

/** The theme colour of a report's title per verdict. */
const TITLE_COLOR: Record<Verdict, "accent" | "success" | "warning" | "error"> = {
	info: "accent",
	success: "success",
	warning: "warning",
	error: "error",
};

/**
 * How a report entry reads in Pi's chat: a bold title coloured by its verdict, its lines coloured by tone, and a
 * hint that details exist until it is expanded. Loaded on demand: Pi's TUI package stays off the startup path.
 */
export function reportComponent(
	data: unknown,
	options: Pick<EntryRenderOptions, "expanded"> & Partial<Pick<EntryRenderOptions, "keyHint">>,
	theme: Pick<Theme, "fg" | "bold">,
): Component | undefined {
	const report = readReport(data);
	if (report === undefined) return undefined;
	const body = [theme.fg(TITLE_COLOR[report.verdict], theme.bold(report.title))];
	const line = (l: { text: string; tone?: string }) => theme.fg((l.tone ?? "text") as "text", l.text);
	body.push(...report.lines.map(line));
	const more = report.more ?? [];
	if (options.expanded) body.push(...more.map(line));
	else if (more.length > 0) {
		const hint = options.keyHint?.("app.tools.expand", "for details") ?? "expand for details";
		body.push(theme.fg("dim", `… ${more.length} more line${more.length === 1 ? "" : "s"} (${hint})`));
	}
	return new Text(body.join("\n"), 1, 0);
}

/** Lines of a custom message shown until it is expanded. */
export const MESSAGE_PREVIEW_LINES = 8;

/**
 * A custom message of the extension (Fovea's drift message, `fovea-sync`) drawn like a report: its first line as the
 * title, then its lines, those past {@link MESSAGE_PREVIEW_LINES} shown when expanded. Escaped again here: a session
 * file can be edited by hand.
 */
export function messageComponent(
	content: unknown,
	options: Pick<EntryRenderOptions, "expanded"> & Partial<Pick<EntryRenderOptions, "keyHint">>,
	theme: Pick<Theme, "fg" | "bold">,
): Component | undefined {
	const text =
		typeof content === "string"
			? content
			: Array.isArray(content)
				? content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("\n")
				: "";
	const report = textReport(text.trimEnd());
	return reportComponent(
		{ ...report, lines: report.lines.slice(0, MESSAGE_PREVIEW_LINES), more: report.lines.slice(MESSAGE_PREVIEW_LINES) },
		options,
		theme,
	);
}
