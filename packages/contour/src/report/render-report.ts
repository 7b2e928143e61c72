/**
 * A report as text for the model and for people, within a token budget. By priority: a header naming the root and
 * the snapshot (HEAD, index and worktree digests), the origin on its own line (no ids or raw times: those are the
 * JSON's), a summary, the structural story of production code (complexity up and down, callables added, removed
 * and renamed, import cycles made and broken), findings in rank order (each with its question, witnesses and
 * modelled exposure), test-only changes, notes, import and callable deltas and files. The
 * coverage line (what the review could not cover) and a count of what did not fit are reserved first, so they are
 * always there however small the budget.
 */
import { BudgetedText, budgetChars } from "pi-fovea/text-budget";
import type { Finding } from "../review/index.ts";
import type { ReviewReport } from "./report.ts";
import { storyLines } from "./story-lines.ts";
import { structuralStory } from "./structural-story.ts";
import { timeAgo } from "./time-ago.ts";

/** Room kept for the line that counts what did not fit. */
const OMITTED_ROOM = 100;

/** Limits of a rendering. */
export interface RenderOptions {
	maxTokens: number;
	/** Findings shown at most (default: as many as fit). */
	maxFindings?: number;
	/**
	 * Whose words name the limits: a command line's flags (`--max-tokens`, the CLI and `/contour review`) or a tool's
	 * parameters (`maxTokens`, `contour_review`, the default).
	 */
	speaksOf?: "flags" | "parameters";
	/** The time ages are told from (default now). */
	now?: number;
}

/** `staged (HEAD→index)` and the like. */
export function describeTarget(report: Pick<ReviewReport, "target" | "base">): string {
	if (report.target === "staged") return "staged (HEAD→index)";
	if (report.target === "working-tree") return "working tree (HEAD→worktree)";
	return `branch (merge-base of ${report.base?.ref ?? "?"} → HEAD)`;
}

/** The one-line header: root, target and the snapshot's identity. */
export function reportHeader(report: ReviewReport): string {
	const { head, branch, indexDigest, worktreeDigest } = report.snapshot;
	const headPart = head === null ? "HEAD none (no commits yet)" : `HEAD ${short(head)}`;
	const branchPart = branch === null ? " detached" : ` ${branch}`;
	const asked = report.requestedRoot === undefined ? "" : ` (asked for ${report.requestedRoot})`;
	return `contour review · root ${report.root}${asked} · ${describeTarget(report)} · ${headPart}${branchPart} · index ${short(indexDigest)} · worktree ${short(worktreeDigest)}`;
}

/** The report as text within `options.maxTokens` (by `estimateTokens`). */
export function renderReport(report: ReviewReport, options: RenderOptions): string {
	const out = new BudgetedText(options.maxTokens);
	const limit = Math.max(0, out.remaining);
	const coverage = clip(coverageLine(report), Math.floor(limit / 3));
	const reserve = budgetChars(coverage) + 1 + OMITTED_ROOM + 1;
	out.add(clip(reportHeader(report), Math.max(40, limit - reserve - 1)));
	out.add(clip(originLine(report, options.now ?? Date.now()), out.remaining - reserve - 1), reserve);
	out.add(summaryLine(report), reserve);
	const story = structuralStory(report);
	let detailsLeft = 0;
	// What changed in production code comes first: a reviewer reads the change before the questions about it.
	for (const line of storyLines("production changes", story.production, story.cycles)) {
		if (!out.add(clip(line, 400), reserve)) detailsLeft++;
	}
	const maxFindings = Math.min(report.findings.length, options.maxFindings ?? report.findings.length);
	let shown = 0;
	if (maxFindings > 0 && out.fits(40, 1, reserve)) {
		out.add("findings (rank order; exposure is modelled reach through the code graph, not severity):", reserve);
		for (const finding of report.findings.slice(0, maxFindings)) {
			const lines = findingLines(finding, shown + 1);
			const chars = lines.reduce((sum, line) => sum + budgetChars(line), 0);
			if (!out.fits(chars, lines.length, reserve)) break;
			for (const line of lines) out.add(line, reserve);
			shown++;
		}
	}
	const noCycles = { added: [], broken: [] };
	for (const line of storyLines("test-only changes", story.tests, noCycles)) {
		if (!out.add(clip(line, 400), reserve)) detailsLeft++;
	}
	const notes = [...(report.exposureNote === undefined ? [] : [report.exposureNote]), ...report.notes];
	for (const note of notes) if (!out.add(clip(`note: ${note}`, 300), reserve)) detailsLeft++;
	// Per-file lines only once every finding asked for is shown: a finding matters more than a line count.
	const details = [importLine(report), deltaLine(report), ...(shown === maxFindings ? fileLines(report) : [])];
	for (const line of details) if (line !== "" && !out.add(line, reserve)) detailsLeft++;
	if (shown < maxFindings) detailsLeft += report.files.length;
	if (coverage !== "") out.add(coverage);
	const left = report.findings.length - shown;
	if (left > 0 || detailsLeft > 0) {
		const parts = [];
		if (left > 0) parts.push(`${left} more finding${left === 1 ? "" : "s"}`);
		if (detailsLeft > 0) parts.push(`${detailsLeft} more detail line${detailsLeft === 1 ? "" : "s"}`);
		const raise = options.speaksOf === "flags" ? "--max-tokens or --max-findings" : "maxTokens or maxFindings";
		out.add(clip(`… ${parts.join(", ")} not shown (raise ${raise})`, OMITTED_ROOM));
	}
	return out.toString();
}

/**
 * Who asked and when, for people: the origin's kind and agent, the report's age, and whether it repeats an earlier
 * analysis. Report and session ids and exact times are for machines: the JSON form keeps them.
 */
function originLine(report: ReviewReport, now: number): string {
	const { kind, agent } = report.origin;
	const who = [kind, ...(agent === undefined ? [] : [`agent ${agent}`])];
	const reused = report.reusedFrom === undefined ? "" : " · nothing changed since the kept report it repeats";
	return `origin: ${who.join(" · ")} · made ${timeAgo(report.createdAt, now)}${reused}`;
}

function summaryLine(report: ReviewReport): string {
	const files = report.files.length;
	if (files === 0) return `no changes (${describeTarget(report)})`;
	const findings = report.findings.length;
	const policy =
		report.policy === null
			? "advisory (no policy)"
			: `policy ${report.policy.source}: ${report.policyViolations} violation${report.policyViolations === 1 ? "" : "s"}`;
	return `${files} changed file${files === 1 ? "" : "s"} · ${findings} finding${findings === 1 ? "" : "s"} · ${policy}`;
}

function findingLines(finding: Finding, rank: number): string[] {
	const flag = `${finding.policy === true ? " [policy violation]" : ""}${finding.tests === true ? " [tests]" : ""}`;
	const lines = [
		`${rank}. ${finding.kind}${flag} ${finding.file}:${finding.line} — ${finding.title}`,
		`   question: ${finding.question}`,
	];
	if (finding.witnesses.length > 0) {
		const shown = finding.witnesses.slice(0, 6).map((w) => `${w.side} ${w.file}:${w.line}`);
		const more = finding.witnesses.length > 6 ? ` (+${finding.witnesses.length - 6})` : "";
		lines.push(`   witnesses: ${shown.join(" · ")}${more}`);
	}
	if (finding.exposure !== undefined) {
		const { reach, files } = finding.exposure;
		const named = files.length === 0 ? "" : ` (${files.join(", ")}${reach > files.length ? ", …" : ""})`;
		lines.push(
			reach === 0
				? "   exposure: reaches no other file"
				: `   exposure: reaches ${reach} file${reach === 1 ? "" : "s"}${named}`,
		);
	}
	return lines;
}

function deltaLine(report: ReviewReport): string {
	if (report.deltas.length === 0) return "";
	const counts = new Map<string, number>();
	for (const delta of report.deltas) counts.set(delta.status, (counts.get(delta.status) ?? 0) + 1);
	return `callables: ${[...counts].map(([status, n]) => `${n} ${status}`).join(", ")}`;
}

/** `imports: 12 added (9 across directories, 3 across regions), 2 removed`, or "" when none moved. */
function importLine(report: ReviewReport): string {
	const imports = report.imports;
	if (imports === undefined || imports.addedCount + imports.removedCount === 0) return "";
	const across = [
		...(imports.addedAcrossDirectories > 0 ? [`${imports.addedAcrossDirectories} across directories`] : []),
		...(imports.addedAcrossRegions > 0 ? [`${imports.addedAcrossRegions} across regions`] : []),
	];
	const added = `${imports.addedCount} added${across.length > 0 ? ` (${across.join(", ")})` : ""}`;
	return `imports: ${added}, ${imports.removedCount} removed`;
}

function fileLines(report: ReviewReport): string[] {
	return report.files.map((file) => {
		const from = file.previousPath === undefined ? "" : ` (from ${file.previousPath})`;
		const { before, after } = file.lines;
		const lines = before === undefined && after === undefined ? "" : ` ${before ?? "–"}→${after ?? "–"} lines`;
		return `file: ${file.path}${from} ${file.status}${lines}${file.gap === undefined ? "" : ` [not covered: ${file.gap}]`}`;
	});
}

/** What was not covered, always present: "covered: everything changed" or the gaps by reason. */
function coverageLine(report: ReviewReport): string {
	const gaps = report.gaps;
	if (gaps.length === 0) return report.files.length === 0 ? "" : "not covered: nothing (every changed file analysed)";
	const byReason = new Map<string, string[]>();
	for (const gap of gaps) byReason.set(gap.reason, [...(byReason.get(gap.reason) ?? []), gap.path]);
	const parts = [...byReason].map(([reason, paths]) => {
		const unique = [...new Set(paths)];
		return `${reason}: ${unique.slice(0, 3).join(", ")}${unique.length > 3 ? ` (+${unique.length - 3})` : ""}`;
	});
	const paths = new Set(gaps.map((gap) => gap.path)).size;
	return `not covered: ${gaps.length} gap${gaps.length === 1 ? "" : "s"} in ${paths} file${paths === 1 ? "" : "s"} — ${parts.join("; ")}`;
}

function short(digest: string): string {
	return digest.slice(0, 10);
}

function clip(text: string, max: number): string {
	if (max <= 0) return "";
	return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}
