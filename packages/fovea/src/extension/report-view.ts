import type { EntryRenderOptions, Theme } from "@earendil-works/pi-coding-agent";
import { type Component, Text } from "@earendil-works/pi-tui";
import { readReport, type Verdict } from "./command-report.ts";

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
