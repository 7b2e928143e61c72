/**
 * The `contour` CLI as a user runs it: a real process (`node packages/contour/src/cli.ts …`) on temporary Git
 * repositories, with Fovea's fact cache in a temp dir. DESIGN: "Exit codes: 0 ok, 1 findings under an explicit
 * policy, 2 usage or input error"; "In JSON, every ranked item or finding names its file (relative to the root) and
 * line, in rank order." Issue: "Optional policy file (forbidden import boundaries) gives exit code 1 in the CLI;
 * advisory by default."
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { closeSync, copyFileSync, existsSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { estimateTokens } from "pi-fovea/engine";
import type { ReportJson } from "../src/report/report-json.ts";
import { LANGUAGES } from "./checkpoint/fixtures.ts";
import { cleanup, commitAll, git, repo, tempDir, write } from "./git/support.ts";

after(cleanup);

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const cacheDir = tempDir("contour-cli-cache-");
const TS = LANGUAGES.typescript;

interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

/**
 * Runs `contour args` in `cwd`. `stdout` is a pipe read whole, unless it is a file descriptor, or `readOnly` bytes:
 * then the reader closes its end after the first chunk, as `| head -c N` does.
 */
function contour(
	args: string[],
	cwd: string,
	stdout: { fd?: number; readOnly?: boolean } = {},
	env: NodeJS.ProcessEnv = {},
): Promise<Run> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [CLI, ...args], {
			cwd,
			env: {
				...process.env,
				FOVEA_CACHE_DIR: cacheDir,
				NODE_OPTIONS: "",
				CONTOUR_MAX_ROOTS: "",
				CONTOUR_CACHE_DIR: "",
				...env,
			},
			stdio: ["ignore", stdout.fd ?? "pipe", "pipe"],
		});
		let out = "";
		let stderr = "";
		child.stdout?.on("data", (chunk: Buffer) => {
			out += chunk.toString("utf8");
			if (stdout.readOnly) child.stdout?.destroy();
		});
		child.stderr?.on("data", (chunk: Buffer) => {
			stderr += chunk.toString("utf8");
		});
		child.on("error", reject);
		child.on("close", (code) => resolve({ code, stdout: out, stderr }));
	});
}

const POLICY = JSON.stringify({ regions: { ui: "src/ui/**", db: "src/db/**" }, forbid: [{ from: "ui", to: "db" }] });

/** A staged change with a complexity finding and a new ui → db import. */
function layered(): string {
	const dir = repo(
		{
			[TS.path]: TS.simple,
			"src/ui/view.ts": "export function view() {\n\treturn 1;\n}\n",
			"src/db/store.ts": "export function store() {\n\treturn 2;\n}\n",
		},
		{ commit: true },
	);
	write(dir, {
		[TS.path]: TS.branchy,
		"src/ui/view.ts": 'import { store } from "../db/store.ts";\nexport function view() {\n\treturn store();\n}\n',
	});
	git(dir, "add", "-A");
	return dir;
}

describe("contour review", { concurrency: true }, () => {
	it("reviews the current directory's Git project as text, labelled with its root; advisory findings exit 0", async () => {
		const dir = layered();
		const run = await contour(["review"], join(dir, "src"));
		assert.equal(run.code, 0, run.stderr);
		assert.match(run.stdout, new RegExp(`^contour review · root ${dir} · staged \\(HEAD→index\\)`));
		assert.match(run.stdout, /origin: cli/);
		assert.match(run.stdout, /advisory \(no policy\)/);
		assert.match(run.stdout, /1\. complexity src\/router\.ts:1 — `route` cyclomatic complexity 1 → 12/);
		assert.match(run.stdout, /exposure: reaches no other file/);
		assert.match(run.stdout, /^imports: 1 added \(1 across directories\), 0 removed$/m);
		// The text fits --max-tokens, keeping the header that names the root.
		for (const budget of [200, 400]) {
			const fitted = await contour(["review", "--max-tokens", String(budget)], dir);
			assert.equal(fitted.code, 0, fitted.stderr);
			assert.ok(estimateTokens(fitted.stdout) <= budget, `${budget}: ${estimateTokens(fitted.stdout)} tokens`);
			assert.match(fitted.stdout, new RegExp(`^contour review · root ${dir} · staged`));
		}
	});

	// With no git on PATH the review used to print `spawn git ENOENT` and wait for a 120 s timer before exiting; the
	// test's own timeout (below that timer) fails a run that waits for it.
	it("with no git on PATH, review says so plainly and exits at once", { timeout: 60_000 }, async () => {
		const dir = repo({ [TS.path]: TS.simple }, { commit: true });
		const run = await contour(["review", "--root", dir], "/", {}, { PATH: tempDir("contour-no-git-") });
		assert.equal(run.code, 2, run.stderr);
		assert.match(run.stderr, /git is not installed or not on PATH/);
		assert.doesNotMatch(run.stderr, /ENOENT/);
	});

	it("--json ranks findings, each naming its file relative to the root and its line", async () => {
		const dir = layered();
		const run = await contour(["review", "--root", dir, "--json"], "/");
		assert.equal(run.code, 0, run.stderr);
		const json = JSON.parse(run.stdout) as ReportJson;
		assert.equal(json.root, dir);
		assert.deepEqual(
			json.findings.map((f) => [f.rank, f.kind, f.file, f.line]),
			[[1, "complexity", TS.path, 1]],
		);
		assert.ok(json.findings[0]?.exposure !== undefined, "the CLI models exposure with a code map");
		assert.deepEqual(
			json.imports?.added,
			[{ file: "src/ui/view.ts", line: 1, target: "src/db/store.ts", crossesDirectory: true, crossesRegion: false }],
			"a new import inside one region is no finding, but the report lists it",
		);
		assert.equal(json.origin.kind, "cli");
		assert.ok(json.work.parses > 0);

		// The JSON fits --max-tokens, or the budget is refused: never exceeded.
		const budget = 700;
		const fitted = await contour(["review", "--root", dir, "--json", "--max-tokens", String(budget)], "/");
		if (fitted.code === 0)
			assert.ok(estimateTokens(fitted.stdout) <= budget, `${estimateTokens(fitted.stdout)} tokens`);
		else assert.match(fitted.stderr, /too small for this review's JSON report/);
		const tiny = await contour(["review", "--root", dir, "--json", "--max-tokens", "100"], "/");
		assert.equal(tiny.code, 2);
		assert.match(tiny.stderr, /--max-tokens 100 is too small for this review's JSON report: .* about \d+ tokens/);
		assert.equal(tiny.stdout, "");
	});

	it("a second process answers an unchanged root from its report on disk; a further edit parses one side", async () => {
		const dir = repo({ [TS.path]: TS.simple, "src/helper.ts": "export const h = 1;\n" }, { commit: true });
		write(dir, { [TS.path]: TS.branchy });
		git(dir, "add", "-A");
		const review = async () => {
			const run = await contour(["review", "--json"], dir);
			assert.equal(run.code, 0, run.stderr);
			return JSON.parse(run.stdout) as ReportJson;
		};
		const first = await review();
		assert.ok(first.work.parses >= 2);
		const second = await review();
		assert.equal(second.reusedFrom, first.id);
		const { gitProcesses, ...rest } = second.work;
		assert.equal(gitProcesses, 3, "rev-parse, config and status; no object reader for a kept report");
		assert.ok(
			Object.values(rest).every((n) => n === 0),
			JSON.stringify(rest),
		);
		assert.deepEqual(second.findings, first.findings);
		write(dir, { [TS.path]: TS.branchy.replace("return x;", "return -x;") });
		git(dir, "add", "-A");
		const third = await review();
		assert.equal(third.reusedFrom, undefined);
		assert.deepEqual(
			[third.work.sidesMeasured, third.work.measuresReused, third.work.importsExtracted, third.work.parses],
			[1, 1, 1, 1],
			JSON.stringify(third.work),
		);
		assert.equal(third.work.blobsRead, 1, "only the new staged side is read");
	});

	it("a policy (the root's file or --policy) that the change violates exits 1", async () => {
		const dir = layered();
		const file = join(tempDir("contour-policy-"), "policy.json");
		writeFileSync(file, POLICY);
		const explicit = await contour(["review", "--root", dir, "--policy", file, "--max-tokens", "400"], dir);
		assert.equal(explicit.code, 1, explicit.stderr);
		assert.match(explicit.stdout, /1\. forbidden-import \[policy violation\] src\/ui\/view\.ts:1/);
		write(dir, { ".pi/contour/policy.json": POLICY });
		const fromRoot = await contour(["review", "--json"], dir);
		assert.equal(fromRoot.code, 1, fromRoot.stderr);
		const json = JSON.parse(fromRoot.stdout) as ReportJson;
		assert.equal(json.policy?.source, join(dir, ".pi/contour/policy.json"));
		assert.deepEqual([json.findings[0]?.kind, json.findings[0]?.policy], ["forbidden-import", true]);
	});

	it("--index-file reviews that index instead of the repository's own; one outside the Git directory is refused", async () => {
		const dir = layered();
		const file = join(tempDir("contour-policy-"), "policy.json");
		writeFileSync(file, POLICY);
		// An index of HEAD's state beside the real one, as Git makes for `commit <path>`.
		execFileSync("git", ["read-tree", "HEAD"], {
			cwd: dir,
			env: { ...process.env, GIT_INDEX_FILE: join(dir, ".git/clean-index") },
		});
		const staged = await contour(["review", "--policy", file], dir);
		assert.equal(staged.code, 1, "the repository's index holds the violation");
		const clean = await contour(["review", "--policy", file, "--index-file", ".git/clean-index", "--json"], dir);
		assert.equal(clean.code, 0, clean.stderr);
		assert.deepEqual((JSON.parse(clean.stdout) as ReportJson).findings, [], "the given index holds no change");

		const outside = join(tempDir("contour-index-"), "index");
		copyFileSync(join(dir, ".git/clean-index"), outside);
		const refused = await contour(["review", "--index-file", outside], dir);
		assert.equal(refused.code, 2);
		assert.match(refused.stderr, /not inside the repository's Git directory/);
		const wrongTarget = await contour(["review", "--working-tree", "--index-file", ".git/clean-index"], dir);
		assert.equal(wrongTarget.code, 2);
		assert.match(wrongTarget.stderr, /--index-file is for a staged review only/);
	});

	it("bad input gives a visible gap: binary, invalid UTF-8, giant, syntax error and submodule", async () => {
		const dir = repo({ [TS.path]: TS.simple }, { commit: true });
		write(dir, {
			[TS.path]: `${TS.branchy}\nfunction broken( {\n`,
			"src/blob.ts": Buffer.from([0x65, 0x00, 0x01]),
			"src/latin1.ts": Buffer.from("export const s = '\xe9';\n", "latin1"),
			"src/giant.ts": `export const big = "${"x".repeat(1.1 * 1024 * 1024)}";\n`,
		});
		git(dir, "add", "-A");
		git(dir, "update-index", "--add", "--cacheinfo", `160000,${git(dir, "rev-parse", "HEAD").trim()},vendor/lib`);
		const run = await contour(["review", "--json"], dir);
		assert.equal(run.code, 0, run.stderr);
		const json = JSON.parse(run.stdout) as ReportJson;
		assert.deepEqual(
			json.gaps.map((gap) => [gap.path, gap.reason]),
			[
				["src/blob.ts", "binary"],
				["src/giant.ts", "too-large"],
				["src/latin1.ts", "invalid-utf8"],
				[TS.path, "parse-error"],
				["vendor/lib", "submodule"],
			],
		);
		assert.equal(json.findings[0]?.kind, "complexity");
	});

	it("a detached HEAD and an empty repository are answered and labelled", async () => {
		const detached = repo({ [TS.path]: TS.simple }, { commit: true });
		git(detached, "checkout", "-q", "--detach");
		const empty = repo();
		const [a, b] = await Promise.all([contour(["review"], detached), contour(["review", "--working-tree"], empty)]);
		assert.equal(a.code, 0, a.stderr);
		assert.match(a.stdout, /HEAD [0-9a-f]{10} detached[\s\S]*no changes \(staged/);
		assert.equal(b.code, 0, b.stderr);
		assert.match(b.stdout, /HEAD none \(no commits yet\)/);
	});
});

describe("usage and input errors exit 2 with a clear message", { concurrency: true }, () => {
	const dir = repo({ "a.ts": "export const a = 1;\n" }, { commit: true });
	const outside = tempDir("contour-outside-");
	const gone = tempDir("contour-gone-");
	rmSync(gone, { recursive: true });
	const invalid = join(outside, "invalid.json");
	writeFileSync(invalid, JSON.stringify({ forbid: [{ from: "ui" }] }));
	const cases: [string, string[], string, RegExp][] = [
		["an unknown flag", ["review", "--bogus"], dir, /Unknown option '--bogus'[\s\S]*usage:/],
		["two targets", ["review", "--staged", "--working-tree"], dir, /choose one of --staged, --working-tree/],
		["an unknown command", ["reveiw"], dir, /unknown command "reveiw"/],
		["a bad --max-tokens", ["review", "--max-tokens", "lots"], dir, /--max-tokens must be an integer/],
		["a non-Git root", ["review", "--root", outside], dir, /is not inside a Git repository/],
		["a deleted root", ["review", "--root", gone], dir, /does not exist \(was the root deleted or moved\?\)/],
		["no Git project here", ["review"], outside, /is in no Git worktree: run contour inside one or pass --root/],
		["an unknown base", ["review", "--base", "nope"], dir, /unknown base "nope"/],
		["an invalid policy file", ["review", "--policy", invalid], dir, /forbid\[0\]\.to must be a non-empty string/],
		["a missing policy file", ["review", "--policy", join(outside, "none.json")], dir, /policy file .* does not exist/],
	];
	for (const [name, args, cwd, message] of cases) {
		it(name, async () => {
			const run = await contour(args, cwd);
			assert.equal(run.code, 2, `${run.stdout}\n${run.stderr}`);
			assert.match(run.stderr, /^contour: /);
			assert.match(run.stderr, message);
			assert.equal(run.stdout, "");
		});
	}
});

describe("what reaches the terminal, and where the output goes", { concurrency: true }, () => {
	/** ESC, BEL and the other C0 controls but newline: none may reach a terminal raw. */
	// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
	const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f]/;

	it("text from the repository in an error is escaped on stderr: policy keys, JSON snippets, conflicted paths", async () => {
		const keyed = repo(
			{ ".pi/contour/policy.json": '{"forbid":[],"\\u001b]0;OWNED\\u0007\\u001b[2Jx":1}' },
			{ commit: true },
		);
		const snippet = repo({ ".pi/contour/policy.json": "\u001b[2Jnot json" }, { commit: true });
		const conflict = repo({ "a\u001b[31m.ts": "a\n" }, { commit: true });
		git(conflict, "checkout", "-q", "-b", "side");
		write(conflict, { "a\u001b[31m.ts": "side\n" });
		commitAll(conflict);
		git(conflict, "checkout", "-q", "main");
		write(conflict, { "a\u001b[31m.ts": "main\n" });
		commitAll(conflict);
		assert.throws(() => git(conflict, "merge", "-q", "side"));
		const cases: [string, RegExp][] = [
			[keyed, /key "\\u001b\]0;OWNED\\u0007\\u001b\[2Jx" is not known/],
			[snippet, /is not valid JSON: .*\\u001b\[2J/],
			[conflict, /unresolved merge conflicts in a\\u001b\[31m\.ts/],
		];
		for (const [dir, message] of cases) {
			const run = await contour(["review"], dir);
			assert.equal(run.code, 2, run.stderr);
			assert.match(run.stderr, message);
			assert.doesNotMatch(run.stderr, RAW_CONTROL);
		}
		const status = await contour(["status"], keyed);
		assert.match(status.stdout, /^policy: invalid: .*\\u001b\]0;OWNED/m);
		assert.doesNotMatch(status.stdout, RAW_CONTROL);
	});

	it("a reader that stops after a few bytes ends the run quietly, with the review's own exit code", async () => {
		const files: Record<string, string> = {};
		for (let i = 0; i < 800; i++)
			files[`gen/m${i}.ts`] = `export function g${i}(a: number): number {\n\treturn a + ${i};\n}\n`;
		const dir = repo({ "keep.ts": "export const keep = 1;\n" }, { commit: true });
		write(dir, files);
		git(dir, "add", "-A");
		const whole = await contour(["review", "--json"], dir);
		assert.equal(whole.code, 0, whole.stderr);
		// Far more than a pipe holds, so the reader leaving makes the CLI's write fail (EPIPE).
		assert.ok(whole.stdout.length > 256 * 1024, `${whole.stdout.length} bytes`);
		const cut = await contour(["review", "--json"], dir, { readOnly: true });
		assert.equal(cut.stderr, "", "no stack trace, no message");
		assert.equal(cut.code, 0);
		assert.ok(cut.stdout.startsWith('{\n  "version": 1,'), "the reader got the start");
		assert.ok(cut.stdout.length < whole.stdout.length);

		write(dir, { ".pi/contour/policy.json": JSON.stringify({ forbid: [{ from: "gen", to: "keep.ts" }] }) });
		write(dir, { "gen/m0.ts": 'import { keep } from "../keep";\nexport const m0 = keep;\n' });
		git(dir, "add", "-A");
		const violated = await contour(["review", "--json"], dir, { readOnly: true });
		assert.deepEqual([violated.code, violated.stderr], [1, ""], "the verdict does not depend on who read it");
	});

	it("output that cannot be written (a full disk) is one line on stderr and exit code 2", {
		skip: !existsSync("/dev/full") && "no /dev/full here",
	}, async () => {
		const dir = layered();
		for (const args of [["review"], ["review", "--json"], ["status"], ["--help"]]) {
			const full = openSync("/dev/full", "w");
			try {
				const run = await contour(args, dir, { fd: full });
				assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
				assert.equal(run.stderr, "contour: cannot write the output: ENOSPC: no space left on device, write\n");
			} finally {
				closeSync(full);
			}
		}
	});
});

describe("contour status", () => {
	it("names the root a review would take and its policy, as JSON", async () => {
		const dir = repo({ ".pi/contour/policy.json": POLICY }, { commit: true });
		const run = await contour(["status", "--json"], dir);
		assert.equal(run.code, 0, run.stderr);
		assert.deepEqual(JSON.parse(run.stdout), {
			root: dir,
			from: "cwd",
			policy: join(dir, ".pi/contour/policy.json"),
			maxRoots: 32,
			cacheDir: join(cacheDir, "contour"),
			reports: [],
		});
	});

	it("lists the root's kept reports, newest first, as text and JSON", async () => {
		const dir = layered();
		assert.match((await contour(["status"], dir)).stdout, /^kept reports: none for this root$/m);
		assert.equal((await contour(["review"], dir)).code, 0);
		assert.equal((await contour(["review", "--working-tree"], dir)).code, 0);
		const run = await contour(["status", "--json"], dir);
		assert.equal(run.code, 0, run.stderr);
		const { reports } = JSON.parse(run.stdout) as {
			reports: { target: string; head: string; files: number; findings: number; origin: string; id: string }[];
		};
		const head = git(dir, "rev-parse", "HEAD").trim();
		assert.deepEqual(
			reports.map((r) => [r.target, r.head, r.files, r.findings, r.origin]),
			[
				["working-tree", head, 2, 1, "cli"],
				["staged", head, 2, 1, "cli"],
			],
		);
		const text = (await contour(["status"], dir)).stdout;
		assert.match(text, /^kept reports: 2, newest first$/m);
		assert.match(
			text,
			new RegExp(
				`^ {2}\\S+ working-tree at ${head.slice(0, 12)} · 2 files · 1 finding · cli · ${reports[0]?.id}$`,
				"m",
			),
		);
	});

	it("help and --help agree (usage on stdout, exit 0); --version names the package's version", async () => {
		const cwd = tempDir("contour-cli-help-");
		const help = await contour(["help"], cwd);
		assert.equal(help.code, 0, help.stderr);
		const dashed = await contour(["--help"], cwd);
		assert.deepEqual([dashed.code, dashed.stdout, dashed.stderr], [0, help.stdout, ""], "help and --help agree");
		assert.match(help.stdout, /^usage:\n {2}contour review/);
		for (const verb of ["review", "status", "hook"]) {
			assert.match(help.stdout, new RegExp(`\\n  ${verb} +\\S`), `a line saying what ${verb} does`);
		}
		assert.match(help.stdout, /--max-tokens N +budget of the text report, 100 to 100000 \(default 2000\)/);
		const version = await contour(["--version"], cwd);
		assert.equal(version.code, 0, version.stderr);
		const { version: expected } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
		assert.equal(version.stdout, `contour ${expected}\n`);
	});

	it("takes --root to its worktree, says when it is in none, and refuses one that does not exist", async () => {
		const dir = repo({ "src/a.ts": "export const a = 1;\n" }, { commit: true });
		const inside = await contour(["status", "--json", "--root", join(dir, "src")], tempDir("contour-cli-cwd-"));
		assert.equal(inside.code, 0, inside.stderr);
		const json = JSON.parse(inside.stdout) as { root: string; requested?: string; from: string };
		assert.deepEqual([json.root, json.requested, json.from], [dir, join(dir, "src"), "explicit"]);
		assert.match(
			(await contour(["status", "--root", join(dir, "src")], dir)).stdout,
			new RegExp(`^contour status · root ${dir} \\(asked for ${dir}/src\\)\n`),
		);

		const plain = tempDir("contour-cli-plain-");
		const outside = await contour(["status", "--root", plain], plain);
		assert.equal(outside.code, 0, outside.stderr);
		assert.match(
			outside.stdout,
			new RegExp(`^contour status · root none \\(${plain} is in no Git worktree: a review there is refused\\)`),
		);

		const missing = await contour(["status", "--root", join(plain, "gone")], plain);
		assert.equal(missing.code, 2);
		assert.match(missing.stderr, /gone does not exist \(was the root deleted or moved\?\)/);
	});
});
