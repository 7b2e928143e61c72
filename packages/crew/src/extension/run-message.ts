import type { Theme } from "@earendil-works/pi-coding-agent";
import { type Component, Text } from "@earendil-works/pi-tui";
import { printableLines } from "pi-fovea/printable";
import { shortRunId } from "./run-words.ts";
import { statusColor } from "./widget.ts";

/** How many lines of a run's result the chat shows until the message is expanded. */
export const RUN_MESSAGE_PREVIEW_LINES = 8;

/**
 * How a `pi-crew-run` message (a run this session started has stopped) reads in the chat: a label coloured by the
 * run's status with its short id, then the results, cut to a few lines until expanded. The content is escaped
 * again here: a session file can be edited by hand.
 */
export function runMessageComponent(
	message: { content: unknown; details?: unknown },
	options: { expanded: boolean; outputPad: number },
	theme: Pick<Theme, "fg" | "bold">,
): Component {
	const details = (message.details ?? {}) as { runs?: unknown };
	const runs = (Array.isArray(details.runs) ? details.runs : []) as { runId?: unknown; status?: unknown }[];
	const ids = runs.map((r) => (typeof r.runId === "string" ? shortRunId(r.runId) : "?"));
	const statuses = runs.map((r) => (typeof r.status === "string" ? r.status : "ended"));
	// The worst state leads: a failure among finished runs must not read as success.
	const status = ["failed", "interrupted", "cancelled", "done"].find((s) => statuses.includes(s)) ?? "ended";
	const what =
		runs.length === 1
			? `crew run ${ids[0]} ${statuses[0]}`
			: `crew runs ${ids.map((id, i) => `${id} ${statuses[i]}`).join(", ")}`;
	return crewMessageBody(what, statusColor(status), message.content, options, theme);
}

/**
 * How a `pi-crew-question` message (an agent asks its coordinator) reads in the chat, in the same style as a run's
 * end: a label naming the agent's task and short run id, then the question and how to answer it.
 */
export function questionMessageComponent(
	message: { content: unknown; details?: unknown },
	options: { expanded: boolean; outputPad: number },
	theme: Pick<Theme, "fg" | "bold">,
): Component {
	const details = (message.details ?? {}) as { runId?: unknown; taskId?: unknown };
	const run = typeof details.runId === "string" ? shortRunId(details.runId) : "?";
	const task = typeof details.taskId === "string" ? details.taskId : "?";
	return crewMessageBody(`crew agent ${task} (run ${run}) asks`, "accent", message.content, options, theme);
}

/** A crew message: its label in `color`, then its text, cut to a few lines until expanded; all of it made printable. */
function crewMessageBody(
	what: string,
	color: ReturnType<typeof statusColor>,
	content: unknown,
	options: { expanded: boolean; outputPad: number },
	theme: Pick<Theme, "fg" | "bold">,
): Component {
	const raw =
		typeof content === "string"
			? content
			: Array.isArray(content)
				? content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("\n")
				: "";
	const lines = printableLines(raw).split("\n");
	const shown = options.expanded ? lines : lines.slice(0, RUN_MESSAGE_PREVIEW_LINES);
	const more = lines.length - shown.length;
	const label = theme.fg(color, theme.bold(printableLines(what)));
	const body = [label, ...shown.map((line) => theme.fg("text", line))];
	if (more > 0) body.push(theme.fg("dim", `… ${more} more lines (expand to read them)`));
	return new Text(body.join("\n"), options.outputPad, 0);
}
