/** Synthetic reports for the report tests: any size, no repository needed. */
import { emptyWork, freezeReport, type ReportDraft, type ReviewReport } from "../../src/report/report.ts";
import type { Finding, ImportChanges } from "../../src/review/index.ts";

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

/**
 * Import changes: `added` new imports of src/app.ts (every second one into another directory, every third into
 * another region) and one removed import.
 */
export function importChanges(added: number): ImportChanges {
	const edges = Array.from({ length: added }, (_, i) => {
		const target = i % 3 === 2 ? `lib/dep${i}.ts` : i % 2 === 1 ? `src/util/dep${i}.ts` : `src/dep${i}.ts`;
		return {
			file: "src/app.ts",
			line: i + 1,
			target,
			crossesDirectory: i % 3 === 2 || i % 2 === 1,
			crossesRegion: i % 3 === 2,
		};
	});
	return {
		added: edges,
		removed: [{ file: "src/old.ts", line: 2, target: "src/gone.ts", crossesDirectory: false, crossesRegion: false }],
		addedCount: added,
		removedCount: 1,
		addedAcrossDirectories: edges.filter((e) => e.crossesDirectory).length,
		addedAcrossRegions: edges.filter((e) => e.crossesRegion).length,
	};
}

/**
 * A frozen report of `root` with `findings` findings, `gaps` binary-file gaps and, when `imports` is given, that many
 * added imports (see `importChanges`); `key` defaults to a unique one.
 */
export function makeReport(
	root: string,
	options: { findings?: number; gaps?: number; imports?: number; key?: string; target?: ReviewReport["target"] } = {},
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
		...(options.imports === undefined ? {} : { imports: importChanges(options.imports) }),
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
