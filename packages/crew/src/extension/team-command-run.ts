import { parseBudgetWords } from "../runtime/budget.ts";
import { isRunId } from "../state/run-id.ts";
import { cleanupCommand } from "./cleanup-command.ts";
import type { CrewSession } from "./crew-session.ts";
import { commandRunText } from "./run-words.ts";
import { teamAction } from "./team-actions.ts";
import {
	commandParams,
	commandWords,
	flagValue,
	parseTeamCommand,
	type TeamCommandReport,
	teamHelpText,
} from "./team-command.ts";

/** The full run id a `/team` word names: itself, or the one run of this session whose id ends with it. */
async function fullRunId(session: CrewSession, word: string, force: boolean): Promise<string> {
	if (isRunId(word)) return word;
	const matches = (await session.runtime.list(session.scope(force))).filter((l) => l.runId.endsWith(word));
	return matches.length === 1 ? (matches[0]?.runId ?? word) : word;
}

/** Runs one `/team` command line for the session and returns the report to show; failures throw with the reason. */
export async function runTeamCommand(session: CrewSession, args: string): Promise<TeamCommandReport> {
	const command = parseTeamCommand(args);
	if (command.sub === "help") return { text: teamHelpText(), type: "info" };
	if (command.sub === "cleanup") {
		return { text: commandWords(await cleanupCommand(session, command)), type: "info" };
	}
	const params = commandParams(command);
	if (params.action === "run") {
		const budget = flagValue(command, "--budget");
		const agentBudget = flagValue(command, "--agent-budget");
		if (budget !== undefined) params.budget = parseBudgetWords(budget, "--budget");
		if (agentBudget !== undefined) params.agentBudget = parseBudgetWords(agentBudget, "--agent-budget");
	}
	if (params.runId !== undefined) params.runId = await fullRunId(session, params.runId, params.force === true);
	if (params.action === "status" && params.runId === undefined) {
		const runs = await session.runtime.list(session.scope(params.force === true));
		if (runs.length === 0) {
			return {
				text: "No runs yet in this session. /team teams lists the teams; /team run <team> <goal> starts one.",
				type: "info",
			};
		}
	}
	const result = await teamAction(session, params);
	if (result.isError) throw new Error(commandWords(result.text));
	return { text: commandWords(commandRunText(params.action, result)), type: "info" };
}
