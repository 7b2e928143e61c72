import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { Roaming } from "pi-fovea/roaming";
import type { CommandReport, ReportLine } from "pi-fovea/subcommands";
import type { ContourReviews } from "./reviews.ts";

/**
 * `/contour review` for a person: the review's counts as the title (coloured: success with no finding, a warning
 * with some), its findings and changes as lines, findings in the warning colour, and the technical header (commits
 * of HEAD, index and worktree) as a detail shown on request. Loaded when the command runs.
 */
export async function reviewCommand(
	args: string,
	ctx: ExtensionContext,
	roaming: Roaming,
	reviews: ContourReviews,
): Promise<CommandReport> {
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
		const text = result.content.map((part) => part.text).join("\n");
		return reviewReport(text, result.details.root, result.details.findings.length);
	} catch (error) {
		// Shown on the terminal: text from the repository in it is escaped like the report's.
		const { withPrintableMessage } = await import("./printable-error.ts");
		throw withPrintableMessage(error);
	}
}

/** The rendered review `text` of `root` with `findings` findings as a report (exported for its unit test). */
export function reviewReport(text: string, root: string, findings: number): CommandReport {
	const [header = "", ...rest] = text.split("\n");
	const counts = rest.find((line) => /^\d+ changed files?\b/.test(line));
	const lines: ReportLine[] = rest
		.filter((line) => line !== counts)
		.map((line) => ({
			text: line,
			tone: /^\d+\. /.test(line) ? "warning" : /^\S[^:]*:$/.test(line) ? "muted" : "text",
		}));
	return {
		title: `Contour review of ${root}: ${counts ?? `${findings} finding${findings === 1 ? "" : "s"}`}`,
		verdict: findings === 0 ? "success" : "warning",
		lines,
		more: [{ text: header, tone: "muted" }],
	};
}
