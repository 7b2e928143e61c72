/**
 * The prior a focus ranking gives a file for its role (`file-role.ts`): production code as it scored; tests,
 * fixtures, benchmarks, examples and vendored or generated-looking copies below it, unless the query is about that
 * kind of code (its words, or a path it names). A test repeats the words of what it tests, so without the prior it
 * outranked its subject (Express's `test/req.hostname.js` above `lib/request.js` for "req.hostname", a router
 * benchmark above the router).
 */
import type { AboutRole } from "../terms/index.ts";
import { type FileRole, fileRole } from "./file-role.ts";

/** What a file's score is multiplied by for its role when the query is not about that role. */
const ROLE_FACTOR: Readonly<Record<FileRole, number>> = {
	production: 1,
	test: 0.5,
	fixture: 0.4,
	benchmark: 0.4,
	example: 0.5,
	vendored: 0.3,
	generated: 0.4,
};

/** The roles a query's words make it about, with the kinds of code that go with them. */
const ABOUT_ROLES: Readonly<Record<AboutRole, readonly FileRole[]>> = {
	test: ["test", "fixture"],
	fixture: ["fixture", "test"],
	benchmark: ["benchmark"],
	example: ["example"],
};

/** The roles not to rank down: those the query's words are about, and those of the files it names by path. */
export function rolesAsked(about: ReadonlySet<AboutRole>, namedPaths: readonly string[]): Set<FileRole> {
	const asked = new Set<FileRole>(["production"]);
	for (const word of about) for (const role of ABOUT_ROLES[word]) asked.add(role);
	for (const path of namedPaths) asked.add(fileRole(path));
	return asked;
}

/**
 * Multiplies the score of every scored file (ids below `fileScore.length`) and of every symbol (in `score`, from
 * `fileScore.length` on) by its file's role factor, unless the role is `asked`. `roleOfFile` gives a file id's role.
 * Fills `factor` (one entry per file, a reused vector) with the factor of each file (1 for those left as they were).
 * Symbols are read at the `scored` ids only (the nodes a diffusion reached: `score` is zero at every other symbol),
 * not over every node of the graph.
 */
export function applyRolePrior(
	fileScore: Float64Array,
	score: Float64Array,
	fileOf: Int32Array,
	roleOfFile: (fileId: number) => FileRole,
	asked: ReadonlySet<FileRole>,
	factor: Float64Array,
	scored: Int32Array,
): void {
	factor.fill(1);
	for (let id = 0; id < fileScore.length; id++) {
		if (!((fileScore[id] as number) > 0) && !((score[id] as number) > 0)) continue;
		const role = roleOfFile(id);
		if (!asked.has(role)) factor[id] = ROLE_FACTOR[role];
		fileScore[id] = (fileScore[id] as number) * (factor[id] as number);
	}
	scaleSymbols(score, fileOf, factor, scored, fileScore.length);
}

/** The symbol half of `applyRolePrior`, over the `scored` ids (a loop of its own: see `ranking.ts`). */
function scaleSymbols(
	score: Float64Array,
	fileOf: Int32Array,
	factor: Float64Array,
	scored: Int32Array,
	fileCount: number,
): void {
	for (let k = 0; k < scored.length; k++) {
		const id = scored[k] as number;
		if (id < fileCount) continue;
		const file = fileOf[id] as number;
		if (file >= 0 && (score[id] as number) > 0) score[id] = (score[id] as number) * (factor[file] as number);
	}
}
