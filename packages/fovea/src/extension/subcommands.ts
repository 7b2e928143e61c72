import type { ExtensionAPI, ExtensionCommandContext } from "@earendil-works/pi-coding-agent";

/** One `/<command> <name>` action: it returns the text shown to the user. */
export interface Subcommand {
	description: string;
	run(args: string, ctx: ExtensionCommandContext): Promise<string> | string;
}

/**
 * Registers `/<name> <subcommand> [args]` with completion, a default subcommand for the bare command, and a clear
 * error naming the valid choices for anything else. Results and errors reach the user through `ctx.ui.notify`.
 */
export function registerSubcommands(
	pi: ExtensionAPI,
	name: string,
	description: string,
	subcommands: Record<string, Subcommand>,
	fallback: string,
): void {
	const names = Object.keys(subcommands);
	pi.registerCommand(name, {
		description: `${description} (${names.join("|")})`,
		getArgumentCompletions: (prefix) => {
			const items = names
				.filter((n) => n.startsWith(prefix.trim()))
				.map((n) => ({ value: n, label: n, description: subcommands[n]?.description }));
			return items.length > 0 ? items : null;
		},
		handler: async (args, ctx) => {
			const [word = fallback, ...rest] = args
				.trim()
				.split(/\s+/)
				.filter((w) => w.length > 0);
			const sub = Object.hasOwn(subcommands, word) ? subcommands[word] : undefined;
			if (sub === undefined) {
				ctx.ui.notify(`/${name}: unknown subcommand '${word}'. Use one of: ${names.join(", ")}.`, "error");
				return;
			}
			try {
				ctx.ui.notify(await sub.run(rest.join(" "), ctx), "info");
			} catch (error) {
				ctx.ui.notify(`/${name} ${word} failed: ${error instanceof Error ? error.message : String(error)}`, "error");
			}
		},
	});
}
