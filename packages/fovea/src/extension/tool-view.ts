import type { AgentToolResult, Theme, ToolRenderResultOptions } from "@earendil-works/pi-coding-agent";
import { type Component, Text } from "@earendil-works/pi-tui";
import { printable, printableLines } from "../cli/printable.ts";

/** Key lines a collapsed result shows under its summary. */
export const KEY_LINES = 3;

/** What a call header says of each argument, in this order (others are left to the expanded result). */
const ARGUMENT_WORDS: [string, (value: unknown) => string | undefined][] = [
	["query", (v) => (typeof v === "string" ? `"${clip(v, 60)}"` : undefined)],
	["files", (v) => list("files", v)],
	["symbols", (v) => list("symbols", v)],
	["includeUncommitted", (v) => (v === true ? "uncommitted changes" : undefined)],
	["base", (v) => (typeof v === "string" ? `since ${clip(v, 30)}` : undefined)],
	["target", (v) => (typeof v === "string" ? v : undefined)],
	["path", (v) => (typeof v === "string" ? `from ${clip(v, 40)}` : undefined)],
	["kind", (v) => (typeof v === "string" ? `${clip(v, 20)} only` : undefined)],
	["factor", (v) => (typeof v === "number" ? `×${v}` : undefined)],
	["root", (v) => (typeof v === "string" ? `in ${clip(v.replace(/\/+$/, "").split("/").pop() || v, 40)}` : undefined)],
];

/**
 * A tool call's header: the tool's name in words (`fovea focus`) and its main arguments, compact and on one line,
 * where Pi's default shows every argument as `key="value"` and wraps long ones without indentation.
 */
export function callComponent(name: string, args: unknown, theme: Pick<Theme, "fg" | "bold">): Component {
	const given = (typeof args === "object" && args !== null ? args : {}) as Record<string, unknown>;
	const words = ARGUMENT_WORDS.flatMap(([key, say]) => {
		const said = given[key] === undefined ? undefined : say(given[key]);
		return said === undefined ? [] : [printable(said)];
	});
	const title = theme.fg("toolTitle", theme.bold(name.replace(/_/g, " ")));
	return new Text([title, ...words.map((w) => theme.fg("accent", w))].join(theme.fg("muted", " · ")), 0, 0);
}

/**
 * A tool result: ✓ or ✗ with the answer's summary, its key lines (the first items of the answer, or a review's
 * first findings), and the whole answer when expanded. While the tool works: its last progress line.
 */
export function resultComponent(
	result: AgentToolResult<unknown>,
	options: ToolRenderResultOptions,
	theme: Pick<Theme, "fg" | "bold">,
	context: { isError: boolean; keyHint?: (binding: "app.tools.expand", description: string) => string },
): Component {
	const text = printableLines(
		result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n"),
	).trimEnd();
	const lines = text.split("\n");
	if (options.isPartial) return new Text(theme.fg("warning", `… ${lines.at(-1) ?? ""}`), 0, 0);
	if (context.isError) {
		const shown = options.expanded ? lines : lines.slice(0, 1);
		return new Text(shown.map((l, i) => theme.fg("error", i === 0 ? `✗ ${l}` : l)).join("\n"), 0, 0);
	}
	const { summary, key } = answerShape(lines);
	const head = `${theme.fg("success", "✓")} ${theme.fg("text", summary)}`;
	if (options.expanded) return new Text([head, ...lines.map((l) => theme.fg("toolOutput", l))].join("\n"), 0, 0);
	const rest = lines.length - 1 - key.length;
	const hint = context.keyHint?.("app.tools.expand", "to expand") ?? "expand";
	const body = [head, ...key.map((l) => theme.fg("toolOutput", l))];
	if (rest > 0) body.push(theme.fg("muted", `… ${rest} more line${rest === 1 ? "" : "s"} (${hint})`));
	return new Text(body.join("\n"), 0, 0);
}

/**
 * The summary and key lines of an answer. A review (`contour_review`) has a counts line (`1 changed file · 2
 * findings · …`) and numbered findings; a code-map answer (`fovea_*`) has a header whose last part counts what it
 * saw (`132 files, 833 symbols`) and sections of indented items, the first section leading.
 */
export function answerShape(lines: readonly string[]): { summary: string; key: string[] } {
	const counts = lines.find((l) => /^\d+ changed files?\b/.test(l));
	const numbered = lines.filter((l) => /^\d+\. /.test(l));
	if (counts !== undefined) return { summary: counts, key: numbered.slice(0, KEY_LINES) };
	const first = lines[0] ?? "";
	const summary = first.includes(" · ") ? (first.split(" · ").at(-1) ?? first) : first;
	const section = lines.findIndex((l, i) => i > 0 && !l.startsWith(" "));
	const key: string[] = [];
	if (section !== -1) {
		key.push(lines[section] as string);
		for (const l of lines.slice(section + 1)) {
			if (!l.startsWith("  ") || key.length > KEY_LINES) break;
			key.push(l);
		}
	}
	return { summary, key };
}

function clip(text: string, max: number): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function list(what: string, value: unknown): string | undefined {
	if (!Array.isArray(value) || value.length === 0) return undefined;
	const names = value.filter((v): v is string => typeof v === "string");
	const shown = names.slice(0, 2).map((n) => clip(n, 30));
	return `${what} ${shown.join(", ")}${names.length > 2 ? ` +${names.length - 2}` : ""}`;
}
