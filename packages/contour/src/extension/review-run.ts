import { stat } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { pacedProgress } from "pi-fovea/engine";
import type { Roaming } from "pi-fovea/roaming";
import { loadSettings } from "pi-fovea/settings";
import { canonicalPath, ProjectDiscovery } from "pi-fovea/workspace";
import { parseReviewRequest } from "../checkpoint/review-request.ts";
import { reviewRoot } from "../checkpoint/review-root.ts";
import { renderReport } from "../report/render-report.ts";
import { reportJson } from "../report/report-json.ts";
import type { ContourReviews } from "./reviews.ts";

/** What an explicit review gets from the adapter. */
export interface ReviewRunContext {
	signal: AbortSignal | undefined;
	ctx: ExtensionContext;
	roaming: Roaming;
	reviews: ContourReviews;
	/** How the report names its limits: a command's flags (`/contour review`) or the tool's parameters (default). */
	speaksOf?: "flags" | "parameters";
}

/**
 * An explicit checkpoint (`contour_review`, `/contour review`): validates the request, picks the root (the named
 * Git root, else the session cwd's Git project, else the most recent Git root in the ring), stops speculative
 * background work on it, re-pins its HEAD, index and worktree in a fresh snapshot, and reports within the budget.
 * Throws a clear Error for bad input, a root that is not a Git root, or a review made stale by retirement.
 */
export async function runReview(input: unknown, run: ReviewRunContext) {
	const request = parseReviewRequest(input);
	const root = await chooseRoot(request.root, run);
	if (!hasMaxTokens(input)) request.maxTokens = (await loadSettings(root)).settings["contour.maxTokens"];
	// The root enrolls once the review succeeded: a failed checkpoint enrolls nothing.
	const current = run.roaming.guard(root);
	const state = await run.reviews.state();
	const release = state.observer.checkpoint(root);
	const status = (text: string) => {
		if (run.ctx.hasUI) run.ctx.ui.setStatus("contour", text);
	};
	status(`contour: reviewing ${root}…`);
	try {
		const agent = process.env.PI_CREW_AGENT_ID;
		const report = await reviewRoot({
			root,
			target: request.target,
			...(request.base === undefined ? {} : { base: request.base }),
			...(run.signal === undefined ? {} : { signal: run.signal }),
			cache: state.cache,
			maps: state.maps,
			rootPolicy: true,
			onProgress: pacedProgress((done, total) =>
				status(`contour: reviewing ${root}… (indexing ${done}/${total} files)`),
			),
			origin: {
				kind: "checkpoint",
				sessionId: run.ctx.sessionManager.getSessionId(),
				...(agent === undefined || agent === "" ? {} : { agent }),
			},
		});
		if (!current()) {
			throw new Error(`the review of ${root} is stale: the root was retired or the session changed while it ran`);
		}
		run.roaming.enrollExplicit(root, request.root !== undefined);
		run.reviews.verdict = { root, findings: report.findings.length };
		const limits = {
			maxTokens: request.maxTokens,
			...(request.maxFindings === undefined ? {} : { maxFindings: request.maxFindings }),
		};
		const json = reportJson(report, { ...limits, maxFindings: Math.min(request.maxFindings ?? 20, 20) });
		return {
			content: [
				{ type: "text" as const, text: renderReport(report, { ...limits, speaksOf: run.speaksOf ?? "parameters" }) },
			],
			details: {
				root: report.root,
				target: report.target,
				reportId: report.id,
				snapshot: report.snapshot,
				findings: json.findings.map((f) => ({ kind: f.kind, file: f.file, line: f.line })),
				gaps: report.gaps.length,
				policyViolations: report.policyViolations,
				origin: report.origin,
				reused: report.reusedFrom !== undefined,
				work: report.work,
			},
		};
	} finally {
		release();
		(await import("./status-item.ts")).showContourStatus(run.ctx, run.roaming, run.reviews);
	}
}

/**
 * The root of an explicit review. A named root must be the top of a Git worktree: anything else is an error that
 * says which repository holds it, never a silent review of that other repository.
 */
async function chooseRoot(named: string | undefined, run: ReviewRunContext): Promise<string> {
	if (named === undefined) {
		const found = await run.roaming.manualRoot(run.ctx.cwd);
		if (found === undefined) {
			throw new Error(
				"no Git root to review: the session cwd is in no Git worktree and no Git root is enrolled; pass root",
			);
		}
		return found.root;
	}
	const absolute = isAbsolute(named) ? named : resolve(run.ctx.cwd, named);
	const info = await stat(absolute).catch(() => undefined);
	if (info === undefined) throw new Error(`root ${absolute} does not exist`);
	if (!info.isDirectory()) throw new Error(`root ${absolute} is not a directory`);
	const root = await canonicalPath(absolute);
	const discovery = new ProjectDiscovery();
	if ((await discovery.gitMarkerOf(root)) !== undefined) return root;
	const enclosing = await discovery.projectOf(root);
	const where =
		enclosing !== undefined && (enclosing.marker === "git" || enclosing.marker === "git-file")
			? `it is inside the Git worktree ${enclosing.root}: name that root to review its repository`
			: "it is in no Git worktree";
	throw new Error(`${root} is not the top of a Git worktree (${where}); Contour reviews whole Git roots`);
}

/** Whether the request names its own budget; without one the `contour.maxTokens` setting for the root applies. */
function hasMaxTokens(input: unknown): boolean {
	return input !== null && typeof input === "object" && (input as { maxTokens?: unknown }).maxTokens !== undefined;
}
