import { join } from "node:path";
import { isRunId } from "./run-id.ts";

/** The folders, one inside the other, where a workspace keeps its runs. */
export const RUNS_PARTS: readonly string[] = [".pi", "crew", "runs"];

/** Where a workspace keeps its runs, relative to the workspace root. */
export const RUNS_SUBDIR = join(...RUNS_PARTS);

/** The files of one run directory. */
export interface RunFiles {
	dir: string;
	manifest: string;
	tasks: string;
	events: string;
}

/** The runs directory of the workspace `root`. */
export function runsDirOf(root: string): string {
	return join(root, RUNS_SUBDIR);
}

/** The files of run `runId` under `runsDir`; refuses anything that is not a run id, so no path can escape. */
export function runFiles(runsDir: string, runId: string): RunFiles {
	if (typeof runId !== "string" || !isRunId(runId)) {
		throw new Error(`not a run id: ${JSON.stringify(runId)} (expected the form 20250131-123456-789-0a1b2c3d)`);
	}
	return filesIn(join(runsDir, runId));
}

/** The run files inside `dir`. */
export function filesIn(dir: string): RunFiles {
	return {
		dir,
		manifest: join(dir, "manifest.json"),
		tasks: join(dir, "tasks.json"),
		events: join(dir, "events.jsonl"),
	};
}
