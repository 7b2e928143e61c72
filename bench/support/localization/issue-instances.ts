// The issue instances of the localization benchmark, read from two public datasets at pinned commits (the search
// tool's fetched mirrors, never copied here): SWE-bench Verified (Python), MSWE's JavaScript set and, held out, MSWE's
// per-repository Go, Java and Rust files. Each instance is
// normalized to the repository, the commit its issue was filed against, the issue text and the gold files.
import { createHash } from "node:crypto";
import { git } from "../git.ts";
import { corpusPath, DATASETS, MSWE_HELD_OUT } from "./corpora.ts";
import { patchGoldFiles } from "./patch-files.ts";

/** One issue to localize: the text an agent would be given and the files its fix changes. */
export interface IssueInstance {
	id: string;
	/** "owner/name", as the corpus directory names it. */
	repo: string;
	/** The commit the fix was written against: the tree both rankers see. */
	baseCommit: string;
	/** The issue text (SWE-bench's `problem_statement`; for MSWE, its resolved issues' titles and bodies). */
	query: string;
	/** Files the fix changes that exist at `baseCommit` (SWE-bench's `expected_spans` keys; MSWE: from `fix_patch`). */
	gold: string[];
}

/** What a dataset held and what could not be read from it. */
export interface LoadedInstances {
	instances: IssueInstance[];
	/** Lines or records that were not a valid instance (MSWE's file ends with a Git LFS pointer), with why. */
	unreadable: string[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function text(record: Record<string, unknown>, key: string, where: string): string {
	const value = record[key];
	if (typeof value !== "string" || value === "") throw new Error(`${where}: "${key}" is not a non-empty string`);
	return value;
}

async function datasetText(
	corpusDir: string,
	dataset: { repo: string; commit: string; path: string },
): Promise<string> {
	const repo = corpusPath(corpusDir, dataset.repo);
	if (repo === undefined) throw new Error(`dataset repository ${dataset.repo} is not under ${corpusDir}`);
	return git(repo, ["show", `${dataset.commit}:${dataset.path}`]);
}

/** SWE-bench Verified's instances (all 500; the caller keeps the repositories it has). */
export async function sweBenchVerified(corpusDir: string): Promise<LoadedInstances> {
	const parsed: unknown = JSON.parse(await datasetText(corpusDir, DATASETS.sweBenchVerified));
	if (!Array.isArray(parsed)) throw new Error("SWE-bench Verified: the file is not a JSON array");
	const instances: IssueInstance[] = [];
	const unreadable: string[] = [];
	parsed.forEach((item: unknown, i) => {
		try {
			if (!isRecord(item)) throw new Error(`item ${i}: not an object`);
			const id = text(item, "instance_id", `item ${i}`);
			const spans = item.expected_spans;
			if (!isRecord(spans)) throw new Error(`${id}: "expected_spans" is not an object`);
			instances.push({
				id,
				repo: text(item, "repo", id),
				baseCommit: text(item, "base_commit", id),
				query: text(item, "problem_statement", id),
				gold: Object.keys(spans),
			});
		} catch (error) {
			unreadable.push((error as Error).message);
		}
	});
	return { instances, unreadable };
}

/** MSWE's JavaScript instances; lines that are not JSON (the trailing LFS pointer) are counted as unreadable. */
export function msweJavaScript(corpusDir: string): Promise<LoadedInstances> {
	return msweInstances(corpusDir, DATASETS.msweJs.path);
}

/**
 * One held-out language of MSWE (`MSWE_HELD_OUT`): its repositories' files read as `msweJavaScript` reads its one
 * file, each instance named as the repository's mirror spells it. A file that is a Git LFS pointer, not JSON lines,
 * leaves its line unreadable, so it is reported and skipped.
 */
export async function msweHeldOut(corpusDir: string, group: "go" | "java" | "rust"): Promise<LoadedInstances> {
	const loaded: LoadedInstances = { instances: [], unreadable: [] };
	for (const file of MSWE_HELD_OUT.filter((f) => f.group === group)) {
		const { instances, unreadable } = await msweInstances(corpusDir, file.path);
		const own = (repo: string) => repo.toLowerCase() === file.repo.toLowerCase();
		loaded.instances.push(...instances.filter((i) => own(i.repo)).map((i) => ({ ...i, repo: file.repo })));
		loaded.unreadable.push(
			...unreadable.map((why) => `${file.path}: ${why}`),
			...instances.filter((i) => !own(i.repo)).map((i) => `${file.path}: ${i.id} is of ${i.repo}`),
		);
	}
	return loaded;
}

/** MSWE's JSON lines at `path` of the dataset's pinned commit: query = resolved issues' text, gold = `fix_patch`. */
async function msweInstances(corpusDir: string, path: string): Promise<LoadedInstances> {
	const instances: IssueInstance[] = [];
	const unreadable: string[] = [];
	const lines = (await datasetText(corpusDir, { ...DATASETS.msweJs, path })).split("\n");
	lines.forEach((line, i) => {
		if (line.trim() === "") return;
		try {
			let item: unknown;
			try {
				item = JSON.parse(line);
			} catch {
				throw new Error(`line ${i + 1}: not JSON (${line.slice(0, 40)})`);
			}
			if (!isRecord(item)) throw new Error(`line ${i + 1}: not an object`);
			const id = text(item, "instance_id", `line ${i + 1}`);
			const base = item.base;
			if (!isRecord(base)) throw new Error(`${id}: "base" is not an object`);
			const issues = Array.isArray(item.resolved_issues) ? item.resolved_issues.filter(isRecord) : [];
			const query = issues
				.map((issue) => [issue.title, issue.body].filter((s) => typeof s === "string" && s !== "").join("\n"))
				.filter((s) => s !== "")
				.join("\n\n");
			if (query === "") throw new Error(`${id}: no resolved issue text`);
			instances.push({
				id,
				repo: `${text(item, "org", id)}/${text(item, "repo", id)}`,
				baseCommit: text(base, "sha", id),
				query,
				gold: patchGoldFiles(text(item, "fix_patch", id)),
			});
		} catch (error) {
			unreadable.push((error as Error).message);
		}
	});
	return { instances, unreadable };
}

/**
 * At most `limit` instances of `repo`, chosen by the SHA-1 of their ids (a fixed, repository-independent sample, so
 * large sets like sympy's are cut the same way in every run), ordered by base commit then id.
 */
export function sampleInstances(all: readonly IssueInstance[], repo: string, limit: number): IssueInstance[] {
	const hash = (id: string) => createHash("sha1").update(id).digest("hex");
	return all
		.filter((i) => i.repo === repo)
		.map((i) => ({ i, key: hash(i.id) }))
		.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
		.slice(0, limit)
		.map(({ i }) => i)
		.sort((a, b) => (a.baseCommit < b.baseCommit ? -1 : a.baseCommit > b.baseCommit ? 1 : a.id < b.id ? -1 : 1));
}
