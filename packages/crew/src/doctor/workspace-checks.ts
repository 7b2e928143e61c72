import { constants } from "node:fs";
import { access, lstat } from "node:fs/promises";
import { dirname } from "node:path";
import { loadDefinitions } from "../definitions/catalog.ts";
import { manifestOwner } from "../state/manifest.ts";
import { isOwnerAlive } from "../state/owner.ts";
import { runsDirOf } from "../state/run-layout.ts";
import { RunStore } from "../state/run-store.ts";
import { listTaskWorktrees } from "../worktree/list.ts";
import { type DoctorFinding, ok, problem } from "./finding.ts";

/** The definitions of the workspace (built-in, user, project): each problem with the file and field at fault. */
export async function definitionChecks(
	root: string,
	env: NodeJS.ProcessEnv,
	agentDir: string,
): Promise<DoctorFinding[]> {
	const catalog = await loadDefinitions({ root, env, agentDir });
	const findings = catalog.problems.map((p) => {
		const fix =
			p.kind === "shadowing" || p.kind === "duplicate"
				? `give the ${p.what} in ${p.file} another name (an earlier definition of ${p.name} wins)`
				: p.kind === "unreadable"
					? `make ${p.file} readable, or remove it`
					: `correct the field named in ${p.file}, or remove the file`;
		return problem("definitions", p.kind === "invalid" || p.kind === "unreadable" ? "error" : "warn", p.message, fix);
	});
	if (findings.length === 0) {
		findings.push(ok("definitions", `${catalog.agents.size} agents and ${catalog.teams.size} teams, no problems`));
	}
	return findings;
}

/**
 * The state folder `<root>/.pi/crew/runs` and the folders above it: real folders (a symbolic link is refused by
 * every read and write of run state), writable by this user, not writable by everyone.
 */
export async function stateChecks(root: string): Promise<DoctorFinding[]> {
	const runs = runsDirOf(root);
	const findings: DoctorFinding[] = [];
	for (const dir of [dirname(dirname(runs)), dirname(runs), runs]) {
		const info = await lstat(dir).catch(() => undefined);
		if (info === undefined) break;
		if (info.isSymbolicLink() || !info.isDirectory()) {
			const what = info.isSymbolicLink() ? "a symbolic link" : "not a folder";
			findings.push(
				problem("state", "error", `${dir} is ${what}; run state is refused there`, `replace ${dir} with a real folder`),
			);
			break;
		}
		if (
			await access(dir, constants.W_OK).then(
				() => false,
				() => true,
			)
		) {
			findings.push(problem("state", "error", `${dir} is not writable by this user`, `chmod u+w ${dir}`));
		}
		if ((info.mode & 0o002) !== 0) {
			const message = `${dir} is writable by every user (mode ${(info.mode & 0o777).toString(8)}), who could plant run state`;
			findings.push(problem("state", "warn", message, `chmod o-w ${dir}`));
		}
	}
	if (findings.length === 0) findings.push(ok("state", `${runs}: real folders, writable by you only`));
	return findings;
}

/**
 * The runs of the workspace: damaged ones (a file that cannot be read), interrupted ones (resumable), and stale
 * ones (marked working, but their coordinator's process is gone).
 */
export async function runChecks(root: string): Promise<DoctorFinding[]> {
	let store: RunStore;
	try {
		store = await RunStore.open(root);
	} catch (error) {
		return [problem("runs", "error", (error as Error).message, "fix the folder the message names (see state)")];
	}
	const findings: DoctorFinding[] = [];
	const listings = await store.listRuns();
	for (const l of listings) {
		const m = l.manifest;
		if (!m || l.error) {
			const fix = `look at the file the message names in ${l.dir} (crew status ${l.runId}); remove the folder if the run is not needed`;
			findings.push(problem("runs", "error", `run ${l.runId} is damaged: ${l.error?.message ?? "unreadable"}`, fix));
		} else if (m.status === "interrupted") {
			const fix = `/team resume ${l.runId} continues it, /team cancel ${l.runId} ends it (--force for another session's)`;
			findings.push(problem("runs", "warn", `run ${l.runId} (${m.team}) is interrupted`, fix));
		} else if ((m.status === "running" || m.status === "pending") && !(await isOwnerAlive(manifestOwner(m)))) {
			const fix = `start Pi in ${root} (session start marks it interrupted), then /team resume ${l.runId} or /team cancel ${l.runId} --force`;
			findings.push(
				problem(
					"runs",
					"warn",
					`run ${l.runId} (${m.team}) says ${m.status}, but its coordinator (pid ${m.ownerPid}) is gone`,
					fix,
				),
			);
		}
	}
	if (findings.length === 0) findings.push(ok("runs", `${listings.length} run(s), none damaged, interrupted or stale`));
	return findings;
}

/** Task worktree registrations under `.worktrees/` whose folder is gone (Git only, hardened; skipped outside Git). */
export async function worktreeChecks(root: string): Promise<DoctorFinding[]> {
	let entries: Awaited<ReturnType<typeof listTaskWorktrees>>;
	try {
		entries = await listTaskWorktrees(root);
	} catch (error) {
		return [ok("worktrees", `not checked: ${(error as Error).message}`)];
	}
	const findings = entries
		.filter((e) => !e.exists || e.prunable)
		.map((e) =>
			problem(
				"worktrees",
				"warn",
				`stale worktree registration ${e.path} (task ${e.taskId} of run ${e.runId}): its folder is gone`,
				`/team cleanup ${e.runId} drops it (its branch ${e.branch ?? "(detached)"} is kept while it has unmerged commits)`,
			),
		);
	if (findings.length === 0) findings.push(ok("worktrees", `${entries.length} task worktree(s), none stale`));
	return findings;
}
