import { printable, printableLines } from "pi-fovea/printable";
import { endedProcessesOf, endedProcessesText } from "../runtime/leftover-processes.ts";
import type { LiveAgentHandle } from "../runtime/live-agents.ts";
import type { RunEvent } from "../state/events.ts";
import type { RunManifest } from "../state/manifest.ts";
import type { RunListing, RunSnapshot } from "../state/run-store.ts";
import type { RunTask } from "../state/tasks.ts";
import { runBudgetLine, taskBudgetLine } from "./budget-lines.ts";
import { agoText } from "./run-words.ts";

/**
 * How runs read for people (the `team` tool, `/team`, the `crew` CLI) and for machines (`--json`). Pure: no
 * filesystem, no clock. Goals, results, errors and paths come from models, repositories and hand-edited files, so
 * every line shown is made printable (`pi-fovea/printable`): an escape sequence in them could otherwise retitle the
 * terminal or write its clipboard, and a newline or bidi control could forge or reorder what a person reads.
 */

/**
 * Text of several lines as a person is shown it: line breaks kept (Windows ones made plain), tabs as two spaces
 * (layout in a report), every other control, C1 and bidi character escaped. Applied to whatever pi-crew shows or
 * prints as a whole (tool answers, notifications, run messages, CLI output); escaping twice changes nothing.
 */
export function shownText(text: string): string {
	return printableLines(text.replaceAll("\r\n", "\n").replaceAll("\t", "  "));
}

/** `lines` each made printable (a newline inside one is escaped, so no field forges a line), joined. */
export function shownLines(lines: readonly string[]): string {
	return lines.map(printable).join("\n");
}

/** Cuts `text` to one line of at most `max` characters. */
export function oneLine(text: string, max: number): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

/** `done/total` of a run's tasks. */
export function taskCount(tasks: readonly Pick<RunTask, "status">[]): string {
	return `${tasks.filter((t) => t.status === "done").length}/${tasks.length}`;
}

/**
 * One line per run: id, status, team, tasks done, goal; a damaged run shows its error instead. With `viewer` (the
 * session that lists), a run of another session is marked with its owner, so a forced listing shows which runs
 * force would take over; without it (the CLI sees every session) every line names its session.
 */
export function runListLine(listing: RunListing, viewer?: string): string {
	const { manifest, tasks } = listing;
	if (!manifest || !tasks) return `${listing.runId}  damaged: ${listing.error?.message ?? "unreadable"}`;
	const mode = manifest.workspaceMode === "worktree" ? "  worktree" : "";
	const owner =
		viewer === undefined
			? `  session ${manifest.ownerSessionId}`
			: manifest.ownerSessionId === viewer
				? ""
				: `  [another session: ${manifest.ownerSessionId}, ended; force takes it over]`;
	return `${manifest.runId}  ${manifest.status}  ${manifest.team}  ${taskCount(tasks)} tasks done${mode}  ${oneLine(manifest.goal, 60)}${owner}`;
}

/** The runs of a listing as text; `viewer` as for runListLine. */
export function runListText(
	listings: readonly RunListing[],
	workspace: string,
	scope: string,
	viewer?: string,
): string {
	if (listings.length === 0) return printable(`No runs of ${scope} in workspace ${workspace}.`);
	return shownLines([`Runs of ${scope} in workspace ${workspace}:`, ...listings.map((l) => runListLine(l, viewer))]);
}

function taskLines(task: RunTask, agent: LiveAgentHandle | undefined, roots: readonly string[]): string[] {
	const after = task.dependsOn.length > 0 ? ` after ${task.dependsOn.join(", ")}` : "";
	const lines = [`- ${task.id} (${task.role}, agent ${task.agent})${after}: ${task.status}`];
	if (agent) {
		const tool = agent.currentTool ? `, running ${agent.currentTool}` : "";
		lines.push(`  live agent ${agent.agentId}: ${agent.status}, pid ${agent.pid ?? "-"}${tool}, cwd ${agent.cwd}`);
		if (agent.question) lines.push(`  asks: ${oneLine(agent.question, 300)} (answer with follow-up-agent)`);
	}
	if (roots.length > 0) lines.push(`  roots it accessed: ${roots.join(", ")}`);
	const ended = endedProcessesText(endedProcessesOf(task.meta));
	if (ended !== "") lines.push(`  ${ended}`);
	if (task.error) lines.push(`  error: ${oneLine(task.error, 300)}`);
	if (task.result) lines.push(`  result: ${oneLine(task.result, 400)}`);
	return lines;
}

/** A run's status: manifest, each task with its live agent and result, and the latest events. */
export function runStatusText(
	run: RunSnapshot & { agents?: LiveAgentHandle[]; events?: RunEvent[]; active?: boolean },
	options: {
		rootsOf?: (agentId: string) => readonly string[];
		ownerNote?: string;
		events?: number;
		/** The clock: event times then read as `12 s ago`, else as stored. */
		now?: number;
	} = {},
): string {
	const m = run.manifest;
	const lines = [
		`Run ${m.runId} of team ${m.team}: ${m.status}${run.active ? " (working in this process)" : ""}`,
		`workspace ${m.cwd}, mode ${m.workspaceMode}, session ${m.ownerSessionId}, owner pid ${m.ownerPid}`,
		`goal: ${oneLine(m.goal, 300)}`,
	];
	if (options.ownerNote) lines.push(options.ownerNote);
	if (m.error) lines.push(`error: ${oneLine(m.error, 300)}`);
	const runBudget = runBudgetLine(run, run.agents ?? []);
	if (runBudget) lines.push(runBudget);
	lines.push(`tasks (${taskCount(run.tasks)} done):`);
	for (const task of run.tasks) {
		const agent = run.agents?.find((a) => a.taskId === task.id);
		const roots = agent ? (options.rootsOf?.(agent.agentId) ?? []) : [];
		const [head = "", ...rest] = taskLines(task, agent, roots);
		const budget = taskBudgetLine(run, task, agent);
		lines.push(head, ...(budget ? [budget] : []), ...rest);
	}
	const events = (run.events ?? []).slice(-(options.events ?? 10));
	if (events.length > 0) {
		lines.push("latest events:");
		for (const e of events) lines.push(`  ${eventLine(e, options.now)}`);
	}
	return shownLines(lines);
}

function fieldText(value: unknown): string {
	if (value === null || typeof value !== "object") return String(value);
	return Array.isArray(value) ? value.map(fieldText).join(", ") : oneLine(JSON.stringify(value), 60);
}

/** An event as a person reads it: when (`12 s ago` with a clock), what, for which task, and its fields as `key value`. */
export function eventLine(event: RunEvent, now?: number): string {
	const when = now === undefined ? event.time : agoText(event.time, now);
	const fields = Object.entries(event.data ?? {})
		.filter(([, value]) => value !== undefined && value !== null)
		.map(([key, value]) => `${key} ${fieldText(value)}`)
		.join(", ");
	const what = `${event.type.replaceAll(".", " ")}${event.taskId ? ` ${event.taskId}` : ""}`;
	return oneLine(`${when}: ${what}${fields ? ` (${fields})` : ""}`, 160);
}

/** What a started run tells the model: its id, tasks and the agent ids to steer. */
export function runStartedText(run: RunSnapshot): string {
	const m = run.manifest;
	return shownLines([
		`Started run ${m.runId} of team ${m.team} in workspace ${m.cwd} (${m.workspaceMode} mode).`,
		"Tasks and their agents:",
		...run.tasks.map(
			(t) =>
				`- ${t.id} (agent ${t.agent})${t.dependsOn.length > 0 ? ` after ${t.dependsOn.join(", ")}` : ""}: agent id ${m.runId}:${t.id}`,
		),
		`Follow it with team {action: "status", runId: "${m.runId}"}; steer a working agent with steer-agent.`,
	]);
}

/**
 * A run that ended: its status and each task's result or error, and the processes its agent left running that
 * were ended with it.
 */
export function runEndedText(run: RunSnapshot): string {
	const m = run.manifest;
	const lines = [
		printable(`Run ${m.runId} of team ${m.team} is ${m.status}${m.error ? `: ${oneLine(m.error, 200)}` : ""}.`),
	];
	for (const t of run.tasks) {
		const outcome = t.result ?? t.error ?? "(no report)";
		lines.push(
			printable(`### ${t.id} (${t.status})`),
			shownText(outcome.length > 4000 ? `${outcome.slice(0, 4000)}\n[…]` : outcome),
		);
		const ended = endedProcessesText(endedProcessesOf(t.meta));
		if (ended !== "") lines.push(printable(`(${ended})`));
	}
	return lines.join("\n");
}

/** A listing for machines: every field people see, dates as stored. */
export function runListingJson(listing: RunListing): Record<string, unknown> {
	const { manifest, tasks } = listing;
	if (!manifest || !tasks) return { runId: listing.runId, dir: listing.dir, error: listing.error?.message ?? "" };
	return { ...manifestJson(manifest), tasks: tasks.map((t) => ({ id: t.id, agent: t.agent, status: t.status })) };
}

/** The manifest fields for machines. */
export function manifestJson(m: RunManifest): Record<string, unknown> {
	return {
		runId: m.runId,
		status: m.status,
		team: m.team,
		goal: m.goal,
		workspace: m.cwd,
		workspaceMode: m.workspaceMode,
		ownerSessionId: m.ownerSessionId,
		ownerPid: m.ownerPid,
		createdAt: m.createdAt,
		updatedAt: m.updatedAt,
		...(m.error ? { error: m.error } : {}),
	};
}
