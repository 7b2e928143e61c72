import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import type { AutocompleteItem } from "@earendil-works/pi-tui";
import type { ShowReport, Subcommand } from "./command-report.ts";

/**
 * The completions of `/<name> <prefix>`: the subcommands it starts. One typed in full has nothing left to complete,
 * so Enter then runs it instead of taking it again.
 */
export function subcommandCompletions(
	subcommands: Record<string, Subcommand>,
	prefix: string,
): AutocompleteItem[] | null {
	const typed = prefix.trim();
	const items = Object.keys(subcommands)
		.filter((n) => n.startsWith(typed) && n !== typed)
		.map((n) => ({ value: n, label: n, description: subcommands[n]?.description }));
	return items.length > 0 ? items : null;
}

/** Runs `/<name> <args>`: the named subcommand (or `fallback`), its report or its failure shown with `show`. */
export async function runSubcommand(
	name: string,
	subcommands: Record<string, Subcommand>,
	fallback: string,
	args: string,
	ctx: ExtensionCommandContext,
	show: ShowReport,
): Promise<void> {
	const [word = fallback, ...rest] = args
		.trim()
		.split(/\s+/)
		.filter((w) => w.length > 0);
	const sub = Object.hasOwn(subcommands, word) ? subcommands[word] : undefined;
	if (sub === undefined) {
		await show(
			ctx,
			`/${name}: unknown subcommand '${word}'. Use one of: ${Object.keys(subcommands).join(", ")}.`,
			"error",
		);
		return;
	}
	try {
		await show(ctx, await sub.run(rest.join(" "), ctx));
	} catch (error) {
		await show(ctx, `/${name} ${word} failed: ${error instanceof Error ? error.message : String(error)}`, "error");
	}
}
