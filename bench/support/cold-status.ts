// A cold `fovea status` end to end, as a person runs it: the `fovea` command (`packages/fovea/bin/fovea.js`, the
// bundled CLI when current) in a fresh process on an empty cache directory (no facts, no manifest, no compiled code
// of the bundle), process start and grammar loading included. Wall time is taken around the child; its CPU time
// (user + system of the child and of the Git processes it waited for) from this process's `cutime` and `cstime` in
// `/proc/self/stat`, which count exactly the children waited for meanwhile (Linux only: elsewhere CPU is left out).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One cold run. */
export interface ColdStatusRun {
	wallMs: number;
	/** User + system CPU time of the CLI and the processes it ran; `undefined` without `/proc`. */
	cpuMs: number | undefined;
	/** From the CLI's `--json`: files mapped, and its own work counts. */
	files: number;
	filesParsed: number;
	graphsBuilt: number;
}

/** The CPU time of this process's waited-for children so far, in ms (`undefined` without `/proc`). */
function childrenCpuMs(): number | undefined {
	try {
		const stat = readFileSync("/proc/self/stat", "utf8");
		// Fields after the command's closing parenthesis: state is field 3, cutime and cstime are fields 16 and 17.
		const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
		const ticks = Number(fields[13]) + Number(fields[14]);
		return Number.isFinite(ticks) ? ticks * 10 : undefined; // USER_HZ is 100 on Linux
	} catch {
		return undefined;
	}
}

/** Runs `fovea status --json --root root` once on an empty cache directory. `cli` is the path of `bin/fovea.js`. */
export async function coldStatus(cli: string, root: string): Promise<ColdStatusRun> {
	const cache = mkdtempSync(join(tmpdir(), "fovea-cold-status-"));
	try {
		const env = { ...process.env, FOVEA_CACHE_DIR: cache, XDG_CACHE_HOME: cache };
		const cpuBefore = childrenCpuMs();
		const start = performance.now();
		const out = await new Promise<string>((resolve, reject) => {
			const child = spawn(process.execPath, [cli, "status", "--json", "--root", root], {
				env,
				stdio: ["ignore", "pipe", "inherit"],
			});
			let text = "";
			child.stdout.on("data", (chunk: Buffer) => {
				text += chunk.toString();
			});
			child.on("error", reject);
			child.on("close", (code) => (code === 0 ? resolve(text) : reject(new Error(`fovea status exited ${code}`))));
		});
		const wallMs = Math.round(performance.now() - start);
		const cpuAfter = childrenCpuMs();
		const status = JSON.parse(out) as { files: number; work: { filesParsed: number; graphsBuilt: number } };
		return {
			wallMs,
			cpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
			files: status.files,
			filesParsed: status.work.filesParsed,
			graphsBuilt: status.work.graphsBuilt,
		};
	} finally {
		rmSync(cache, { recursive: true, force: true });
	}
}

/** `runs` cold runs on each root, one after the other, with their medians against `targetMs` (wall). */
export async function coldStatusRows(cli: string, roots: readonly string[], runs: number, targetMs: number) {
	const rows = [];
	for (const root of roots) {
		const list: ColdStatusRun[] = [];
		for (let run = 0; run < runs; run++) list.push(await coldStatus(cli, root));
		const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
		const wallMs = median(list.map((r) => r.wallMs));
		const cpu = list.map((r) => r.cpuMs).filter((ms): ms is number => ms !== undefined);
		rows.push({
			root,
			files: list[0]?.files,
			runs: list,
			wallMsMedian: wallMs,
			cpuMsMedian: cpu.length === 0 ? undefined : median(cpu),
			target: { wallMs: targetMs, met: wallMs <= targetMs },
		});
	}
	return rows;
}
