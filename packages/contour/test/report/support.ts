/** Synthetic reports for the report tests: any size, no repository needed. */
import { emptyWork, freezeReport, type ReportDraft, type ReviewReport } from "../../src/report/report.ts";
import type { Finding } from "../../src/review/index.ts";

let serial = 0;

/** A complexity finding at `file:line` with exposure reaching `reach` files. */
export function finding(file: string, line: number, reach = 0): Finding {
	return {
		kind: "complexity",
		file,
		line,
		title: `\`f${line}\` cyclomatic complexity 3 → 14`,
		before: { file, line, value: 3 },
		after: { file, line, value: 14 },
		witnesses: [
			{ file, line, side: "before" },
			{ file, line, side: "after" },
		],
		question: `Can \`f${line}\` (complexity 3 → 14) be split so each branch is testable alone?`,
		exposure: { reach, files: Array.from({ length: Math.min(reach, 5) }, (_, i) => `src/caller${i}.ts`) },
	};
}

/** A frozen report of `root` with `findings` findings and `gaps` binary-file gaps; `key` defaults to a unique one. */
export function makeReport(
	root: string,
	options: { findings?: number; gaps?: number; key?: string; target?: ReviewReport["target"] } = {},
): ReviewReport {
	serial++;
	const findings = Array.from({ length: options.findings ?? 1 }, (_, i) => finding(`src/file${i}.ts`, i + 1, i % 4));
	const draft: ReportDraft = {
		id: `report-${serial}`,
		key: options.key ?? `key-${serial}`,
		root,
		target: options.target ?? "staged",
		snapshot: {
			head: "0123456789abcdef0123456789abcdef01234567",
			branch: "main",
			indexDigest: "fedcba9876543210fedcba9876543210fedcba98",
			worktreeDigest: "aa".repeat(32),
			objectFormat: "sha1",
		},
		origin: { kind: "checkpoint", agent: "worker-1", sessionId: "session-9" },
		createdAt: "2026-01-02T03:04:05.000Z",
		files: findings.map((f) => ({
			path: f.file,
			status: "modified",
			lines: { before: 10, after: 40 },
			sourceLines: {},
		})),
		deltas: [],
		findings,
		gaps: Array.from({ length: options.gaps ?? 0 }, (_, i) => ({
			path: `assets/image${i}.bin.ts`,
			reason: "binary" as const,
			detail: "binary content (a NUL byte)",
		})),
		policy: null,
		policyViolations: 0,
		notes: [],
		work: emptyWork(),
	};
	return freezeReport(draft);
}
