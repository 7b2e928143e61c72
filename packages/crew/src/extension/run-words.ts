import { printable } from "pi-fovea/printable";

/**
 * Small words for people: short run and agent ids, elapsed and relative times, token counts. Pure: the clock is
 * passed in. A short id is what a person reads and types back (`/team` resolves it), the full id stays in answers
 * to the model and in `--json`.
 */

/** The part of a run id a person reads: its 8 random hex digits (`20250101-000000-000-0000abcd` → `0000abcd`). */
export function shortRunId(runId: string): string {
	const match = /-([0-9a-f]{8})$/.exec(runId);
	return match?.[1] ?? runId;
}

/** An agent id `<runId>:<taskId>` with the run id shortened. */
export function shortAgentId(agentId: string): string {
	const colon = agentId.lastIndexOf(":");
	return colon === -1 ? agentId : `${shortRunId(agentId.slice(0, colon))}:${agentId.slice(colon + 1)}`;
}

export { agoText, durationText } from "pi-fovea/time-words";

/** A token count as `950`, `12.3k`, `1.2M`. */
export function tokenText(tokens: number): string {
	if (tokens < 1000) return String(Math.round(tokens));
	if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(1)}k`;
	return `${(tokens / 1_000_000).toFixed(1)}M`;
}

/**
 * The notification that says a run stopped: done reads as information, failed as an error, interrupted and
 * cancelled as warnings, with what to do next. Printable: the team name comes from a definition file.
 */
export function runEndNotice(
	manifest: { runId: string; team: string; status: string; error?: string },
	tasks: readonly { status: string }[],
): { text: string; type: "info" | "warning" | "error" } {
	const id = shortRunId(manifest.runId);
	const done = tasks.filter((t) => t.status === "done").length;
	const head = `pi-crew: run ${id} (${manifest.team})`;
	const counts = `${done}/${tasks.length} tasks done`;
	switch (manifest.status) {
		case "done":
			return { text: printable(`${head} finished: ${counts}. /team status ${id} shows the results.`), type: "info" };
		case "failed": {
			const why = manifest.error ? `: ${manifest.error.replace(/\s+/g, " ").slice(0, 160)}` : "";
			const text = `${head} failed${why} (${counts}). /team status ${id} shows why; /team retry ${id} tries again.`;
			return { text: printable(text), type: "error" };
		}
		case "interrupted":
			return {
				text: printable(`${head} was interrupted (${counts}). /team resume ${id} continues it.`),
				type: "warning",
			};
		default:
			return { text: printable(`${head} is ${manifest.status} (${counts}).`), type: "warning" };
	}
}

/**
 * What `/team <action>` shows the person where the tool's text speaks to the model: a started run is told with
 * its short id and what happens next, not with the tool calls that follow it. Other answers read the same for both.
 */
export function commandRunText(action: string, result: { text: string; details: Record<string, unknown> }): string {
	const { runId, team, workspaceMode, agents } = result.details;
	if (action !== "run" || typeof runId !== "string" || !Array.isArray(agents)) return result.text;
	const id = shortRunId(runId);
	const tasks = agents.map((agent) => String(agent).slice(String(agent).lastIndexOf(":") + 1));
	return printable(
		`Started run ${id} of team ${String(team)} (${String(workspaceMode)} mode) with tasks ${tasks.join(", ")}. ` +
			`The widget shows its progress and you are told when it ends; /team status ${id} shows the details.`,
	);
}
