/**
 * The supervisor channel, child side: an extension the runtime loads into every sub-agent (`pi --mode rpc`). It
 * registers the tool `ask_coordinator`, which asks the coordinator a question and waits for the answer. The
 * question travels as an RPC dialog request on the agent's own stdout, which only the runtime that started the
 * agent reads, and the answer comes back on its stdin: no file, socket or event bus, so nothing can cross to
 * another session or workspace. Outside a crew agent (no `PI_CREW_AGENT_ID`) it registers nothing.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import { ASK_TOOL, QUESTION_TIMEOUT_ENV, questionTitle } from "../runtime/question-protocol.ts";

const DEFAULT_TIMEOUT_MS = 600_000;

function timeoutMs(env: NodeJS.ProcessEnv): number {
	const value = Number(env[QUESTION_TIMEOUT_ENV]);
	return Number.isInteger(value) && value >= 1000 ? value : DEFAULT_TIMEOUT_MS;
}

export default function askCoordinator(pi: ExtensionAPI): void {
	if (!process.env.PI_CREW_AGENT_ID) return;
	const waitMs = timeoutMs(process.env);
	pi.registerTool({
		name: ASK_TOOL,
		label: "Ask coordinator",
		description:
			"Ask the coordinator (the session that started you) a question and wait for its answer. Use it when the task is ambiguous or you need a decision you should not make alone; otherwise keep working.",
		promptSnippet: "Ask your coordinator a question and wait for the answer",
		parameters: Type.Object({
			question: Type.String({ description: "The question, self-contained: the coordinator sees only this text." }),
		}),
		async execute(toolCallId, params, signal, _onUpdate, ctx) {
			const question = typeof params.question === "string" ? params.question.trim() : "";
			if (question === "") throw new Error('ask_coordinator: field "question": say what you want to know');
			const answer = await ctx.ui.input(questionTitle(toolCallId), question, {
				timeout: waitMs,
				...(signal ? { signal } : {}),
			});
			const text =
				answer === undefined
					? `No answer from the coordinator (none within ${Math.round(waitMs / 1000)} s, or the question was cancelled). Go on with your own best judgement and say so in your report.`
					: `The coordinator answered: ${answer}`;
			return { content: [{ type: "text", text }], details: { answered: answer !== undefined } };
		},
	});
}
