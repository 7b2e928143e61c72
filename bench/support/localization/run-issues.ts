// Issue-text localization on one repository: each sampled issue at its base commit's tree, Fovea's `focus` with the
// issue text as the query against BM25 over the same files with the same text. The tree is the base commit's, which
// the fix and everything after it are not part of.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git } from "../git.ts";
import { type CaseDetail, type CorpusResult, countSkip, roundedTiming } from "./corpus-result.ts";
import type { IssueInstance } from "./issue-instances.ts";
import { focusAgainstBm25 } from "./text-case.ts";
import { TreeStates } from "./tree-states.ts";

/** Runs the sampled `instances` of one repository at `repoPath`. */
export async function runIssues(
	repo: string,
	repoPath: string,
	group: string,
	instances: readonly IssueInstance[],
): Promise<CorpusResult> {
	const started = performance.now();
	const skipped: Record<string, number> = {};
	const cases: CaseDetail[] = [];
	const timing = { focusMs: 0, bm25Ms: 0 };
	const workDir = mkdtempSync(join(tmpdir(), "fovea-localization-"));
	const states = new TreeStates(repoPath, workDir);
	try {
		// In commit-time order, so each tree is written as an update of the one before (see `TreeStates`).
		const dated: { instance: IssueInstance; time: number }[] = [];
		for (const instance of instances) {
			const time = await commitTime(repoPath, instance.baseCommit);
			if (time === undefined) countSkip(skipped, "base-commit-missing");
			else dated.push({ instance, time });
		}
		dated.sort((a, b) => a.time - b.time || (a.instance.id < b.instance.id ? -1 : 1));
		for (const { instance } of dated) {
			const state = await states.at(instance.baseCommit);
			const label = instance.query.split("\n", 1)[0]?.slice(0, 160) ?? "";
			const scored = await focusAgainstBm25(
				state,
				{ id: instance.id, text: instance.query, label, gold: instance.gold },
				timing,
			);
			if (typeof scored === "string") countSkip(skipped, scored);
			else cases.push(scored);
		}
	} finally {
		states.close();
		rmSync(workDir, { recursive: true, force: true });
	}
	return {
		task: "issues",
		repo,
		group,
		cases,
		skipped,
		seconds: Math.round((performance.now() - started) / 100) / 10,
		timingMs: roundedTiming({ ...states.timing, ...timing }),
	};
}

/** The committer time of `commit`, or undefined when the repository lacks it (a mirror may predate it). */
async function commitTime(repo: string, commit: string): Promise<number | undefined> {
	try {
		const time = Number((await git(repo, ["show", "-s", "--format=%ct", `${commit}^{commit}`, "--"])).trim());
		return Number.isFinite(time) ? time : undefined;
	} catch {
		return undefined;
	}
}
