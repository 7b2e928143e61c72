import { readdir, readFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * How long one read of a /proc file may take. Reading another process's `environ` or `cmdline` takes that
 * process's memory lock, and a process stuck in the kernel holding it can block the read for as long as it is
 * stuck: such a process counts as unreadable rather than hanging the sweep that looked at it.
 */
const PROC_READ_MS = 1000;

/**
 * How many /proc reads run at once. A sweep reads every process's `stat` or `environ`; started all together, most
 * would wait in libuv's thread pool (four threads) behind the others, and on a busy machine the ones at the back ran
 * out of PROC_READ_MS before they began, so live processes were skipped as unreadable. The time limit starts when a
 * read does.
 */
const PROC_READS_AT_ONCE = 4;
let procReadsRunning = 0;
const procReadsWaiting: (() => void)[] = [];

async function procReadSlot(): Promise<() => void> {
	if (procReadsRunning >= PROC_READS_AT_ONCE) await new Promise<void>((resolve) => procReadsWaiting.push(resolve));
	procReadsRunning++;
	return () => {
		procReadsRunning--;
		procReadsWaiting.shift()?.();
	};
}

/** The text of `/proc/<pid>/<file>`, or undefined when it cannot be read (gone, another user's, too slow). */
export async function readProcFile(pid: number | string, file: string): Promise<string | undefined> {
	const release = await procReadSlot();
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<undefined>((resolve) => {
		timer = setTimeout(() => resolve(undefined), PROC_READ_MS);
		timer.unref();
	});
	const read = readFile(`/proc/${pid}/${file}`, "utf8").catch(() => undefined);
	try {
		return await Promise.race([read, late]);
	} finally {
		clearTimeout(timer);
		release();
	}
}

/** The pids /proc lists now, as its entry names; none where there is no /proc. */
async function procPids(): Promise<string[]> {
	const names = await readdir("/proc").catch(() => []);
	return names.filter((name) => /^\d+$/.test(name));
}

/** pid → parent pid of every process visible in /proc; empty where there is no /proc. */
async function parentPids(): Promise<Map<number, number>> {
	const parents = new Map<number, number>();
	await Promise.all(
		(await procPids()).map(async (name) => {
			const stat = await readProcFile(name, "stat");
			// Undefined: the process ended while we looked. The command name may hold spaces and parentheses;
			// fields are counted from the last ')'.
			if (stat === undefined) return;
			const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
			if (Number.isInteger(ppid)) parents.set(Number(name), ppid);
		}),
	);
	return parents;
}

/** Every descendant of `pid` (children, grandchildren, …) as /proc shows them now. */
export async function descendantPids(pid: number): Promise<number[]> {
	const children = new Map<number, number[]>();
	for (const [child, parent] of await parentPids()) {
		const list = children.get(parent) ?? [];
		list.push(child);
		children.set(parent, list);
	}
	const found: number[] = [];
	const queue = [pid];
	for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
		for (const child of children.get(next) ?? []) {
			if (found.includes(child)) continue;
			found.push(child);
			queue.push(child);
		}
	}
	return found;
}

/**
 * True while `pid` runs; a zombie (exited, not yet reaped) counts as gone. /proc is read before `kill(pid, 0)`:
 * the other order calls a zombie reaped between the two steps running (its /proc entry is gone, so it cannot be
 * read as a zombie), one way a killed tree could still look alive.
 */
export async function isProcessRunning(pid: number): Promise<boolean> {
	const stat = await readProcFile(pid, "stat");
	// Undefined: gone, or no /proc on this system; the signal check decides.
	if (stat !== undefined) return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

/**
 * The processes (of those this user may inspect) whose environment holds every one of `entries` (`NAME=value`).
 * Children inherit their parent's environment, so this finds what an agent started even after it was re-parented
 * away from the agent (a command started with `setsid … &`, or one its agent left behind when it exited).
 */
export async function processesWithEnvironment(entries: readonly string[]): Promise<number[]> {
	const found = await Promise.all(
		(await procPids()).map(async (name) => {
			const environ = (await readProcFile(name, "environ")) ?? "";
			const vars = new Set(environ.split("\0"));
			return entries.every((entry) => vars.has(entry)) ? Number(name) : undefined;
		}),
	);
	return found.filter((pid) => pid !== undefined);
}

function signal(pid: number, name: NodeJS.Signals): void {
	try {
		process.kill(pid, name);
	} catch {
		// Already gone, or never ours: nothing to end.
	}
}

/** Options for `killProcessTree`. */
export interface KillTreeOptions {
	/** How long SIGTERM gets before SIGKILL. Default 2000 ms. */
	graceMs?: number;
	/** True when `pid` leads its own process group (spawned detached), so the whole group is signalled too. */
	group?: boolean;
}

/**
 * Ends `pid` and every process below it: SIGTERM to all of them (and to the group when `group`), then SIGKILL to
 * whatever still runs after the grace period, and returns once they are gone (or {@link KILL_WAIT_MS} after
 * SIGKILL). Descendants are collected before the first signal because an orphan is re-parented and could no longer
 * be found; tools such as Pi's `bash` start their commands in process groups of their own, so signalling the group
 * alone would leave them running.
 */
export async function killProcessTree(pid: number, options: KillTreeOptions = {}): Promise<void> {
	const graceMs = options.graceMs ?? 2000;
	const tree = new Set([pid, ...(await descendantPids(pid))]);
	if (options.group) signal(-pid, "SIGTERM");
	for (const member of tree) signal(member, "SIGTERM");
	const deadline = Date.now() + graceMs;
	for (;;) {
		const alive = await stillRunning(tree);
		if (alive.length === 0) return;
		if (Date.now() >= deadline) break;
		// Children started during the grace period are ended as well.
		for (const member of alive) for (const child of await descendantPids(member)) tree.add(child);
		await sleep(50);
	}
	for (const member of tree) for (const child of await descendantPids(member)) tree.add(child);
	if (options.group) signal(-pid, "SIGKILL");
	for (const member of tree) signal(member, "SIGKILL");
	// SIGKILL is delivered, and the process torn down, after `kill` returns: on a loaded machine a check right after
	// found a killed agent still running. Wait (briefly) until the tree is really gone.
	const killed = Date.now() + KILL_WAIT_MS;
	while (Date.now() < killed && (await stillRunning(tree)).length > 0) await sleep(20);
}

/** The members of `tree` still running. */
async function stillRunning(tree: ReadonlySet<number>): Promise<number[]> {
	const alive: number[] = [];
	for (const member of tree) if (await isProcessRunning(member)) alive.push(member);
	return alive;
}

/** How long `killProcessTree` waits for SIGKILLed processes to be gone before it returns anyway. */
const KILL_WAIT_MS = 2000;
