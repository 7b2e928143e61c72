import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { writeSpill } from "./spill-files.ts";
import { isCut, type RankedLists, spillLines } from "./spill-text.ts";

/**
 * An answer's text, with a footer naming the spill file that holds its full ranked lists when the text had to leave
 * part of them out to fit its budget. Spilling is a convenience: when it fails the answer stands as it was.
 */
export async function withSpill(
	ctx: ExtensionContext,
	tool: "focus" | "dwell" | "impact" | "sketch",
	heading: string,
	text: string,
	lists: RankedLists,
): Promise<string> {
	if (!isCut(text, lists)) return text;
	try {
		const file = await writeSpill(ctx.sessionManager.getSessionId(), tool, spillLines(heading, lists));
		const counts = `${lists.files.length} files${tool === "sketch" ? "" : `, ${lists.symbols.length} symbols`}`;
		return `${text}\nFull ranked list (${counts}): ${file} (read or grep it)`;
	} catch {
		return text;
	}
}
