import { printable } from "pi-fovea/printable";
import type { RunMeta } from "../state/manifest.ts";
import { isProcessRunning, killProcessTree, processesWithEnvironment, readProcFile } from "./process-tree.ts";

/**
 * The processes an agent leaves behind. Every process an agent starts inherits the identity `agentEnv` gives it
 * (`PI_CREW_WORKSPACE`, `PI_CREW_RUN_ID`, `PI_CREW_TASK_ID`), also one it detached (`setsid … &`, `nohup … &`) or
 * one its killed agent left orphaned, so the environment finds them where the process tree no longer does. They
 * are ended when the agent ends (done, failed, stopped, cancelled, shut down) and when a new session recovers a
 * run whose coordinator died, so nothing of a finished run keeps changing the workspace.
 */

/** Whose processes: an agent's workspace and run, and its task (without one: every task of the run). */
export interface AgentProcessIds {
	workspace: string;
	runId: string;
	taskId?: string;
}

/** A process that carried an agent's identity after the agent was gone, and was ended. */
export interface EndedProcess {
	pid: number;
	/** Its command line as it was, control characters escaped (it is shown to people). */
	command: string;
}

/** Longest command line kept for a report. */
const COMMAND_CHARS = 200;

/** Sweeps at most this many times: a process forked while the previous sweep ended its parent is found by the next. */
const SWEEPS = 3;

/**
 * The processes whose environment carries `ids` (all of them), never this process or its parent: a coordinator
 * that is itself an agent carries its own run's identity, and must not end itself.
 */
export async function agentProcesses(ids: AgentProcessIds): Promise<number[]> {
	const entries = [`PI_CREW_WORKSPACE=${ids.workspace}`, `PI_CREW_RUN_ID=${ids.runId}`];
	if (ids.taskId !== undefined) entries.push(`PI_CREW_TASK_ID=${ids.taskId}`);
	const own = new Set([process.pid, process.ppid]);
	return (await processesWithEnvironment(entries)).filter((pid) => !own.has(pid));
}

/** `pid`'s command line, one line, cut short, control characters escaped; `?` when it cannot be read. */
async function commandOf(pid: number): Promise<string> {
	const raw = (await readProcFile(pid, "cmdline")) ?? "";
	const line = raw.replaceAll("\0", " ").trim();
	if (line === "") return "?";
	return printable(line.length <= COMMAND_CHARS ? line : `${line.slice(0, COMMAND_CHARS - 1)}…`);
}

/**
 * Ends every process that carries `ids` (SIGTERM, then SIGKILL after `graceMs`, each with the processes below it)
 * and returns those that were running, by pid, with their command lines read before the first signal. Call it once
 * the agent is gone: what still carries its identity then was left behind. A process /proc cannot read is skipped,
 * never waited for.
 */
export async function endAgentProcesses(ids: AgentProcessIds, graceMs?: number): Promise<EndedProcess[]> {
	const ended = new Map<number, EndedProcess>();
	for (let sweep = 0; sweep < SWEEPS; sweep++) {
		const found = (await agentProcesses(ids)).filter((pid) => !ended.has(pid));
		if (found.length === 0) break;
		const running: EndedProcess[] = [];
		await Promise.all(
			found.map(async (pid) => {
				const command = await commandOf(pid);
				// A zombie, or a process ended with an earlier one's tree, is not reported.
				if (await isProcessRunning(pid)) running.push({ pid, command });
			}),
		);
		for (const p of running) ended.set(p.pid, p);
		await Promise.all(running.map((p) => killProcessTree(p.pid, graceMs === undefined ? {} : { graceMs })));
	}
	return [...ended.values()].sort((a, b) => a.pid - b.pid);
}

/** The processes a task's meta records as ended (`meta.endedProcesses`, read from disk, so checked); [] if none. */
export function endedProcessesOf(meta: RunMeta | undefined): EndedProcess[] {
	const list = meta?.endedProcesses;
	if (!Array.isArray(list)) return [];
	return list.flatMap((item: unknown) => {
		const p = item as Partial<Record<keyof EndedProcess, unknown>> | null;
		if (p === null || typeof p !== "object" || !Number.isInteger(p.pid) || typeof p.command !== "string") return [];
		return [{ pid: p.pid as number, command: p.command }];
	});
}

/** How many processes a report names before it only counts the rest. */
const LISTED = 10;

/**
 * What was ended, for people: how many processes, which commands (escaped again: the list may come from a file),
 * and `by` whom they were left. Empty when nothing was ended.
 */
export function endedProcessesText(ended: readonly EndedProcess[], by = "its agent"): string {
	if (ended.length === 0) return "";
	const listed = ended.slice(0, LISTED).map((p) => `pid ${p.pid} \`${printable(p.command)}\``);
	const more = ended.length > LISTED ? ` and ${ended.length - LISTED} more` : "";
	const noun = ended.length === 1 ? "process" : "processes";
	return `Ended ${ended.length} ${noun} left running by ${by}: ${listed.join(", ")}${more}`;
}
