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
	const raw =
		typeof message.content === "string"
			? message.content
			: Array.isArray(message.content)
				? message.content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("\n")
				: "";
	const lines = printableLines(raw).split("\n");
	const shown = options.expanded ? lines : lines.slice(0, RUN_MESSAGE_PREVIEW_LINES);
	const more = lines.length - shown.length;
	const label = theme.fg(statusColor(status), theme.bold(printableLines(what)));
	const body = [label, ...shown.map((line) => theme.fg("text", line))];
	if (more > 0) body.push(theme.fg("dim", `… ${more} more lines (expand to read them)`));
	return new Text(body.join("\n"), options.outputPad, 0);
}
