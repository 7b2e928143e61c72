/**
 * A test ranked down for its role (`role-prior.ts`) still comes right after the production file it tests: a change
 * to code usually changes its test, so on a commit's subject the test is half the answer, while on an issue it
 * should not come before the code. Its subjects are the files its own edges say it tests or imports, and the best
 * production files whose names hold its name (`__tests__/customElement.spec.ts` → `src/apiCustomElement.ts`, which
 * it reaches only through the package's index). A test whose subject ranks low stays down.
 */
import { type CodeGraph, RELATION_CODE, WEAK } from "../graph/index.ts";
import { type FileRole, subjectStem } from "./file-role.ts";
import { topK } from "./ranking.ts";

/** A lifted test scores this share of its best subject's score (never more than before the prior). */
const FOLLOW_SUBJECT = 0.9;
/** How many of the best production files a test's name is matched against. */
const NAME_CANDIDATES = 20;
/** Names shorter than this match too much (`api`, `io`) to link a test. */
const MIN_STEM = 4;

/**
 * Lifts each ranked-down test file (a `factor` below 1, a test by its path) to `FOLLOW_SUBJECT` of its best
 * subject's score, when that is more than its score now and no more than its score before the prior; in place.
 * `before` is a reused vector of one entry per file, to hold the scores as they came; `roleOfFile` gives a file id's
 * role.
 */
export function followSubjects(
	graph: CodeGraph,
	fileOf: Int32Array,
	fileScore: Float64Array,
	factor: Float64Array,
	before: Float64Array,
	roleOfFile: (fileId: number) => FileRole,
): void {
	before.set(fileScore);
	const production = topK(before, 0, fileScore.length, NAME_CANDIDATES, before, (id) => factor[id] === 1).map(
		(ranked) => ({ id: ranked.id, stem: subjectStem(graph.nodes[ranked.id]?.path ?? "").toLowerCase() }),
	);
	for (let id = 0; id < fileScore.length; id++) {
		const f = factor[id] as number;
		if (!(f < 1) || roleOfFile(id) !== "test") continue;
		const path = graph.nodes[id]?.path ?? "";
		let best = 0;
		const consider = (subject: number) => {
			if (subject !== id && (before[subject] as number) > best) best = before[subject] as number;
		};
		for (const subject of testedOrImported(graph, fileOf, id)) consider(subject);
		const stem = subjectStem(path).toLowerCase();
		if (stem.length >= MIN_STEM) {
			for (const candidate of production) if (sameName(stem, candidate.stem)) consider(candidate.id);
		}
		const lifted = Math.min((before[id] as number) / f, FOLLOW_SUBJECT * best);
		if (lifted > (fileScore[id] as number)) fileScore[id] = lifted;
	}
}

/** Whether a test's name and a file's name (both lower-case) name the same thing: one holds the other. */
function sameName(testStem: string, fileStem: string): boolean {
	return fileStem.length >= MIN_STEM && (fileStem.includes(testStem) || testStem.includes(fileStem));
}

/** The files `fileId`'s own edges say it tests or imports, by `graph`'s directed edges. */
function* testedOrImported(graph: CodeGraph, fileOf: Int32Array, fileId: number): Generator<number> {
	const path = graph.nodes[fileId]?.path;
	const edges = path === undefined ? undefined : graph.directed.edgesOf(path);
	if (edges === undefined) return;
	for (let k = 0; k < edges.r.length; k++) {
		const relation = (edges.r[k] as number) & ~WEAK;
		if (relation !== RELATION_CODE.tests && relation !== RELATION_CODE.imports) continue;
		const target = fileOf[edges.b[k] as number] ?? -1;
		if (target >= 0) yield target;
	}
}
