// Words and views for the person (issue 33 items 1, 3, 7): times read as `12 s ago`, reports keep their lines and
// tones and are escaped when read back from a session, the ring speaks without jargon, and a tool's call and result
// read as a compact header, ✓/✗, the answer's key lines, and the whole text when expanded.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { notifyType, readReport, reportText, textReport } from "../src/extension/command-report.ts";
import { MESSAGE_PREVIEW_LINES, messageComponent, reportComponent } from "../src/extension/report-view.ts";
import { ringText } from "../src/extension/ring-text.ts";
import { agoText, durationText } from "../src/extension/time-words.ts";
import { answerShape, callComponent, resultComponent } from "../src/extension/tool-view.ts";
import { ExecutionRoots } from "../src/workspace/roots.ts";

/** A theme that writes colours as tags, so a test reads which colour each piece got. */
const theme = {
	fg: (color: string, text: string) => `<${color}>${text}</${color}>`,
	bold: (text: string) => `*${text}*`,
} as Parameters<typeof reportComponent>[2];

const render = (component: { render(width: number): readonly string[] } | undefined) =>
	(component?.render(400) ?? []).map((line) => line.trimEnd()).join("\n");

const NOW = Date.parse("2026-12-07T10:00:12Z");

describe("times for a person", () => {
	it("reads durations and ages in words, never as ISO or milliseconds", () => {
		assert.equal(durationText(42_900), "42 s");
		assert.equal(durationText(185_000), "3 min 5 s");
		assert.equal(durationText(7_800_000), "2 h 10 min");
		assert.equal(durationText(-5), "0 s");
		assert.equal(agoText("2026-12-07T10:00:00Z", NOW), "12 s ago");
		assert.equal(agoText(NOW - 60_000, NOW), "1 min 0 s ago");
		assert.equal(agoText("not a date", NOW), "not a date");
	});
});

describe("command reports", () => {
	const report = {
		title: "Fovea status: 1 root",
		verdict: "info" as const,
		lines: [{ text: "default root: /r" }, { text: "1 of at most 32 roots", tone: "muted" as const }],
		more: [{ text: "observation: probes 3", tone: "muted" as const }],
	};

	it("outside the TUI: the title, the lines and the details as one text", () => {
		assert.equal(
			reportText(report),
			"Fovea status: 1 root\ndefault root: /r\n1 of at most 32 roots\nobservation: probes 3",
		);
		assert.deepEqual(textReport("t\na\nb", "error"), {
			title: "t",
			verdict: "error",
			lines: [{ text: "a" }, { text: "b" }],
		});
		assert.equal(notifyType("success"), "info");
		assert.equal(notifyType("warning"), "warning");
	});

	it("read back from a session: validated and escaped (a session file can be edited by hand)", () => {
		assert.equal(readReport(null), undefined);
		assert.equal(readReport({ title: "t", verdict: "loud", lines: [] }), undefined);
		assert.equal(readReport({ title: 1, verdict: "info", lines: [] }), undefined);
		const read = readReport({
			title: "t\u001b[2J",
			verdict: "warning",
			lines: [{ text: "x\u001b]0;owned\u0007", tone: "blink" }, 7, { tone: "error" }],
		});
		assert.deepEqual(read, {
			title: "t\\u001b[2J",
			verdict: "warning",
			lines: [{ text: "x\\u001b]0;owned\\u0007", tone: "text" }],
		});
	});

	it("in the TUI: a bold title coloured by its verdict, lines by tone, details on expand", () => {
		const collapsed = render(reportComponent(report, { expanded: false }, theme));
		assert.match(collapsed, /<accent>\*Fovea status: 1 root\*<\/accent>/);
		assert.match(collapsed, /<text>default root: \/r<\/text>/);
		assert.match(collapsed, /<muted>1 of at most 32 roots<\/muted>/);
		assert.doesNotMatch(collapsed, /probes/);
		assert.match(collapsed, /<dim>… 1 more line \(expand for details\)<\/dim>/);
		const expanded = render(reportComponent(report, { expanded: true }, theme));
		assert.match(expanded, /<muted>observation: probes 3<\/muted>/);
		assert.doesNotMatch(expanded, /more line/);
		const failed = render(reportComponent(textReport("/fovea x failed", "error"), { expanded: false }, theme));
		assert.match(failed, /<error>\*\/fovea x failed\*<\/error>/);
		assert.equal(reportComponent({ nonsense: true }, { expanded: false }, theme), undefined);
	});

	it("Fovea's drift message (fovea-sync) reads like a report: its first line as title, cut until expanded", () => {
		const lines = Array.from(
			{ length: MESSAGE_PREVIEW_LINES + 3 },
			(_, i) => `  src/f${i}.ts (modified, not by this session)`,
		);
		const content = [{ type: "text", text: ["Fovea: files changed since you last looked:", ...lines].join("\n") }];
		const collapsed = render(messageComponent(content, { expanded: false }, theme));
		assert.match(collapsed, /^ <accent>\*Fovea: files changed since you last looked:\*<\/accent>$/m);
		assert.match(collapsed, /src\/f0\.ts/);
		assert.doesNotMatch(collapsed, new RegExp(`src/f${MESSAGE_PREVIEW_LINES}\\.ts`));
		assert.match(collapsed, /… 3 more lines/);
		assert.match(
			render(messageComponent(content, { expanded: true }, theme)),
			new RegExp(`src/f${MESSAGE_PREVIEW_LINES + 2}\\.ts`),
		);
		assert.match(
			render(messageComponent("plain \u001b[2J text", { expanded: false }, theme)),
			/plain \\u001b\[2J text/,
		);
	});
});

describe("the ring in words", () => {
	it("says how a root was found, by which crew agent (short id), how long ago, and whether its map is loaded", () => {
		const ring = ExecutionRoots.restore(undefined, 8);
		ring.admit("/b");
		ring.admit("/a");
		const info = new Map([
			["/a", { marker: "git" as const, admittedAt: NOW - 12_000 }],
			[
				"/b",
				{
					marker: "peer" as const,
					admittedAt: NOW - 185_000,
					origin: {
						kind: "crew-agent" as const,
						runId: "20261207-095900-000-0000abcd",
						agentId: "20261207-095900-000-0000abcd:look",
						taskId: "look",
					},
				},
			],
		]);
		const lines = ringText(
			ring,
			(root) => info.get(root),
			(root) => root === "/a",
			NOW,
		);
		assert.deepEqual(lines, [
			"2 of at most 8 roots, most recent first:",
			" 1. /a  [git] · enrolled 12 s ago · map in memory",
			" 2. /b  [peer · agent 0000abcd:look] · enrolled 3 min 5 s ago · map not loaded",
		]);
		assert.deepEqual(
			ringText(
				ExecutionRoots.restore(undefined, 8),
				() => undefined,
				() => false,
				NOW,
			),
			["no roots yet (at most 8; a root enrolls when a tool touches a project)"],
		);
	});
});

describe("tool calls and results", () => {
	const focus = [
		'fovea focus · root /w/shop · "where is the total" · 132 files, 833 symbols',
		"Hottest symbols (exact signature, file:line):",
		"  src/total.ts:1  export function total(prices: number[]): number",
		"  src/receipt.ts:3  export function receipt(prices: number[]): string",
		"  src/tax.ts:2  export function tax(amount: number): number",
		"  src/money.ts:9  export function money(cents: number): string",
		"Hottest files:",
		"  src/total.ts — total",
	].join("\n");
	const review = [
		"contour review · root /w/shop · staged (HEAD→index) · HEAD d287495ad9 master",
		"origin: checkpoint · made just now",
		"1 changed file · 2 findings · advisory (no policy)",
		"findings (rank order):",
		"1. exact-clone a.ts:1 — `a` duplicates `b` (a.ts:2)",
		"   question: Should `a` reuse `b`?",
		"2. complexity a.ts:5 — `c` 1 → 4",
	].join("\n");

	it("picks a code map's count and first section, a review's counts and findings", () => {
		assert.deepEqual(answerShape(focus.split("\n")), {
			summary: "132 files, 833 symbols",
			key: [
				"Hottest symbols (exact signature, file:line):",
				"  src/total.ts:1  export function total(prices: number[]): number",
				"  src/receipt.ts:3  export function receipt(prices: number[]): string",
				"  src/tax.ts:2  export function tax(amount: number): number",
			],
		});
		assert.deepEqual(answerShape(review.split("\n")), {
			summary: "1 changed file · 2 findings · advisory (no policy)",
			key: ["1. exact-clone a.ts:1 — `a` duplicates `b` (a.ts:2)", "2. complexity a.ts:5 — `c` 1 → 4"],
		});
	});

	it("a call header names the tool in words and its main arguments, escaped", () => {
		const header = render(
			callComponent("fovea_focus", { query: "where is\nthe total\u001b[2J", root: "/w/shop/", maxTokens: 900 }, theme),
		);
		assert.equal(
			header,
			'<toolTitle>*fovea focus*</toolTitle><muted> · </muted><accent>"where is the total\\u001b[2J"</accent><muted> · </muted><accent>in shop</accent>',
		);
		const impact = render(
			callComponent("fovea_impact", { files: ["a.ts", "b.ts", "c.ts"], includeUncommitted: true }, theme),
		);
		assert.match(impact, /files a\.ts, b\.ts \+1.*uncommitted changes/);
	});

	it("a result: ✓ with the summary and key lines, the rest on expand; ✗ with the error; progress while partial", () => {
		const result = { content: [{ type: "text" as const, text: focus }], details: {} };
		const keyHint = (_binding: string, description: string) => `ctrl+o ${description}`;
		const collapsed = render(
			resultComponent(result, { expanded: false, isPartial: false }, theme, { isError: false, keyHint }),
		);
		assert.match(collapsed, /^<success>✓<\/success> <text>132 files, 833 symbols<\/text>$/m);
		assert.match(collapsed, /<toolOutput>Hottest symbols/);
		assert.doesNotMatch(collapsed, /money/);
		assert.match(collapsed, /<muted>… 3 more lines \(ctrl\+o to expand\)<\/muted>/);
		const expanded = render(resultComponent(result, { expanded: true, isPartial: false }, theme, { isError: false }));
		assert.match(expanded, /money/);
		assert.doesNotMatch(expanded, /more lines/);
		const failed = { content: [{ type: "text" as const, text: "root '/nope' does not exist\nmore" }], details: {} };
		const error = render(resultComponent(failed, { expanded: false, isPartial: false }, theme, { isError: true }));
		assert.equal(error, "<error>✗ root '/nope' does not exist</error>");
		const partial = { content: [{ type: "text" as const, text: "fovea: indexing /w/shop 12/300 files" }], details: {} };
		const working = render(resultComponent(partial, { expanded: false, isPartial: true }, theme, { isError: false }));
		assert.equal(working, "<warning>… fovea: indexing /w/shop 12/300 files</warning>");
	});
});
