import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { printable } from "pi-fovea/printable";
import type { Roaming } from "pi-fovea/roaming";
import { registerSubcommands } from "pi-fovea/subcommands";
import type { ReportStore } from "../report/report-store.ts";
import { summarizeReport, summaryLine } from "../report/report-summary.ts";
import type { ContourReviews } from "./reviews.ts";

/** `/contour review|status|reset`: an explicit checkpoint, what Contour observes and keeps, and clearing it. */
export function registerContourCommands(pi: ExtensionAPI, roaming: Roaming, reviews: ContourReviews): void {
	registerSubcommands(
		pi,
		"contour",
		"Contour's per-root structural review",
		{
			review: {
				description: "review a Git root now: [--staged|--working-tree|--base REF] [--max-tokens N] [root]",
				async run(args, ctx) {
					const [{ runReview }, { reviewArguments }] = await Promise.all([
						import("./review-run.ts"),
						import("./review-arguments.ts"),
					]);
					try {
						const result = await runReview(reviewArguments(args), {
							signal: undefined,
							ctx,
							roaming,
							reviews,
							speaksOf: "flags",
						});
						return result.content.map((part) => part.text).join("\n");
					} catch (error) {
						// Shown on the terminal: text from the repository in it is escaped like the report's.
						const { withPrintableMessage } = await import("./printable-error.ts");
						throw withPrintableMessage(error);
					}
				},
			},
			status: {
				description:
					"enrolled Git roots, the root a review takes when none is named, kept reports and background passes",
				async run(_args, ctx) {
					const target = await roaming.manualRoot(ctx.cwd);
					const review =
						target === undefined
							? "none: the session cwd is in no Git worktree and no Git root is enrolled"
							: `${target.root} [${target.marker}, ${target.from === "cwd" ? "session cwd's Git project" : "most recent Git root in the ring"}]`;
					const state = reviews.loaded();
					const kept =
						state === undefined ? ["reports: none yet (the review engine is not loaded)"] : keptReports(state.reports);
					const stats = state?.observer.stats();
					const background =
						state === undefined
							? "background: idle"
							: `background: ${state.observer.enabled ? "on" : "off (CONTOUR_BACKGROUND=0)"}; passes ${stats?.passes ?? 0}, warmed ${stats?.warmed ?? 0}, aborted ${stats?.aborted ?? 0}, errors ${stats?.errors ?? 0}`;
					return [
						"pi-contour status",
						`review root (no root given): ${review}`,
						...kept,
						background,
						...(await roaming.describe()),
					]
						.map(printable)
						.join("\n");
				},
			},
			reset: {
				description: "retire every enrolled root (clears the ring, its reports and background work)",
				run() {
					const retired = roaming.reset();
					return `pi-contour: retired ${retired.length} root${retired.length === 1 ? "" : "s"}; the ring is empty.`;
				},
			},
			settings: {
				description: "view or set",
				run: async (a, c) => (await import("./set.ts")).run(a, c, roaming),
			},
		},
		"status",
	);
}

/** How many reports are kept, then each root with its newest report (the most recently used root first). */
function keptReports(reports: ReportStore): string[] {
	const roots = reports.roots();
	const count = roots.reduce((n, root) => n + reports.list(root).length, 0);
	const lines = [`reports: ${count} kept for ${roots.length} root${roots.length === 1 ? "" : "s"}`];
	for (const root of roots) {
		const [newest] = reports.list(root);
		if (newest !== undefined) lines.push(`  ${root}: newest ${summaryLine(summarizeReport(newest))}`);
	}
	return lines;
}
