// Where Fovea loses: the cases in which its best gold file ranks furthest below the best baseline's, with both top
// fives, so whoever improves the ranking sees what came first instead (tests, dependencies, look-alike names).
import { isTestPath } from "../../../packages/fovea/src/engine/index.ts";
import type { CaseDetail, CorpusResult } from "./corpus-result.ts";

/** The baseline of a case whose best gold file ranked highest (ties: the first named). */
function bestBaseline(c: CaseDetail): string | undefined {
	let best: string | undefined;
	for (const [name, score] of Object.entries(c.scores)) {
		if (name !== "fovea" && (best === undefined || score.rr > (c.scores[best]?.rr ?? 0))) best = name;
	}
	return best;
}

/** Fovea's and the best baseline's reciprocal ranks apart, for sorting losses. */
function gap(c: CaseDetail): number {
	const best = bestBaseline(c);
	return best === undefined ? 0 : (c.scores[best]?.rr ?? 0) - (c.scores.fovea?.rr ?? 0);
}

/**
 * Per task and repository: how often Fovea's first answer is a test file that is not gold (against the best
 * baseline's), and the `n` largest losses with both top fives and every gold file's rank.
 */
export function renderLosses(results: readonly CorpusResult[], n: number): string {
	const lines: string[] = [];
	for (const r of results) {
		if (r.cases.length === 0) continue;
		const strayTest = (c: CaseDetail, name: string) => {
			const first = c.scores[name]?.top[0];
			return first !== undefined && isTestPath(first) && !c.gold.includes(first);
		};
		const foveaTests = r.cases.filter((c) => strayTest(c, "fovea")).length;
		const baselineTests = r.cases.filter((c) => strayTest(c, bestBaseline(c) ?? "fovea")).length;
		const lost = r.cases.filter((c) => gap(c) > 0).length;
		lines.push(
			`-- ${r.task} ${r.repo}: Fovea behind the best baseline on ${lost}/${r.cases.length} cases; a non-gold test first: Fovea ${foveaTests}, best baseline ${baselineTests}`,
		);
		for (const c of [...r.cases].sort((a, b) => gap(b) - gap(a)).slice(0, n)) {
			if (gap(c) <= 0) break;
			const best = bestBaseline(c) as string;
			const ranks = (name: string) =>
				Object.entries(c.scores[name]?.ranks ?? {})
					.map(([path, rank]) => `${path}:${rank ?? "-"}`)
					.join(" ");
			lines.push(`   ${c.id} ${JSON.stringify(c.query.slice(0, 100))}`);
			lines.push(`     fovea ${ranks("fovea")} | top ${c.scores.fovea?.top.slice(0, 5).join(" ")}`);
			lines.push(`     ${best} ${ranks(best)} | top ${c.scores[best]?.top.slice(0, 5).join(" ")}`);
		}
	}
	return lines.join("\n");
}
