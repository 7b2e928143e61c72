import { resolveAgentDir } from "../definitions/locations.ts";
import type { DoctorFinding } from "./finding.ts";
import { toolChecks } from "./tool-checks.ts";
import { definitionChecks, runChecks, stateChecks, worktreeChecks } from "./workspace-checks.ts";

/** What a doctor run needs: the workspace (canonical project root), the environment, Pi's agent directory. */
export interface DoctorInput {
	root: string;
	env: NodeJS.ProcessEnv;
	agentDir?: string;
}

/**
 * Everything `/team doctor` and `crew doctor` check, in order: the programs sub-agents need, the definitions, the
 * state folder, the runs and the task worktrees. Reads files and runs `--version` of installed programs and the
 * hardened Git that lists worktrees; it never runs a program a repository configures and changes nothing.
 */
export async function runDoctor(input: DoctorInput): Promise<DoctorFinding[]> {
	const agentDir = input.agentDir ?? resolveAgentDir(input.env);
	const parts = await Promise.all([
		toolChecks(input.env, agentDir),
		definitionChecks(input.root, input.env, agentDir),
		stateChecks(input.root),
		runChecks(input.root),
		worktreeChecks(input.root),
	]);
	return parts.flat();
}
