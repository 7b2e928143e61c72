import { printable } from "pi-fovea/printable";
import type { LiveAgentHandle } from "../runtime/live-agents.ts";
import type { RunListing } from "../state/run-store.ts";
import { oneLine, taskCount } from "./run-text.ts";

/** The widget key of pi-crew. */
export const WIDGET_KEY = "pi-crew";

/** At most this many lines; the rest is summarized in one more line. */
export const WIDGET_LINE_LIMIT = 12;

/**
 * The widget: one line per unfinished run of this workspace and session, and under it one line per active agent
 * of that run, each made printable (a goal or tool name is not trusted text). Undefined when there is nothing to
 * show (the widget is then cleared).
 */
export function widgetLines(runs: readonly RunListing[], agents: readonly LiveAgentHandle[]): string[] | undefined {
	const lines: string[] = [];
	const shown = new Set<string>();
	for (const listing of runs) {
		const { manifest, tasks } = listing;
		if (!manifest || !tasks) continue;
		const hint = manifest.status === "interrupted" ? ` · /team resume ${manifest.runId}` : "";
		lines.push(
			`crew ${manifest.runId} · ${manifest.team} · ${manifest.status} · ${taskCount(tasks)} done · ${oneLine(manifest.goal, 40)}${hint}`,
		);
		for (const agent of agents.filter((a) => a.runId === manifest.runId)) {
			lines.push(agentLine(agent));
			shown.add(agent.agentId);
		}
	}
	for (const agent of agents) if (!shown.has(agent.agentId)) lines.push(agentLine(agent));
	if (lines.length === 0) return undefined;
	if (lines.length <= WIDGET_LINE_LIMIT) return lines.map(printable);
	return [
		...lines.slice(0, WIDGET_LINE_LIMIT - 1).map(printable),
		`… ${lines.length - WIDGET_LINE_LIMIT + 1} more lines: /team list`,
	];
}

function agentLine(agent: LiveAgentHandle): string {
	const tool = agent.currentTool ? ` · ${agent.currentTool}` : "";
	return `  ${agent.taskId} · ${agent.status}${tool} · agent ${agent.agentId}`;
}

/**
 * Repaints the widget at most once per `delayMs` however many events arrive (16 agents calling tools would
 * otherwise repaint on every call). `paint` computes and shows the lines; a failing paint is dropped.
 */
export class WidgetPainter {
	readonly #paint: () => Promise<void>;
	readonly #delayMs: number;
	#timer: NodeJS.Timeout | undefined;
	#running: Promise<void> | undefined;
	#again = false;
	#closed = false;

	constructor(paint: () => Promise<void>, delayMs = 50) {
		this.#paint = paint;
		this.#delayMs = delayMs;
	}

	/** Asks for a repaint soon. */
	request(): void {
		if (this.#closed || this.#timer) return;
		this.#timer = setTimeout(() => {
			this.#timer = undefined;
			void this.now();
		}, this.#delayMs);
		this.#timer.unref();
	}

	/** Repaints now (after a repaint under way), and resolves when the widget shows the current state. */
	async now(): Promise<void> {
		if (this.#closed) return;
		if (this.#running) {
			this.#again = true;
			return this.#running;
		}
		this.#running = (async () => {
			do {
				this.#again = false;
				await this.#paint().catch(() => {});
			} while (this.#again && !this.#closed);
		})();
		try {
			await this.#running;
		} finally {
			this.#running = undefined;
		}
	}

	/** No more repaints. */
	close(): void {
		this.#closed = true;
		if (this.#timer) clearTimeout(this.#timer);
		this.#timer = undefined;
	}
}
