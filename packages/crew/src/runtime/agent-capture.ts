import { type AccessedPath, accessedPaths } from "pi-fovea/workspace";
import type { RpcRecord } from "./rpc-connection.ts";

/** Tokens and cost of an agent's model calls, summed over its assistant messages. */
export interface AgentUsage {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	totalTokens: number;
	/** In US dollars, as the provider reports it. */
	cost: number;
	/** Assistant messages counted. */
	turns: number;
	/** Tool calls the assistant messages asked for. */
	toolCalls: number;
}

/** At most this many distinct accessed paths are kept per agent; later ones are still reported, not stored. */
export const ACCESSED_PATH_LIMIT = 256;

/** Tools whose successful `path` argument is a file the agent changed. */
const CHANGING_TOOLS = new Set(["edit", "write"]);

/** A zero usage. */
export function emptyUsage(): AgentUsage {
	return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: 0, turns: 0, toolCalls: 0 };
}

function num(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

function textOf(content: unknown): string | undefined {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return undefined;
	const parts = content
		.filter(
			(block): block is { type: "text"; text: string } => block?.type === "text" && typeof block.text === "string",
		)
		.map((block) => block.text);
	return parts.length === 0 ? undefined : parts.join("");
}

/**
 * What an agent's event stream tells about its work, folded record by record: the last assistant text (its
 * answer), whether that message failed, summed usage, the files it changed and the paths its tools provably
 * touched (successful tool calls only, read with the same rules the coordinator's extensions use). No I/O.
 */
export class AgentCapture {
	readonly cwd: string;
	readonly usage: AgentUsage = emptyUsage();
	/** Text of the last assistant message that had text. */
	lastText: string | undefined;
	/** The error of the last assistant message when it ended with `stopReason: "error"`, else undefined. */
	lastError: string | undefined;
	/** The tool running now, if any. */
	currentTool: string | undefined;
	/** Why the last assistant message ended (`toolUse` means the agent goes on after its tools). */
	lastStopReason: string | undefined;
	readonly #changed = new Set<string>();
	readonly #accessed = new Set<string>();
	readonly #args = new Map<string, { toolName: string; args: unknown }>();

	constructor(cwd: string) {
		this.cwd = cwd;
	}

	/** Files changed through `edit` and `write`, absolute, in first-change order. */
	get changedFiles(): string[] {
		return [...this.#changed];
	}

	/** Distinct absolute paths that tools touched, in first-access order (bounded). */
	get accessedPaths(): string[] {
		return [...this.#accessed];
	}

	/** Folds one record in; returns the paths this record proves were accessed for the first time. */
	accept(record: RpcRecord): AccessedPath[] {
		switch (record.type) {
			case "message_end":
				this.#message(record.message);
				return [];
			case "tool_execution_start":
				if (typeof record.toolCallId === "string" && typeof record.toolName === "string") {
					this.#args.set(record.toolCallId, { toolName: record.toolName, args: record.args });
					this.currentTool = record.toolName;
				}
				return [];
			case "tool_execution_end":
				this.currentTool = undefined;
				return this.#toolEnded(record);
			default:
				return [];
		}
	}

	#message(message: unknown): void {
		if (message === null || typeof message !== "object") return;
		const m = message as {
			role?: unknown;
			content?: unknown;
			usage?: unknown;
			stopReason?: unknown;
			errorMessage?: unknown;
		};
		if (m.role !== "assistant") return;
		const usage = (m.usage ?? {}) as Record<string, unknown>;
		this.usage.input += num(usage.input);
		this.usage.output += num(usage.output);
		this.usage.cacheRead += num(usage.cacheRead);
		this.usage.cacheWrite += num(usage.cacheWrite);
		this.usage.totalTokens += num(usage.totalTokens);
		this.usage.cost += num((usage.cost as { total?: unknown } | undefined)?.total);
		// An abort's empty message is the end of a turn already counted, not a turn of its own.
		if (m.stopReason !== "aborted" || textOf(m.content) !== undefined) this.usage.turns++;
		if (Array.isArray(m.content)) {
			this.usage.toolCalls += m.content.filter((block) => block?.type === "toolCall").length;
		}
		this.lastStopReason = typeof m.stopReason === "string" ? m.stopReason : undefined;
		const text = textOf(m.content);
		if (text !== undefined && text.trim() !== "") this.lastText = text;
		this.lastError =
			m.stopReason === "error" ? (typeof m.errorMessage === "string" ? m.errorMessage : "model error") : undefined;
	}

	#toolEnded(record: RpcRecord): AccessedPath[] {
		const id = typeof record.toolCallId === "string" ? record.toolCallId : "";
		const started = this.#args.get(id);
		this.#args.delete(id);
		if (started === undefined) return [];
		const isError = record.isError === true;
		const found = accessedPaths({ toolName: started.toolName, input: started.args, isError }, this.cwd);
		const fresh: AccessedPath[] = [];
		for (const access of found) {
			if (CHANGING_TOOLS.has(access.via)) this.#changed.add(access.path);
			if (this.#accessed.has(access.path)) continue;
			if (this.#accessed.size < ACCESSED_PATH_LIMIT) this.#accessed.add(access.path);
			fresh.push(access);
		}
		return fresh;
	}
}
