// How the crew widget reads in the TUI (issue 33 item 4): short ids, a colour per status, elapsed time, turns and
// tokens per agent, and lines fitted to the terminal's width (the goal takes what is left, never more).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { visibleWidth } from "@earendil-works/pi-tui";
import { plainLines, statusColor, styledLines, widgetContent, widgetRows } from "../../src/extension/widget.ts";
import type { LiveAgentHandle } from "../../src/runtime/index.ts";
import type { RunListing, RunManifest, RunTask } from "../../src/state/index.ts";

const RUN = "20250101-000000-000-0000abcd";
const NOW = Date.parse("2025-01-01T00:03:05Z");
const GOAL = `Rewrite the login flow so that ${"every session token is rotated ".repeat(4)}end`;

function listing(status: RunManifest["status"]): RunListing {
	const manifest = {
		runId: RUN,
		status,
		team: "pair",
		goal: GOAL,
		workspaceMode: "single",
		createdAt: "2025-01-01T00:00:00Z",
		startedAt: "2025-01-01T00:00:05Z",
	} as RunManifest;
	return { runId: RUN, dir: "/x", manifest, tasks: [{ status: "done" }, { status: "running" }] as RunTask[] };
}

const AGENT = {
	agentId: `${RUN}:build`,
	runId: RUN,
	taskId: "build",
	status: "running",
	startedAt: "2025-01-01T00:02:20Z",
	currentTool: "bash",
	usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 12_345, cost: 0, turns: 3 },
} as LiveAgentHandle;

const tui = { now: NOW, shortIds: true };
/** Marks each piece with its colour, so a test sees colours without a terminal. */
const mark = (color: string, text: string) => `<${color}>${text}`;

describe("crew widget", () => {
	it("shows short ids, elapsed time, turns and tokens", () => {
		const lines = plainLines(widgetRows([listing("running")], [AGENT], tui) ?? []);
		assert.equal(lines[0], `crew 0000abcd · pair · running · 1/2 done · 3 min 0 s · ${GOAL}`);
		assert.equal(lines[1], "  build · running · bash · 45 s · 3 turns · 12.3k tok");
		assert.ok(!lines.join("\n").includes(RUN), "the full run id is not repeated");
	});

	it("colours each status", () => {
		assert.equal(statusColor("done"), "success");
		assert.equal(statusColor("failed"), "error");
		assert.equal(statusColor("interrupted"), "warning");
		assert.equal(statusColor("running"), "accent");
		const [run] = styledLines(widgetRows([listing("failed")], [], tui) ?? [], 200, mark);
		assert.match(run ?? "", /<error>failed/);
	});

	it("fits every line to the width, the goal taking what is left", () => {
		const rows = widgetRows([listing("interrupted")], [AGENT], tui) ?? [];
		for (const width of [20, 40, 80, 120, 300]) {
			for (const line of styledLines(rows, width, (_c, t) => `\u001b[1m${t}\u001b[0m`)) {
				assert.ok(visibleWidth(line) <= width, `${visibleWidth(line)} > ${width}: ${line}`);
			}
		}
		const wide = styledLines(rows, 300, (_c, t) => t)[0] ?? "";
		assert.ok(wide.includes(GOAL), "a wide terminal shows the whole goal");
		assert.ok(wide.includes("/team resume 0000abcd"), "an interrupted run says how to resume it");
	});

	it("is a themed component in the TUI and plain lines with full ids over RPC", () => {
		const rowsAt = (o: { now: number; shortIds: boolean }) => widgetRows([listing("running")], [AGENT], o);
		const rpc = widgetContent("rpc", rowsAt);
		assert.ok(Array.isArray(rpc) && rpc[1]?.includes(`agent ${RUN}:build`));
		const factory = widgetContent("tui", rowsAt);
		assert.equal(typeof factory, "function");
		if (typeof factory !== "function") return;
		const theme = { fg: mark } as unknown as Parameters<typeof factory>[1];
		const lines = factory({}, theme).render(80);
		assert.ok(lines.every((line) => visibleWidth(line) <= 80));
		assert.match(lines[0] ?? "", /^<accent>crew 0000abcd/);
		assert.equal(
			widgetContent("tui", () => undefined),
			undefined,
		);
	});
});
