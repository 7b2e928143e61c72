// The `fovea` CLI as a user runs it: a real process (`node packages/fovea/src/cli.ts …`) on a temporary Git
// repository holding a small polyglot project, with its fact cache in a temp dir (FOVEA_CACHE_DIR).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { git, gitRepo } from "../../../test/e2e/support/workspaces.ts";
import { estimateTokens } from "../src/engine/render/budget.ts";
import { INVOICE_SIGNATURE, lineOf, POLYGLOT, POLYGLOT_GAPS, POLYGLOT_MAPPED } from "./fixtures/polyglot.ts";
import { type NodeRun, runNode } from "./support/run-node.ts";
import { tempDirs } from "./support/temp-tree.ts";

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const PACKAGE_VERSION = (
	JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;
const INVOICE_LINE = lineOf(POLYGLOT, "src/billing/invoice.ts", "export function computeInvoiceTotal");

interface Item {
	file: string;
	line: number;
	kind: string;
	name: string;
	score: number;
	signature?: string;
}

interface FocusJson {
	root: string;
	query: string;
	files: Item[];
	symbols: Item[];
	gaps: { path: string; reason: string }[];
	partial: { path: string; reason: string }[];
}

interface StatusJson {
	root: string;
	files: number;
	gaps: number;
	partial: number;
	truncated: boolean;
	summarized: number;
	work: {
		scans: number;
		filesRead: number;
		filesParsed: number;
		cacheHits: number;
		cacheWrites: number;
		graphsBuilt: number;
		parsingThreads: number;
		filesByThreads: number;
	};
}

const temps = tempDirs();
/** A temp dir named by `prefix` (what a leftover came from), as its real path: the CLI prints real paths. */
async function temp(prefix: string): Promise<string> {
	return temps.add(await realpath(await mkdtemp(join(tmpdir(), prefix))));
}

let base = "";
let repo = "";
/** The fact cache shared by the tests that do not count work. */
let sharedCache = "";

before(async () => {
	base = await temp("fovea-cli-");
	repo = gitRepo(join(base, "shop"), POLYGLOT, { commit: true });
	sharedCache = await temp("fovea-cli-cache-");
});

after(temps.removeAll);

/** Runs `fovea …` in `cwd` with the fact cache in `cache`. */
function fovea(
	args: string[],
	options: { cwd?: string; cache?: string; env?: Record<string, string> } = {},
): Promise<NodeRun> {
	const env = { FOVEA_CACHE_DIR: options.cache ?? sharedCache, ...options.env };
	return runNode([CLI, ...args], { cwd: options.cwd ?? repo, env });
}

/** A run that must succeed; returns its stdout. */
async function ok(
	args: string[],
	options: { cwd?: string; cache?: string; env?: Record<string, string> } = {},
): Promise<string> {
	const run = await fovea(args, options);
	assert.equal(run.code, 0, `fovea ${args.join(" ")} exited ${run.code}: ${run.stderr}`);
	return run.stdout;
}

const descending = (items: readonly Item[]) =>
	items.every((item, i) => i === 0 || (items[i - 1] as Item).score >= item.score);

describe("fovea CLI", () => {
	it("focus --json ranks files and symbols, root-relative with 1-based lines, in rank order", async () => {
		const answer = JSON.parse(await ok(["focus", "computeInvoiceTotal", "--json", "--root", repo])) as FocusJson;
		assert.equal(answer.root, repo);
		assert.equal(answer.query, "computeInvoiceTotal");
		assert.deepEqual(answer.symbols[0], {
			file: "src/billing/invoice.ts",
			line: INVOICE_LINE,
			kind: "function",
			name: "computeInvoiceTotal",
			score: answer.symbols[0]?.score,
			signature: INVOICE_SIGNATURE,
		});
		assert.equal(answer.files[0]?.file, "src/billing/invoice.ts");
		assert.ok(
			answer.files.some((f) => f.file === "src/checkout.ts"),
			"the caller is ranked through the graph",
		);
		assert.ok(descending(answer.files), `files in rank order: ${answer.files.map((f) => f.score).join(", ")}`);
		assert.ok(descending(answer.symbols), `symbols in rank order: ${answer.symbols.map((s) => s.score).join(", ")}`);
		for (const item of [...answer.files, ...answer.symbols]) {
			assert.ok(!isAbsolute(item.file) && existsSync(join(repo, item.file)), `${item.file} is relative to the root`);
			assert.ok(Number.isInteger(item.line) && item.line >= 1, `${item.file}:${item.line} is a 1-based line`);
		}
		for (const symbol of answer.symbols) {
			const source = (POLYGLOT[symbol.file] as string).split("\n")[symbol.line - 1] as string;
			assert.ok(
				source.includes(symbol.name.split(".").at(-1) as string),
				`${symbol.file}:${symbol.line} declares ${symbol.name}: ${source}`,
			);
		}
		assert.deepEqual(
			answer.gaps.map((g) => g.path),
			[...POLYGLOT_GAPS],
		);

		const filtered = JSON.parse(
			await ok(["focus", "computeInvoiceTotal", "--json", "--kind", "interface", "--root", repo]),
		) as FocusJson;
		assert.ok(filtered.symbols.length > 0 && filtered.symbols.every((s) => s.kind === "interface"));
		assert.equal(filtered.symbols[0]?.name, "LineItem");
	});

	it("focus text is labelled with the root and fits --max-tokens", async () => {
		const text = await ok(["focus", "computeInvoiceTotal", "--root", repo]);
		assert.ok(text.startsWith(`fovea focus · root ${repo} · "computeInvoiceTotal" · ${POLYGLOT_MAPPED} files`), text);
		assert.ok(text.includes(`\n  src/billing/invoice.ts:${INVOICE_LINE}  ${INVOICE_SIGNATURE}\n`), text);
		assert.match(text, /^Not mapped: 2 files: /m);
		for (const maxTokens of [200, 300]) {
			const small = (
				await ok(["focus", "computeInvoiceTotal", "--max-tokens", String(maxTokens), "--root", repo])
			).replace(/\n$/, "");
			assert.ok(estimateTokens(small) <= maxTokens, `--max-tokens ${maxTokens}: ${small.length} chars`);
			assert.ok(small.startsWith(`fovea focus · root ${repo}`));
		}
	});

	it("the smallest accepted --max-tokens is either refused or still names the root and the coverage gaps", async () => {
		const run = await fovea(["focus", "computeInvoiceTotal", "--max-tokens", "50", "--root", repo]);
		if (run.code === 2) {
			assert.match(run.stderr, /--max-tokens/);
			return;
		}
		assert.equal(run.code, 0, run.stderr);
		const text = run.stdout.replace(/\n$/, "");
		assert.ok(estimateTokens(text) <= 50, `fits: ${text.length} chars`);
		assert.ok(text.startsWith(`fovea focus · root ${repo} · `), `the answer names its root:\n${text}`);
		assert.match(text, /^Not mapped: 2 files: /m, `gaps are not dropped silently:\n${text}`);
	});

	it("sketch lists languages, connected files and gaps; --json gives counts", async () => {
		const text = await ok(["sketch", "--root", repo]);
		assert.ok(
			text.startsWith(`fovea sketch · root ${repo} · ${POLYGLOT_MAPPED} files (typescript 5, python 3, go 1)`),
			text,
		);
		assert.match(text, /^Most connected files \(symbols inside\):\n {2}src\/checkout\.ts — Cart, CheckoutService$/m);
		assert.match(text, /^Not mapped: 2 files: 1 minified \(public\/vendor\.min\.js\); 1 unsupported-language/m);
		const json = JSON.parse(await ok(["sketch", "--json", "--root", repo])) as {
			root: string;
			files: number;
			gaps: { path: string }[];
			text: string;
		};
		assert.equal(json.root, repo);
		assert.equal(json.files, POLYGLOT_MAPPED);
		assert.deepEqual(
			json.gaps.map((g) => g.path),
			[...POLYGLOT_GAPS],
		);
		assert.equal(`${json.text}\n`, text);
	});

	it("status --json counts files, gaps and this run's work; a second run reuses the fact cache", async () => {
		const cache = await temp("fovea-cli-status-cache-");
		const first = JSON.parse(await ok(["status", "--json", "--root", repo], { cache })) as StatusJson;
		assert.deepEqual(
			{ root: first.root, files: first.files, gaps: first.gaps, truncated: first.truncated },
			{ root: repo, files: POLYGLOT_MAPPED, gaps: POLYGLOT_GAPS.length, truncated: false },
		);
		assert.equal(first.work.scans, 1);
		assert.equal(first.work.filesParsed, POLYGLOT_MAPPED, "a cold cache parses every mapped file");
		assert.equal(first.work.cacheWrites, POLYGLOT_MAPPED);
		assert.equal(first.work.graphsBuilt, 0, "status counts files and gaps: it builds no graph");
		assert.equal(first.summarized, 0, "nothing was summarized to fit the memory budget");

		const second = JSON.parse(await ok(["status", "--json", "--root", repo], { cache })) as StatusJson;
		assert.equal(second.files, POLYGLOT_MAPPED);
		assert.equal(second.work.filesParsed, 0, "the second run parses nothing");
		assert.equal(second.work.cacheHits, POLYGLOT_MAPPED);
		assert.equal(second.work.cacheWrites, 0);

		const text = await ok(["status", "--root", repo], { cache });
		assert.match(
			text,
			new RegExp(
				`^fovea status · root ${repo}\\n${POLYGLOT_MAPPED} files mapped \\(0 best effort\\), 2 not mapped\\nNot mapped: 2 files: `,
			),
		);
		assert.match(text, /0 parsed/);
		// The fixture is one root commit, an import that couples nothing; a directory outside Git says it has no history.
		assert.match(text, /\nchange coupling: 0 commits read, up to HEAD [0-9a-f]{12}\n/);
		const plain = await temp("fovea-cli-status-plain-");
		await writeFile(join(plain, "a.ts"), "export const a = 1;\n");
		assert.match(
			await ok(["status", "--root", plain], { cache }),
			/\nchange coupling: none \(not a Git repository\)\n/,
		);
	});

	it("a cold status of a megabyte of source in few files parses each file once, on two threads, and builds no graph", async () => {
		// 60 files of ~26 KB: far below the 500 files from which a parsing thread starts, above the megabyte of source.
		const heavy = await temp("fovea-cli-status-heavy-");
		const body = Array.from(
			{ length: 400 },
			(_, i) => `export function step${i}(n: number): number {\n\treturn n + ${i};\n}\n`,
		);
		for (let f = 0; f < 60; f++) await writeFile(join(heavy, `m${f}.ts`), `// module ${f}\n${body.join("")}`);
		const cache = await temp("fovea-cli-status-heavy-cache-");
		const status = JSON.parse(
			await ok(["status", "--json", "--root", heavy], { cache, env: { FOVEA_EXTRACT_THREADS: "1" } }),
		) as StatusJson;
		assert.equal(status.files, 60);
		assert.equal(status.work.filesParsed, 60, "each file parsed once");
		assert.equal(status.work.parsingThreads, 1, "a parsing thread took part");
		assert.equal(status.work.graphsBuilt, 0);
	});

	it("status and focus write out an escape sequence a file name holds", async () => {
		const odd = await temp("fovea-cli-odd-");
		await writeFile(join(odd, "main.ts"), "export function main() {}\n");
		await writeFile(join(odd, "bell\u0007\u001b[2J.rb"), "puts 1\n");
		for (const args of [["status"], ["focus", "main"]]) {
			const text = await ok([...args, "--root", odd]);
			assert.ok(text.includes("bell\\u0007\\u001b[2J.rb"), text);
			// biome-ignore lint/suspicious/noControlCharactersInRegex: no control character but the line breaks
			assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f]/);
		}
	});

	it("status, sketch and focus name the files mapped only best effort: syntax errors, bytes that are not UTF-8", async () => {
		const rough = gitRepo(
			join(base, "rough"),
			{
				"src/ok.ts": "export function settle(total: number): number {\n\treturn total;\n}\n",
				"src/broken.ts": "export function settleBroken( {\n\treturn ;;; }}}\n",
				"src/latin.py": "# cafe\ndef settle_latin():\n    pass\n",
			},
			{ commit: true },
		);
		// `gitRepo` writes text; the Python file gets its byte that is not UTF-8 here.
		await writeFile(
			join(rough, "src/latin.py"),
			Buffer.concat([Buffer.from("# caf"), Buffer.from([0xe9]), Buffer.from("\ndef settle_latin():\n    pass\n")]),
		);
		const cache = await temp("fovea-cli-rough-cache-");
		const line = "Mapped best effort: 2 files: 1 parse-errors (src/broken.ts); 1 not-utf8 (src/latin.py).";
		const status = await ok(["status", "--root", rough], { cache });
		assert.match(status, /\n3 files mapped \(2 best effort\), 0 not mapped\n/);
		assert.ok(status.includes(`\n${line}\n`), status);
		assert.equal((JSON.parse(await ok(["status", "--json", "--root", rough], { cache })) as StatusJson).partial, 2);
		assert.ok((await ok(["sketch", "--root", rough], { cache })).endsWith(`\n${line}\n`));
		assert.ok((await ok(["focus", "settle", "--root", rough], { cache })).endsWith(`\n${line}\n`));
		const focus = JSON.parse(await ok(["focus", "settle", "--json", "--root", rough], { cache })) as FocusJson;
		for (const args of [
			["impact", "src/ok.ts"],
			["dwell", "src/ok.ts"],
		]) {
			const answer = JSON.parse(await ok([...args, "--json", "--root", rough], { cache })) as FocusJson;
			assert.deepEqual(answer.partial, focus.partial, `${args[0]} --json lists the best-effort files too`);
			assert.deepEqual(answer.gaps, [], args[0]);
		}
		assert.deepEqual(focus.partial, [
			{ path: "src/broken.ts", reason: "parse-errors" },
			{ path: "src/latin.py", reason: "not-utf8" },
		]);
	});

	it("--root defaults to the current directory's project, and a relative --root resolves from the cwd", async () => {
		const inside = JSON.parse(
			await ok(["focus", "applyTax", "--json"], { cwd: join(repo, "src", "billing") }),
		) as FocusJson;
		assert.equal(inside.root, repo, "a subdirectory's project is the repository");
		assert.deepEqual(
			{ file: inside.symbols[0]?.file, line: inside.symbols[0]?.line },
			{ file: "src/billing/tax.ts", line: lineOf(POLYGLOT, "src/billing/tax.ts", "export function applyTax") },
		);
		const text = await ok(["sketch"], { cwd: join(repo, "analytics") });
		assert.ok(text.startsWith(`fovea sketch · root ${repo} ·`), text);

		const relative = JSON.parse(
			await ok(["focus", "applyTax", "--json", "--root", "shop/src"], { cwd: base }),
		) as FocusJson;
		assert.equal(relative.root, join(repo, "src"), "an explicit --root is used as named");
		assert.equal(relative.symbols[0]?.file, "billing/tax.ts");
	});

	it("--path and file arguments are normalized and must stay inside the root", async () => {
		const seeded = async (path: string) => {
			const answer = JSON.parse(await ok(["focus", "zzqq", "--path", path, "--json"])) as FocusJson;
			return answer.files[0]?.file;
		};
		for (const path of ["src/checkout.ts", "./src/checkout.ts", "src/./checkout.ts", join(repo, "src/checkout.ts")]) {
			assert.equal(await seeded(path), "src/checkout.ts", path);
		}
		for (const args of [
			["focus", "x", "--path", "../outside.ts"],
			["focus", "x", "--path", "/etc/passwd"],
			["dwell", "src/../../outside.ts"],
		]) {
			const run = await fovea(args);
			assert.equal(run.code, 2, `fovea ${args.join(" ")}: ${run.stderr}`);
			assert.match(run.stderr, /is not a file inside the root/);
		}
	});

	it("every --json answer says whether the walk stopped at a limit before it saw the whole root", async () => {
		const deep = join(await temp("fovea-cli-deep-"), "deep");
		let dir = deep;
		for (let level = 1; level <= 45; level++) {
			dir = join(dir, `d${level}`);
			await mkdir(dir, { recursive: true });
			await writeFile(join(dir, "f.ts"), `export function level${level}(): number {\n\treturn ${level};\n}\n`);
		}
		const cache = await temp("fovea-cli-deep-cache-");
		const json = async (args: string[], root: string) =>
			JSON.parse(await ok([...args, "--root", root, "--json"], { cache })) as { truncated?: unknown };
		for (const args of [["focus", "level3"], ["sketch"], ["dwell", "d1/f.ts"], ["impact", "d1/f.ts"], ["status"]]) {
			assert.equal((await json(args, deep)).truncated, true, args.join(" "));
			// The same command on the whole repository, naming one of its files where the command takes one.
			const whole = args.map((arg) => (arg === "d1/f.ts" ? "src/billing/tax.ts" : arg));
			assert.equal((await json(whole, repo)).truncated, false, whole.join(" "));
		}
	});

	it("an answer with no match quotes the query as written, and the words it searched for", async () => {
		assert.match(
			await ok(["focus", "!!!"]),
			/^No file or symbol matches "!!!": it holds no word or name to search for\.$/m,
		);
		assert.match(await ok(["focus", "zzqqxx"]), /^No file or symbol matches "zzqqxx" \(searched for zzqqxx\)\.$/m);
	});

	it("--max-tokens bounds --json too: each list is cut to its share of the budget, the counts stay whole", async () => {
		const dir = join(await temp("fovea-cli-gaps-"), "many-gaps");
		await mkdir(dir, { recursive: true });
		await writeFile(join(dir, "a.ts"), "export function alpha(): number {\n\treturn 1;\n}\n");
		for (let i = 0; i < 300; i++) await writeFile(join(dir, `s${i}.rb`), "puts 1\n");
		const cache = await temp("fovea-cli-gaps-cache-");
		const json = async (tokens: string) =>
			JSON.parse(await ok(["focus", "alpha", "--root", dir, "--json", "--max-tokens", tokens], { cache })) as {
				gaps: unknown[];
				gapCount: number;
			};
		const small = await json("200");
		assert.equal(small.gaps.length, 10);
		assert.equal(small.gapCount, 300);
		const large = await json("20000");
		assert.equal(large.gaps.length, 300);
		const sketch = JSON.parse(await ok(["sketch", "--root", dir, "--json", "--max-tokens", "300"], { cache })) as {
			gaps: unknown[];
			gapCount: number;
		};
		assert.deepEqual([sketch.gaps.length, sketch.gapCount], [10, 300]);
	});

	it("a file argument may be an absolute path inside the root", async () => {
		const run = await fovea(["dwell", join(repo, "src/billing/tax.ts"), "--root", repo]);
		assert.equal(run.code, 0, run.stderr);
		assert.match(run.stdout, /"around src\/billing\/tax\.ts"/);
	});

	it("help, --help and --version answer on stdout with exit 0; no command is a usage error", async () => {
		const help = await fovea(["help"]);
		assert.equal(help.code, 0, help.stderr);
		const dashed = await fovea(["--help"]);
		assert.deepEqual([dashed.code, dashed.stdout, dashed.stderr], [0, help.stdout, ""], "help and --help agree");
		for (const verb of ["sketch", "focus", "dwell", "impact", "status"]) {
			assert.match(help.stdout, new RegExp(`\\n  ${verb} +\\S`), `a line saying what ${verb} does`);
		}
		assert.match(help.stdout, /--max-tokens N +budget of the text answer, 200 to 20000 \(default 1500\)/);
		assert.match(help.stdout, /^usage:\n {2}fovea sketch/);
		const version = await fovea(["--version"]);
		assert.equal(version.code, 0, version.stderr);
		assert.equal(version.stdout, `fovea ${PACKAGE_VERSION}\n`);
		const none = await fovea([]);
		assert.equal(none.code, 2);
	});

	it("usage and input errors exit 2 with a message on stderr and nothing on stdout", async () => {
		const cases: { args: string[]; message: RegExp }[] = [
			{ args: ["focus"], message: /focus needs a query/ },
			{ args: ["focus", "   "], message: /focus needs a query/ },
			{ args: ["frobnicate"], message: /unknown command 'frobnicate'/ },
			{ args: ["focus", "x", "--max-tokens", "abc"], message: /--max-tokens must be an integer/ },
			{ args: ["status", "--bogus"], message: /Unknown option '--bogus'/ },
			{ args: ["focus", "x", "--kind", "klass"], message: /--kind: unknown symbol kind "klass": use function, method/ },
			{ args: ["dwell", "/etc/hosts"], message: /\/etc\/hosts is not a file inside the root/ },
			{ args: ["focus", "x", "--max-tokens", "0x200"], message: /--max-tokens must be an integer/ },
			{ args: ["focus", "x", "--max-tokens", "1e3"], message: /--max-tokens must be an integer/ },
			{ args: ["status", "a", "b"], message: /status takes no arguments, got "a" "b"/ },
			{ args: ["sketch", "x"], message: /sketch takes no arguments/ },
			{ args: ["status", "--root", ""], message: /--root needs a directory, got an empty string/ },
		];
		const runs = await Promise.all(cases.map(({ args }) => fovea(args)));
		cases.forEach(({ args, message }, i) => {
			const run = runs[i] as NodeRun;
			assert.equal(run.code, 2, `fovea ${args.join(" ")} exits 2 (stderr: ${run.stderr})`);
			assert.match(run.stderr, message, `fovea ${args.join(" ")}`);
			assert.match(run.stderr, /^usage:/m, `fovea ${args.join(" ")} shows the usage`);
			assert.equal(run.stdout, "", `fovea ${args.join(" ")} prints no answer`);
		});
		// A root that is not there is a wrong path, not a wrong command line: no usage.
		const roots: { args: string[]; message: RegExp }[] = [
			{
				args: ["focus", "x", "--root", "/nonexistent/fovea-root"],
				message: /^fovea: --root \/nonexistent\/fovea-root does not exist \(was the root deleted or moved\?\)$/m,
			},
			{
				args: ["sketch", "--root", join(repo, "src/checkout.ts")],
				message: /--root .*checkout\.ts is not a directory/,
			},
		];
		for (const { args, message } of roots) {
			const run = await fovea(args);
			assert.equal(run.code, 2, `fovea ${args.join(" ")} exits 2 (stderr: ${run.stderr})`);
			assert.match(run.stderr, message);
			assert.doesNotMatch(run.stderr, /usage:/, `fovea ${args.join(" ")} shows no usage`);
			assert.equal(run.stdout, "");
		}
		const [bare, help] = await Promise.all([fovea([]), fovea(["--help"])]);
		assert.equal(bare.code, 2, "no command is a usage error");
		assert.match(bare.stdout + bare.stderr, /^usage:/m);
		assert.equal(help.code, 0);
		assert.match(help.stdout, /fovea focus "<query>"/);
	});
});

describe("fovea CLI output", () => {
	/** `fovea status` with its standard output on `stdout`; resolves with the exit code and stderr. */
	function statusTo(stdout: "closed-pipe" | number): Promise<{ code: number | null; stderr: string }> {
		const child = spawn(process.execPath, [CLI, "status"], {
			cwd: repo,
			env: { ...process.env, FOVEA_CACHE_DIR: sharedCache },
			stdio: ["ignore", stdout === "closed-pipe" ? "pipe" : stdout, "pipe"],
		});
		// The reader goes away before the command writes a byte: its write meets EPIPE.
		child.stdout?.destroy();
		let stderr = "";
		child.stderr?.on("data", (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
	}

	it("ends quietly when the reader of its output goes away, and in one line when the output cannot be written", async () => {
		const closed = await statusTo("closed-pipe");
		assert.equal(closed.code, 0, closed.stderr);
		assert.equal(closed.stderr, "", "no stack trace");
		const full = openSync("/dev/full", "w");
		try {
			const run = await statusTo(full);
			assert.equal(run.code, 2);
			assert.match(run.stderr, /^fovea: cannot write the output: .*ENOSPC/);
			assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
		} finally {
			closeSync(full);
		}
	});

	it("writes out the control characters of an error message", async () => {
		const run = await fovea(["focus", "x", "--root", "/nonexistent/\u001b[2Jroot"]);
		assert.equal(run.code, 2);
		assert.ok(!run.stderr.includes("\u001b"), run.stderr);
		assert.match(run.stderr, /\\u001b\[2Jroot does not exist/);
	});
});

describe("fovea CLI dwell and impact", () => {
	it("dwell ranks the dwelt-on file first and its neighbourhood after it", async () => {
		const answer = JSON.parse(await ok(["dwell", "src/billing/tax.ts", "--json", "--factor", "3", "--root", repo])) as {
			files: Item[];
		};
		assert.equal(answer.files[0]?.file, "src/billing/tax.ts");
		assert.ok(answer.files.some((f) => f.file === "src/billing/invoice.ts"));
		assert.ok(descending(answer.files));
	});

	it("impact ranks what a change exposes beyond the changed file, each with why; --json says why too", async () => {
		const answer = JSON.parse(await ok(["impact", "src/billing/tax.ts", "--json", "--root", repo])) as {
			changed: string[];
			files: (Item & { why: string; evidence: Record<string, unknown> })[];
			dependsOn: unknown[];
		};
		assert.deepEqual(answer.changed, ["src/billing/tax.ts"]);
		assert.ok(!answer.files.some((f) => f.file === "src/billing/tax.ts"));
		assert.equal(answer.files[0]?.file, "src/billing/invoice.ts");
		assert.match(answer.files[0]?.why ?? "", /^calls applyTax(; similar text \(rare word stems: [a-z, ]+\))?$/);
		assert.deepEqual(answer.files[0]?.evidence, { relation: "calls", on: "applyTax", hops: 1 });
		const checkout = answer.files.find((f) => f.file === "src/checkout.ts");
		assert.match(checkout?.why ?? "", /^via src\/billing\/invoice\.ts \(calls computeInvoiceTotal\)(;|$)/);
		assert.deepEqual(answer.dependsOn, []);
		const text = await ok(["impact", "src/checkout.ts", "--root", repo]);
		assert.ok(!/^ {2}src\/billing\//m.test(text), `checkout's own dependencies are not its exposure:\n${text}`);
		assert.match(
			text,
			/\nIt depends on \(not exposure\): src\/billing\/invoice\.ts \(calls\), src\/util\/format\.ts \(calls\)/,
		);
	});

	it("impact --json gives a file that changed with the queried one its evidence, and the history it read", async () => {
		const coupled = gitRepo(
			join(await temp("fovea-cli-coupled-"), "shop"),
			{ "README.md": "shop\n" },
			{ commit: true },
		);
		for (let i = 0; i < 2; i++) {
			await mkdir(join(coupled, "src"), { recursive: true });
			await writeFile(join(coupled, "src/pay.ts"), `export const pay = ${i};\n`);
			await writeFile(join(coupled, "src/ledger.ts"), `export const ledger = ${i};\n`);
			git(coupled, "add", "-A");
			git(coupled, "commit", "-qm", `change ${i}`);
		}
		const answer = JSON.parse(await ok(["impact", "src/pay.ts", "--json", "--root", coupled])) as {
			coupling: { available: boolean; commits: number };
			files: (Item & { why: string; coupling?: { count: number; window: number } })[];
		};
		assert.deepEqual([answer.coupling.available, answer.coupling.commits], [true, 2]);
		assert.deepEqual(answer.files[0], {
			...answer.files[0],
			file: "src/ledger.ts",
			why: "changed with it 2 times in the last 2 commits",
			coupling: { count: 2, window: 2 },
		});
	});

	it("a dwell or an impact naming nothing the map holds is an input error (exit 2); nothing outside the change is an answer", async () => {
		for (const args of [
			["impact", "src/no-such-file.ts"],
			["dwell", "src/no-such-file.ts"],
			["dwell", "nosuch.py"],
			["impact", "nosuch.py"],
			["impact", "--symbol", "noSuchSymbolAnywhere"],
		]) {
			const run = await fovea([...args, "--root", repo]);
			assert.equal(run.code, 2, `${args.join(" ")}: ${run.stdout}${run.stderr}`);
			assert.equal(run.stdout, "");
			assert.match(run.stderr, /^fovea: none of ".+" is in the map of /, run.stderr);
			assert.doesNotMatch(run.stderr, /usage:/, "the command line was right: no usage");
		}
		const alone = await ok(["impact", "tools/migrate.go", "--root", repo]);
		assert.match(
			alone,
			/\nNothing in this root depends on the change: no importer, caller, subclass or test of it was found\./,
			alone,
		);
		const base = await fovea(["impact", "--base", "no-such-branch", "--root", repo]);
		assert.equal(base.code, 2);
		assert.match(base.stderr, /unknown base "no-such-branch" in .*: it names no commit/);
	});

	it("dwell and impact without a subject, or with a bad factor or base, are usage errors", async () => {
		for (const args of [["dwell"], ["impact"], ["dwell", "a.ts", "--factor", "0"], ["impact", "--base", "--exec=x"]]) {
			const run = await fovea([...args, "--root", repo]);
			assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
			assert.equal(run.stdout, "");
		}
	});
});

describe("fovea CLI: routes and shared literals", () => {
	it("focus --json lists the routes a query names with their handler; impact --json says what a literal shares", async () => {
		const dir = gitRepo(
			join(await temp("fovea-cli-routes-"), "api"),
			{
				"src/server.ts":
					'import { showOrder } from "./orders";\ndeclare const app: { get(p: string, h: unknown): void };\napp.get("/orders/:id", showOrder);\n',
				"src/orders.ts": "export function showOrder(): void {}\n",
				"src/trace.ts": 'export const header = "x-trace-token";\n',
				"src/log.ts": 'export const logged = "x-trace-token";\n',
			},
			{ commit: true },
		);
		const focus = JSON.parse(await ok(["focus", "GET /orders/17", "--json", "--root", dir])) as FocusJson & {
			routes?: { method: string; path: string; handler: string; file: string; why: string }[];
		};
		assert.equal(focus.files[0]?.file, "src/orders.ts");
		assert.deepEqual(focus.routes?.[0], {
			method: "GET",
			path: "/orders/:id",
			file: "src/server.ts",
			line: 3,
			handler: "showOrder",
			at: "src/orders.ts:1",
			why: "same route GET /orders/:id",
		});
		const impact = JSON.parse(await ok(["impact", "src/trace.ts", "--json", "--root", dir])) as {
			files: { file: string; why: string; evidence?: { relation: string; shares?: string } }[];
		};
		const log = impact.files.find((f) => f.file === "src/log.ts");
		assert.match(log?.why ?? "", /^shares the literal "x-trace-token"(;|$)/, "the literal's reason first");
		assert.deepEqual([log?.evidence?.relation, log?.evidence?.shares], ["literal", '"x-trace-token"']);
	});
});
