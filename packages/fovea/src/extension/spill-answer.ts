import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { budgetChars } from "../engine/render/budget.ts";
import { writeSpill } from "./spill-files.ts";
import { isCut, type RankedLists, spillLines } from "./spill-text.ts";

/** What a spill is named for and headed with. */
export interface SpillLabel {
	tool: "focus" | "dwell" | "impact" | "sketch";
	heading: string;
}

/**
 * An answer within `maxTokens` and its text. When the text leaves part of the ranked lists out to fit, the full lists
 * go to a spill file, and the answer is rendered again with the room of a footer naming that file taken from its
 * budget, so answer and footer together still fit. Spilling is a convenience: when it fails the answer stands as it was.
 */
export async function withSpill<A extends { text: string }>(
	ctx: ExtensionContext,
	label: SpillLabel,
	maxTokens: number,
	render: (maxTokens: number) => Promise<A>,
	lists: (answer: A) => RankedLists | Promise<RankedLists>,
): Promise<{ answer: A; text: string }> {
	const answer = await render(maxTokens);
	const ranked = await lists(answer);
	if (!isCut(answer.text, ranked)) return { answer, text: answer.text };
	let footer: string;
	try {
		const file = await writeSpill(ctx.sessionManager.getSessionId(), label.tool, spillLines(label.heading, ranked));
		const counts = `${ranked.files.length} files${label.tool === "sketch" ? "" : `, ${ranked.symbols.length} symbols`}`;
		footer = `Full ranked list (${counts}): ${file} (read or grep it)`;
	} catch {
		return { answer, text: answer.text };
	}
	// The answers' budgets count three characters a token (`render/budget.ts`).
	const room = Math.ceil((budgetChars(footer) + 1) / 3);
	const fitted = await render(Math.max(1, maxTokens - room));
	return { answer: fitted, text: `${fitted.text}\n${footer}` };
}
