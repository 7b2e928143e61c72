import { fileURLToPath } from "node:url";

/**
 * The supervisor channel's wire format, shared by the child's tool and the runtime: the tool's name, the marker
 * that tells its dialog request from any other extension's (those are answered "cancelled"), and the setting of
 * how long a child waits.
 */
export const ASK_TOOL = "ask_coordinator";

/** How long a sub-agent waits for an answer, in ms (default 600000, at least 1000). */
export const QUESTION_TIMEOUT_ENV = "PI_CREW_QUESTION_TIMEOUT_MS";

const PREFIX = "pi-crew:question:";

/** The dialog title of the question asked by tool call `toolCallId`. */
export function questionTitle(toolCallId: string): string {
	return `${PREFIX}${toolCallId}`;
}

/** The tool call id of a question's dialog title, or undefined for any other dialog. */
export function questionToolCall(title: unknown): string | undefined {
	return typeof title === "string" && title.startsWith(PREFIX) && title.length > PREFIX.length
		? title.slice(PREFIX.length)
		: undefined;
}

/** The extension file the runtime loads into every sub-agent (`-e`), which registers the tool. */
export const ASK_EXTENSION = fileURLToPath(new URL("../child/ask-coordinator.ts", import.meta.url));
