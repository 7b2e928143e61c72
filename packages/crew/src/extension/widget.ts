import type { Theme, ThemeColor } from "@earendil-works/pi-coding-agent";
import { type Component, truncateToWidth } from "@earendil-works/pi-tui";
import { printable } from "pi-fovea/printable";
import type { LiveAgentHandle } from "../runtime/live-agents.ts";
import type { RunListing } from "../state/run-store.ts";
import { oneLine, taskCount } from "./run-text.ts";
import { durationText, shortAgentId, shortRunId, tokenText } from "./run-words.ts";

/** The widget key of pi-crew. */
export const WIDGET_KEY = "pi-crew";

/** At most this many lines; the rest is summarized in one more line. */
export const WIDGET_LINE_LIMIT = 12;

/** One piece of a widget line and the theme colour it is shown in. */
export interface WidgetPiece {
	text: string;
	color: ThemeColor;
}

/** The colour of a run, task or agent status: a person scans the widget by colour first. */
export function statusColor(status: string): ThemeColor {
	switch (status) {
		case "done":
			return "success";
		case "failed":
		case "error":
			return "error";
		case "interrupted":
		case "cancelled":
		case "stopped":
			return "warning";
		case "running":
		case "starting":
			return "accent";
		default:
			return "muted";
	}
}

/** What `setWidget` is given: plain lines, a component factory (the TUI), or nothing (cleared). */
export type WidgetContent = string[] | ((tui: unknown, theme: Theme) => Component) | undefined;

/** Options of {@link widgetRows}: the clock for elapsed times, and whether ids are shortened (the TUI). */
export interface WidgetRowOptions {
	now: number;
	shortIds: boolean;
}

const SEP: WidgetPiece = { text: " · ", color: "dim" };

function joined(pieces: readonly (WidgetPiece | undefined)[]): WidgetPiece[] {
	const out: WidgetPiece[] = [];
	for (const piece of pieces) {
		if (piece === undefined || piece.text === "") continue;
		if (out.length > 0) out.push(SEP);
		out.push(piece);
	}
	return out;
}

function runRow(listing: RunListing, options: WidgetRowOptions): WidgetPiece[] | undefined {
	const { manifest, tasks } = listing;
	if (!manifest || !tasks) return undefined;
	const id = options.shortIds ? shortRunId(manifest.runId) : manifest.runId;
	const since = Date.parse(manifest.startedAt ?? manifest.createdAt);
	const hint = manifest.status === "interrupted" ? `/team resume ${id}` : "";
	return joined([
		{ text: `crew ${id}`, color: "accent" },
		{ text: manifest.team, color: "text" },
		{ text: manifest.status, color: statusColor(manifest.status) },
		{ text: `${taskCount(tasks)} done`, color: "muted" },
		Number.isNaN(since) ? undefined : { text: durationText(options.now - since), color: "muted" },
		{ text: hint, color: "warning" },
		// Last, so a narrow terminal cuts the goal and never the status.
		{ text: oneLine(manifest.goal, 400), color: "text" },
	]);
}

/** `/limit` after a spent amount, when the agent's budget limits it. */
function limit(value: number | undefined, format: (n: number) => string = String): string {
	return value === undefined ? "" : `/${format(value)}`;
}

function agentRow(agent: LiveAgentHandle, options: WidgetRowOptions): WidgetPiece[] {
	const since = Date.parse(agent.startedAt);
	const until = agent.endedAt === undefined ? options.now : Date.parse(agent.endedAt);
	const usage = agent.usage;
	const id = options.shortIds ? agent.taskId : `${agent.taskId} · agent ${agent.agentId}`;
	const pieces = joined([
		{ text: id, color: "text" },
		{ text: agent.status, color: statusColor(agent.status) },
		agent.question ? { text: "asks you", color: "warning" } : undefined,
		agent.currentTool && !agent.question ? { text: agent.currentTool, color: "accent" } : undefined,
		Number.isNaN(since) || Number.isNaN(until) ? undefined : { text: durationText(until - since), color: "muted" },
		usage && (usage.turns > 0 || agent.budget?.turns)
			? { text: `${usage.turns}${limit(agent.budget?.turns)} turn${usage.turns === 1 ? "" : "s"}`, color: "muted" }
			: undefined,
		usage && (usage.totalTokens > 0 || agent.budget?.tokens)
			? { text: `${tokenText(usage.totalTokens)}${limit(agent.budget?.tokens, tokenText)} tok`, color: "muted" }
			: undefined,
		agent.budget?.toolCalls
			? { text: `${usage?.toolCalls ?? 0}/${agent.budget.toolCalls} tools`, color: "muted" }
			: undefined,
		agent.budget?.cost
			? { text: `$${(usage?.cost ?? 0).toFixed(2)}/$${agent.budget.cost.toFixed(2)}`, color: "muted" }
			: undefined,
	]);
	return [{ text: "  ", color: "dim" }, ...pieces];
}

/**
 * The widget's rows: one per unfinished run of this workspace and session, and under it one per active agent of
 * that run, each piece made printable (a goal or tool name is not trusted text). Undefined when there is nothing
 * to show (the widget is then cleared). Bounded by {@link WIDGET_LINE_LIMIT}.
 */
export function widgetRows(
	runs: readonly RunListing[],
	agents: readonly LiveAgentHandle[],
	options: WidgetRowOptions,
): WidgetPiece[][] | undefined {
	const rows: WidgetPiece[][] = [];
	const shown = new Set<string>();
	for (const listing of runs) {
		const row = runRow(listing, options);
		if (row === undefined) continue;
		rows.push(row);
		for (const agent of agents.filter((a) => a.runId === listing.runId)) {
			rows.push(agentRow(agent, options));
			shown.add(agent.agentId);
		}
	}
	for (const agent of agents) {
		if (shown.has(agent.agentId)) continue;
		const row = agentRow(agent, options);
		const run = options.shortIds ? shortAgentId(agent.agentId) : agent.agentId;
		rows.push(options.shortIds ? [...row, SEP, { text: run, color: "muted" }] : row);
	}
	if (rows.length === 0) return undefined;
	const safe = rows.map((row) => row.map((piece) => ({ ...piece, text: printable(piece.text) })));
	if (safe.length <= WIDGET_LINE_LIMIT) return safe;
	const more = `… ${safe.length - WIDGET_LINE_LIMIT + 1} more lines: /team list`;
	return [...safe.slice(0, WIDGET_LINE_LIMIT - 1), [{ text: more, color: "muted" }]];
}

/** Rows as plain lines (RPC clients get string widgets only). */
export function plainLines(rows: readonly WidgetPiece[][]): string[] {
	return rows.map((row) => row.map((piece) => piece.text).join(""));
}

/** Rows as the TUI shows them: coloured with `fg` and cut to `width` columns, never wider. */
export function styledLines(
	rows: readonly WidgetPiece[][],
	width: number,
	fg: (color: ThemeColor, text: string) => string,
): string[] {
	return rows.map((row) =>
		truncateToWidth(row.map((piece) => fg(piece.color, piece.text)).join(""), Math.max(1, width)),
	);
}

/**
 * The widget for `ui`: in the TUI a component that colours the rows with the theme and fits them to the
 * terminal's width at every render (elapsed times are read then); elsewhere (RPC) plain lines with full ids.
 */
export function widgetContent(
	mode: string,
	rowsAt: (options: WidgetRowOptions) => WidgetPiece[][] | undefined,
): WidgetContent {
	if (mode !== "tui") {
		const rows = rowsAt({ now: Date.now(), shortIds: false });
		return rows === undefined ? undefined : plainLines(rows);
	}
	if (rowsAt({ now: Date.now(), shortIds: true }) === undefined) return undefined;
	return (_tui, theme) => ({
		render: (width: number) =>
			styledLines(rowsAt({ now: Date.now(), shortIds: true }) ?? [], width, (c, t) => theme.fg(c, t)),
		invalidate: () => {},
	});
}
