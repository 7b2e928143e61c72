import { basename } from "node:path";
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { Roaming } from "pi-fovea/roaming";
import { statusColor } from "pi-fovea/status-item";
import type { ContourReviews } from "./reviews.ts";

/**
 * Contour's footer item while no review runs: the verdict of the last review asked for, while its root is still
 * enrolled (`contour: ✓ shop clean`, `contour: shop 2 findings`), else that nothing was reviewed yet.
 */
export function contourStatusText(
	roaming: Roaming,
	reviews: ContourReviews,
): { text: string; tone: "dim" | "success" | "warning" } {
	const verdict = reviews.verdict;
	if (verdict === undefined || roaming.ring()?.has(verdict.root) !== true)
		return { text: "contour: no review yet", tone: "dim" };
	const name = basename(verdict.root);
	if (verdict.findings === 0) return { text: `contour: ✓ ${name} clean`, tone: "success" };
	return { text: `contour: ${name} ${verdict.findings} finding${verdict.findings === 1 ? "" : "s"}`, tone: "warning" };
}

/** Shows {@link contourStatusText} in the footer, coloured by its tone. */
export function showContourStatus(ctx: ExtensionContext, roaming: Roaming, reviews: ContourReviews): void {
	if (!ctx.hasUI) return;
	const { text, tone } = contourStatusText(roaming, reviews);
	ctx.ui.setStatus("contour", statusColor(ctx, tone, text));
}
