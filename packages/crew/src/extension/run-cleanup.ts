import { relative } from "node:path";
import { printable } from "pi-fovea/printable";
import { manifestOwner } from "../state/manifest.ts";
import { isOwnerAlive } from "../state/owner.ts";
import type { RunListing } from "../state/run-store.ts";
import { type CleanupResult, cleanupTaskWorktree } from "../worktree/cleanup.ts";
import type { GitOptions } from "../worktree/git.ts";
import { ignoredFilesText } from "../worktree/ignored-files.ts";
import { listTaskWorktrees, type TaskWorktreeEntry } from "../worktree/list.ts";

/** What `/team cleanup` and `crew cleanup` do with task worktrees. */
export interface CleanupRequest {
	/** The canonical workspace (in a Git repository). */
	workspace: string;
	/** The runs the caller may clean (its session's; with force also those of ended sessions). */
	runs: readonly RunListing[];
	/** Only this run's worktrees (default: those of finished runs). */
	runId?: string;
	/** Every run id with a directory in the workspace (any session's, damaged ones too). */
	knownRunIds: ReadonlySet<string>;
	/** Also worktrees whose run directory is gone (left by a deleted run). */
	orphans: boolean;
	/** Commit uncommitted work to the task branch, then remove the worktree (the branch stays, with a merge command). */
	commit?: boolean;
	/** Remove worktrees with uncommitted work anyway, discarding it. */
	discard?: boolean;
	/** Remove locked worktrees too. */
	unlock?: boolean;
	/** True while the run is worked on (in this process, or by a live owner); its worktrees are left alone. */
	isActive?: (listing: RunListing) => boolean | Promise<boolean>;
	git?: GitOptions;
}

/** What happened to one worktree. */
export interface CleanupOutcome {
	path: string;
	runId: string;
	taskId: string;
	result?: CleanupResult;
	error?: string;
}

/** Default liveness: a pending or running run whose owner process lives. */
export async function runIsActive(listing: RunListing): Promise<boolean> {
	const m = listing.manifest;
	if (!m || (m.status !== "pending" && m.status !== "running")) return false;
	return isOwnerAlive(manifestOwner(m));
}

/**
 * Cleans up task worktrees without losing work (see `cleanupTaskWorktree`): clean ones are removed, dirty ones kept
 * unless `commit` or `discard`, locked ones refused unless `unlock`. Without `runId`, only runs that are done,
 * failed or cancelled are cleaned (an interrupted run may still be resumed in its worktrees). Each worktree's
 * refusal is reported on its own and does not stop the others.
 */
export async function cleanupRunWorktrees(request: CleanupRequest): Promise<CleanupOutcome[]> {
	const { workspace, runId } = request;
	const byId = new Map(request.runs.map((listing) => [listing.runId, listing]));
	const isActive = request.isActive ?? runIsActive;
	if (runId !== undefined && !byId.has(runId) && (request.knownRunIds.has(runId) || !request.orphans)) {
		throw new Error(
			!request.knownRunIds.has(runId)
				? `No run ${runId} in workspace ${workspace}.`
				: request.orphans
					? `Run ${runId} belongs to another live session of workspace ${workspace}; force only takes over a run whose session has ended.`
					: `Run ${runId} belongs to another session of workspace ${workspace}; pass force to clean it up.`,
		);
	}
	const entries = await listTaskWorktrees(workspace, {
		...request.git,
		...(runId === undefined ? {} : { runId }),
	});
	const chosen: TaskWorktreeEntry[] = [];
	for (const entry of entries) {
		const listing = byId.get(entry.runId);
		if (listing === undefined) {
			if (request.orphans && !request.knownRunIds.has(entry.runId)) chosen.push(entry);
			continue;
		}
		if (listing.manifest === undefined) {
			if (runId !== undefined) {
				throw new Error(
					`Run ${runId} cannot be read (${listing.error?.message ?? "damaged"}); its worktrees were left alone.`,
				);
			}
			continue;
		}
		if (await isActive(listing)) {
			if (runId !== undefined) throw new Error(`Run ${runId} is still working; cancel it before cleaning up.`);
			continue;
		}
		const status = listing.manifest?.status;
		if (runId !== undefined || status === "done" || status === "failed" || status === "cancelled") chosen.push(entry);
	}
	const outcomes: CleanupOutcome[] = [];
	for (const entry of chosen) {
		const base = { path: entry.path, runId: entry.runId, taskId: entry.taskId };
		const unlock = request.unlock === true && entry.locked;
		// Removing a locked worktree is a forced removal, which would take its uncommitted work with it.
		if (unlock && entry.dirty !== false && !request.discard) {
			const what = entry.dirty
				? `uncommitted work in ${entry.dirtyFiles.join(", ")}`
				: "work that could not be checked";
			outcomes.push({
				...base,
				error: `locked, with ${what}; --unlock alone would discard it. Run "git worktree unlock ${entry.path}" and clean up with --commit, or pass --discard`,
			});
			continue;
		}
		try {
			const result = await cleanupTaskWorktree({
				...request.git,
				path: entry.path,
				...(request.commit ? { commitDirty: true } : {}),
				...(request.discard ? { force: true } : {}),
				...(unlock ? { forceLocked: true } : {}),
			});
			outcomes.push({ ...base, result });
		} catch (error) {
			outcomes.push({ ...base, error: (error as Error).message });
		}
	}
	return outcomes;
}

function outcomeLines(outcome: CleanupOutcome, root: string): string[] {
	const where = relative(root, outcome.path) || outcome.path;
	const r = outcome.result;
	if (!r) return [`error ${where}: ${outcome.error ?? "unknown failure"}`];
	const lines: string[] = [];
	if (r.action === "kept") lines.push(`kept ${where}: ${r.reason ?? ""}`);
	else if (r.action === "pruned") lines.push(`pruned ${where}: its folder was gone; the registration was dropped`);
	else lines.push(`removed ${where}`);
	if (r.action === "kept" && r.dirtyFiles.length > 0) lines.push(`  uncommitted: ${r.dirtyFiles.join(", ")}`);
	if (r.ignored.count > 0) {
		lines.push(
			r.action === "kept"
				? `  ignored files the task wrote, kept (--discard deletes them): ${ignoredFilesText(r.ignored)}`
				: `  deleted ignored files: ${ignoredFilesText(r.ignored)}`,
		);
	}
	if (r.committed) {
		lines.push(
			`  committed ${r.committed.files.length} file(s) to ${r.committed.branch} at ${r.committed.commit.slice(0, 12)}; merge with: ${r.committed.mergeCommand}`,
		);
	}
	if (r.discarded.length > 0) lines.push(`  discarded changes to: ${r.discarded.join(", ")}`);
	if (r.branchDeleted) lines.push(`  branch ${r.branch} deleted (all its commits are on another branch)`);
	else if (r.branchKeptReason) lines.push(`  ${r.branchKeptReason}; merge with: ${r.mergeCommand ?? ""}`);
	return lines;
}

/** The outcomes as text, paths relative to the workspace, each line printable (file names are not trusted text). */
export function cleanupText(outcomes: readonly CleanupOutcome[], workspace: string): string {
	if (outcomes.length === 0) return printable(`No task worktrees to clean up in ${workspace}.`);
	return outcomes
		.flatMap((o) => outcomeLines(o, workspace))
		.map(printable)
		.join("\n");
}
