import { readFile } from "node:fs/promises";
import { hostname } from "node:os";

/**
 * The process that owns a run. A pid alone is not an identity: pids are reused, so we also keep a start marker
 * (boot id plus the process's start time from /proc, where the system has one) and the host name.
 */
export interface OwnerProcess {
	pid: number;
	/** `<boot id>:<start time in clock ticks>`, or null where /proc is not available. */
	start: string | null;
	host: string;
}

/** Decides whether a run's owner process still lives; injectable so the runtime can add its own knowledge. */
export type OwnerLiveness = (owner: OwnerProcess) => boolean | Promise<boolean>;

async function readText(path: string): Promise<string | undefined> {
	try {
		return await readFile(path, "utf8");
	} catch {
		return undefined;
	}
}

/**
 * The start marker of `pid`, or null when it cannot be read (no /proc, or the process is gone).
 * Field 22 of /proc/<pid>/stat is the start time; the command name before it may hold spaces and parentheses,
 * so fields are counted from the last ')'.
 */
export async function processStartMarker(pid: number): Promise<string | null> {
	const stat = await readText(`/proc/${pid}/stat`);
	if (stat === undefined) return null;
	const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
	const startTicks = fields[19];
	if (startTicks === undefined || !/^\d+$/.test(startTicks)) return null;
	const bootId = (await readText("/proc/sys/kernel/random/boot_id"))?.trim() ?? "";
	return `${bootId}:${startTicks}`;
}

/** The identity of process `pid` (default: this one) as it is now. */
export async function ownerProcess(pid: number = process.pid): Promise<OwnerProcess> {
	return { pid, start: await processStartMarker(pid), host: hostname() };
}

/**
 * Whether `owner` still runs. An owner on another host cannot be checked from here and counts as alive, so a run
 * on a shared disk is never marked interrupted by a neighbour. A live pid whose start marker differs is a reused
 * pid: the owner is dead. When the marker cannot be read now, the pid's existence decides.
 */
export async function isOwnerAlive(owner: OwnerProcess): Promise<boolean> {
	if (owner.host !== hostname()) return true;
	try {
		process.kill(owner.pid, 0);
	} catch (error) {
		// EPERM: the pid exists but belongs to someone else, which still means it is alive.
		if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
	}
	if (owner.start === null) return true;
	const now = await processStartMarker(owner.pid);
	return now === null || now === owner.start;
}
