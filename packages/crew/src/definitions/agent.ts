import { type Budget, readBudget } from "../runtime/budget.ts";
import { FieldReader } from "../state/field-reader.ts";
import { NAME_HINT, NAME_PATTERN } from "../state/run-id.ts";
import { DefinitionError } from "./errors.ts";
import { readFrontMatter } from "./front-matter.ts";

/** Where a definition came from, in lookup order: shipped with pi-crew, the user's Pi directory, the project. */
export type DefinitionLayer = "builtin" | "user" | "project";

/** Pi's thinking levels. */
export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/** Every thinking level. */
export const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

/** Agent and team names: lower-case letters, digits, `-` and `_` (they name files, see {@link NAME_PATTERN}). */
export const DEFINITION_NAME_PATTERN = NAME_PATTERN;

/** Words for errors about a bad name. */
export const DEFINITION_NAME_HINT = NAME_HINT;

const TOOL_NAME = /^[A-Za-z0-9_-]+$/;

/** An agent: who a sub-agent is (system prompt) and what it may use (model, tools, thinking). */
export interface AgentDefinition {
	name: string;
	description: string;
	/** A model id or `provider/model`; absent means the coordinator's model. */
	model?: string;
	/** Tool allowlist; absent means Pi's default tools. */
	tools?: string[];
	thinking?: ThinkingLevel;
	/** Limits on what one agent of this kind may spend (turns, toolCalls, tokens, cost). */
	budget?: Budget;
	/** The Markdown body. */
	systemPrompt: string;
	file: string;
	layer: DefinitionLayer;
}

/** A reader whose errors are DefinitionErrors naming `file`. */
export function definitionReader(data: unknown, file: string): FieldReader {
	return FieldReader.of(data, "", (message, field) =>
		field === undefined
			? new DefinitionError(file, `the front matter ${message.replace(/^expected/, "must be")} of fields`)
			: new DefinitionError(file, message, field),
	);
}

/**
 * Parses an agent file: front matter `name`, `description`, optional `model`, `tools` (a list, or a
 * comma-separated string as in Pi's own agent files) and `thinking`; the body is the system prompt.
 */
export function parseAgentDefinition(text: string, file: string, layer: DefinitionLayer): AgentDefinition {
	const { data, body } = readFrontMatter(text, file);
	const r = definitionReader(data, file);
	r.onlyKeys(["name", "description", "model", "tools", "thinking", "budget"]);
	const agent: AgentDefinition = {
		name: r.string("name", { pattern: DEFINITION_NAME_PATTERN, hint: DEFINITION_NAME_HINT }),
		description: r.string("description"),
		systemPrompt: body.trim(),
		file,
		layer,
	};
	if (agent.systemPrompt === "") {
		throw new DefinitionError(file, "the body (the agent's system prompt, after the front matter) is empty");
	}
	const model = r.optionalString("model");
	const tools = r.optionalStringList("tools", { split: true, pattern: TOOL_NAME, hint: "a Pi tool name such as read" });
	const thinking = r.optionalOneOf("thinking", THINKING_LEVELS);
	if (model !== undefined) agent.model = model;
	if (tools !== undefined) agent.tools = tools;
	if (thinking !== undefined) agent.thinking = thinking;
	const budget = readBudget(r, "budget");
	if (budget !== undefined) agent.budget = budget;
	return agent;
}
