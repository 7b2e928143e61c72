// Runs `load-probe.ts` in a child process on extension entries and returns its report: what their import and
// factories did to the file system and to child processes, and what they registered.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** What importing the entries and running their factories did. */
export interface LoadReport {
	fsCalls: string[];
	spawns: string[];
	handlers: string[];
	commands: string[];
	/** The names the entries export. */
	exports: string[];
}

const PROBE = fileURLToPath(new URL("./load-probe.ts", import.meta.url));

/** The load probe's report for `entries` (absolute paths of extension entry modules). */
export function probeLoad(...entries: string[]): LoadReport {
	const output = execFileSync(process.execPath, [PROBE, ...entries], {
		encoding: "utf8",
		env: { ...process.env, NODE_OPTIONS: "" },
	});
	return JSON.parse(output) as LoadReport;
}
