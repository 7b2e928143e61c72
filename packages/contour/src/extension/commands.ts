import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { Roaming } from "pi-fovea/roaming";
import { registerSubcommands } from "pi-fovea/subcommands";
import type { ContourReviews } from "./reviews.ts";

/** `/contour review|status|reset`: an explicit checkpoint, what Contour observes and keeps, and clearing it. */
export function registerContourCommands(
	pi: ExtensionAPI,
	roaming: Roaming,
	reviews: ContourReviews,
	after: (ctx: ExtensionContext) => void,
): void {
	registerSubcommands(
		pi,
		"contour",
		"Contour's per-root structural review",
		{
			review: {
				description: "review a Git root now: [--staged|--working-tree|--base REF] [--max-tokens N] [root]",
				run: async (args, ctx) => (await import("./review-report.ts")).reviewCommand(args, ctx, roaming, reviews),
			},
			status: {
				description: "the Git root a review takes when none is named, kept reports, background reviews, roots",
				run: async (_args, ctx) => (await import("./status-text.ts")).contourStatus(ctx, roaming, reviews),
			},
			reset: {
				description: "forget every enrolled root (with its reports and background work)",
				run() {
					const retired = roaming.reset();
					return `pi-contour: retired ${retired.length} root${retired.length === 1 ? "" : "s"}; none is enrolled now.`;
				},
			},
			settings: {
				description: "view or set",
				run: async (a, c) => (await import("./set.ts")).run(a, c, roaming),
			},
		},
		"status",
		after,
	);
}
