import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import type { CrewSession } from "./crew-session.ts";
import type { TeamParams } from "./team-schema.ts";

/** `/team` subcommands, their arguments and flags. */
export const TEAM_SUBCOMMANDS: Record<string, { usage: string; flags: readonly string[] }> = {
	run: { usage: "run <team> <goal…> [--worktree|--single]", flags: ["--worktree", "--single"] },
	status: { usage: "status [runId] [--force]", flags: ["--force"] },
	list: { usage: "list [--force]", flags: ["--force"] },
	cancel: { usage: "cancel <runId> [--force]", flags: ["--force"] },
	resume: { usage: "resume <runId> [--force]", flags: ["--force"] },
	retry: { usage: "retry <runId> [taskId] [--force]", flags: ["--force"] },
	worktrees: { usage: "worktrees [--force]", flags: ["--force"] },
	cleanup: {
		usage: "cleanup [runId] [--commit|--discard] [--unlock] [--force]",
		flags: ["--commit", "--discard", "--unlock", "--force"],
	},
};

/** A parsed `/team` command line. */
export interface TeamCommand {
	sub: string;
	words: string[];
	flags: Set<string>;
}

/** Splits `/team` arguments into the subcommand, its words and its flags; unknown ones are errors naming the choices. */
export function parseTeamCommand(args: string): TeamCommand {
	const [sub = "list", ...rest] = args
		.trim()
		.split(/\s+/)
		.filter((w) => w.length > 0);
	const spec = Object.hasOwn(TEAM_SUBCOMMANDS, sub) ? TEAM_SUBCOMMANDS[sub] : undefined;
	if (spec === undefined) {
		throw new Error(`unknown subcommand '${sub}'. Use one of: ${Object.keys(TEAM_SUBCOMMANDS).join(", ")}.`);
	}
	const words = rest.filter((w) => !w.startsWith("--"));
	const flags = new Set(rest.filter((w) => w.startsWith("--")));
	for (const flag of flags) {
		if (!spec.flags.includes(flag)) throw new Error(`/team ${sub}: unknown flag ${flag}. Usage: /team ${spec.usage}`);
	}
	if (flags.has("--commit") && flags.has("--discard"))
		throw new Error("/team cleanup: --commit or --discard, not both");
	if (flags.has("--worktree") && flags.has("--single")) throw new Error("/team run: --worktree or --single, not both");
	return { sub, words, flags };
}

/** The `team` tool parameters a `/team` subcommand stands for (every one except worktree cleanup). */
export function commandParams(command: TeamCommand): TeamParams {
	const { sub, words, flags } = command;
	const force = flags.has("--force") ? { force: true } : {};
	if (sub === "run") {
		const [team, ...goal] = words;
		if (team === undefined || goal.length === 0) throw new Error(`usage: /team ${TEAM_SUBCOMMANDS.run?.usage}`);
		const mode = flags.has("--worktree") ? "worktree" : flags.has("--single") ? "single" : undefined;
		return { action: "run", team, goal: goal.join(" "), ...(mode ? { workspaceMode: mode } : {}) };
	}
	if ((sub === "cancel" || sub === "resume" || sub === "retry") && words[0] === undefined) {
		throw new Error(`usage: /team ${TEAM_SUBCOMMANDS[sub]?.usage}`);
	}
	if (words.length > (sub === "retry" ? 2 : 1)) {
		throw new Error(`/team ${sub}: unexpected argument ${words.at(-1)}. Usage: /team ${TEAM_SUBCOMMANDS[sub]?.usage}`);
	}
	const runId = words[0] === undefined ? {} : { runId: words[0] };
	const taskId = sub === "retry" && words[1] !== undefined ? { taskId: words[1] } : {};
	return { action: sub as TeamParams["action"], ...runId, ...taskId, ...force };
}

/** Runs one `/team` command line for the session and returns the text to show; failures throw with the reason. */
export async function runTeamCommand(
	session: CrewSession,
	args: string,
	_ctx: ExtensionCommandContext,
): Promise<string> {
	const command = parseTeamCommand(args);
	if (command.sub === "cleanup") {
		const { cleanupCommand } = await import("./cleanup-command.ts");
		return cleanupCommand(session, command);
	}
	const { teamAction } = await import("./team-actions.ts");
	const result = await teamAction(session, commandParams(command));
	if (result.isError) throw new Error(result.text);
	return result.text;
}
