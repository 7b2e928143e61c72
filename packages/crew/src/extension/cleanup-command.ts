import type { CrewSession } from "./crew-session.ts";
import { cleanupRunWorktrees, cleanupText } from "./run-cleanup.ts";

/**
 * `/team cleanup [runId] [--commit|--discard] [--unlock] [--force]`: the task worktrees of this session's finished
 * runs (or of the named run) are removed when clean; uncommitted work is kept and reported, committed to the task
 * branch with `--commit`, or thrown away only with `--discard`; ignored files the task wrote keep their worktree
 * too, named, until `--discard`. `--force` reaches the runs of ended sessions of this workspace (never a live
 * session's) and worktrees whose run is gone. `command` is the parsed command line (`parseTeamCommand` of
 * `team-command.ts`, which loads this module when the subcommand is `cleanup`).
 */
export async function cleanupCommand(
	session: CrewSession,
	command: { words: readonly string[]; flags: ReadonlySet<string> },
): Promise<string> {
	const { flags, words } = command;
	const force = flags.has("--force");
	const { workspace } = session.identity;
	const runs = await session.runtime.list(session.scope(force));
	// Every run directory, a live session's too: its worktrees are never taken for a deleted run's.
	const knownRunIds = await session.runtime.runIds(session.scope());
	const outcomes = await cleanupRunWorktrees({
		workspace,
		runs,
		knownRunIds,
		...(words[0] === undefined ? {} : { runId: words[0] }),
		orphans: force,
		commit: flags.has("--commit"),
		discard: flags.has("--discard"),
		unlock: flags.has("--unlock"),
	});
	await session.repaint();
	return cleanupText(outcomes, workspace);
}
