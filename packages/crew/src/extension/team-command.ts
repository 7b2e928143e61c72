import type { TeamParams } from "./team-schema.ts";

/** `/team` subcommands: their arguments and flags, and one line saying what each does (help and completion). */
export const TEAM_SUBCOMMANDS: Record<string, { usage: string; flags: readonly string[]; what: string }> = {
	teams: { usage: "teams", flags: [], what: "the teams you can run, one line each" },
	run: {
		usage: "run <team> <goal…> [--worktree|--single] [--budget=turns=N,toolCalls=N,tokens=N,cost=X] [--agent-budget=…]",
		flags: ["--worktree", "--single", "--budget=", "--agent-budget="],
		what: "start a team on a goal",
	},
	status: { usage: "status [runId] [--force]", flags: ["--force"], what: "a run's tasks, results and events" },
	list: { usage: "list [--force]", flags: ["--force"], what: "this session's runs" },
	cancel: { usage: "cancel <runId> [--force]", flags: ["--force"], what: "stop a run and its agents" },
	resume: { usage: "resume <runId> [--force]", flags: ["--force"], what: "continue an interrupted run" },
	retry: { usage: "retry <runId> [taskId] [--force]", flags: ["--force"], what: "run failed tasks again" },
	worktrees: { usage: "worktrees [--force]", flags: ["--force"], what: "the Git worktrees of runs" },
	doctor: {
		usage: "doctor",
		flags: [],
		what: "check Pi, Git, tools, definitions, runs and state; each problem with its fix",
	},
	cleanup: {
		usage: "cleanup [runId] [--commit|--discard] [--unlock] [--force]",
		flags: ["--commit", "--discard", "--unlock", "--force"],
		what: "remove finished runs' worktrees",
	},
};

/** What `/team` alone shows: every subcommand with its arguments and one line. */
export function teamHelpText(): string {
	const lines = [
		"/team: teams of sub-agents working on a goal in this workspace. Run ids may be given short (8 hex digits).",
	];
	for (const spec of Object.values(TEAM_SUBCOMMANDS)) lines.push(`  /team ${spec.usage}  ${spec.what}`);
	lines.push("--force takes over the runs of an ended session of this workspace, never a live one's.");
	return lines.join("\n");
}

/** A parsed `/team` command line. */
export interface TeamCommand {
	sub: string;
	words: string[];
	flags: Set<string>;
}

/** Splits `/team` arguments into the subcommand, its words and its flags; unknown ones are errors naming the choices. */
export function parseTeamCommand(args: string): TeamCommand {
	const [sub = "help", ...rest] = args
		.trim()
		.split(/\s+/)
		.filter((w) => w.length > 0);
	if (sub === "help") return { sub, words: rest, flags: new Set() };
	const spec = Object.hasOwn(TEAM_SUBCOMMANDS, sub) ? TEAM_SUBCOMMANDS[sub] : undefined;
	if (spec === undefined) {
		throw new Error(`unknown subcommand '${sub}'. Use one of: ${Object.keys(TEAM_SUBCOMMANDS).join(", ")}.`);
	}
	const words = rest.filter((w) => !w.startsWith("--"));
	const flags = new Set(rest.filter((w) => w.startsWith("--")));
	for (const flag of flags) {
		// A flag with a value (`--budget=turns=3`) is declared as its name and `=`.
		const name = flag.includes("=") ? `${flag.slice(0, flag.indexOf("="))}=` : flag;
		if (!spec.flags.includes(name)) throw new Error(`/team ${sub}: unknown flag ${flag}. Usage: /team ${spec.usage}`);
	}
	if (flags.has("--commit") && flags.has("--discard"))
		throw new Error("/team cleanup: --commit or --discard, not both");
	if (flags.has("--worktree") && flags.has("--single")) throw new Error("/team run: --worktree or --single, not both");
	return { sub, words, flags };
}

/** The value of flag `--name=value` of the command, if given. */
export function flagValue(command: TeamCommand, name: string): string | undefined {
	return [...command.flags].find((f) => f.startsWith(`${name}=`))?.slice(name.length + 1);
}

/** The `team` tool parameters a `/team` subcommand stands for (every one except worktree cleanup). */
export function commandParams(command: TeamCommand): TeamParams {
	const { sub, words, flags } = command;
	const force = flags.has("--force") ? { force: true } : {};
	if (sub === "run") {
		const [team, ...goal] = words;
		if (team === undefined || goal.length === 0) throw new Error(`usage: /team ${TEAM_SUBCOMMANDS.run?.usage}`);
		const mode = flags.has("--worktree") ? "worktree" : flags.has("--single") ? "single" : undefined;
		// Budget flags are read where the command runs (team-command-run.ts): their parser is not loaded at startup.
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

/** What a `/team` command shows: its text and how it is shown (an empty status is information, not an error). */
export interface TeamCommandReport {
	text: string;
	type: "info" | "warning" | "error";
}

/**
 * The tool's words about its parameters in the command's words about flags: a person typing `/team` passes
 * `--force`, the model passes `force: true`.
 */
export function commandWords(text: string): string {
	return text
		.replace(/\bpass force\b/g, "add --force")
		.replace(/(^|[\s;(])force (takes|only takes)\b/g, "$1--force $2");
}
