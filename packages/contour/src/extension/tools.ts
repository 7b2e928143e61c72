import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { Roaming } from "pi-fovea/roaming";
import { toolRenderers } from "pi-fovea/tool-rendering";
import { Type } from "typebox";
import type { ContourReviews } from "./reviews.ts";

/** Registers `contour_review`; its body (and the review engine) loads on the first call. */
export function registerContourTools(pi: ExtensionAPI, roaming: Roaming, reviews: ContourReviews): void {
	pi.registerTool({
		name: "contour_review",
		...toolRenderers("contour_review"),
		label: "Contour review",
		description:
			"What a change did to the structure of one Git repository, with evidence: per callable the complexity before and after, new clones, new import cycles, new imports across regions or forbidden by the root's policy, and needless code; each finding with file:line witnesses on both sides, a review question, and how far the changed code reaches (modelled exposure, not severity). Compares HEAD with the index (staged, the default), with the working tree (including untracked files), or a branch with its merge base.",
		parameters: Type.Object({
			root: Type.Optional(
				Type.String({
					description:
						"The top of a Git worktree. Default: the session cwd's Git project, else the most recent Git root used.",
				}),
			),
			target: Type.Optional(
				Type.Union([Type.Literal("staged"), Type.Literal("working-tree"), Type.Literal("branch")], {
					description:
						"staged (HEAD→index, default), working-tree (HEAD→worktree) or branch (merge base of base→HEAD).",
				}),
			),
			base: Type.Optional(
				Type.String({ description: "The base revision of a branch review (implies target branch)." }),
			),
			maxTokens: Type.Optional(Type.Integer({ description: "Answer budget in tokens (default 2000, 100–100000)." })),
			maxFindings: Type.Optional(Type.Integer({ description: "Findings shown at most." })),
		}),
		async execute(_id, params, signal, _onUpdate, ctx) {
			const { runReview } = await import("./review-run.ts");
			try {
				return await runReview(params, { signal, ctx, roaming, reviews });
			} catch (error) {
				// Pi shows the message on a terminal: text from the repository in it is escaped like the report's. Loaded
				// here, off the extension's startup path.
				const { withPrintableMessage } = await import("./printable-error.ts");
				throw withPrintableMessage(error);
			}
		},
	});
}
