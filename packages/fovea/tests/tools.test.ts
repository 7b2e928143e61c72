// Fovea's tools as the model calls them: `fovea_focus` and `fovea_sketch` through the real Pi host (scripted faux
// model, the extension loaded like `pi -e`), on real temporary Git repositories holding a small polyglot project.
// Covers the answer's shape and ranking, the token budget, root resolution and enrollment, incrementality across
// edits and restarts, and indexing progress. Parse counts are not visible through the tool, so the incremental
// index is also checked on the engine's `CodeMap` directly (last describe).

import assert from "node:assert/strict";
import { existsSync, statSync } from "node:fs";
import { appendFile, rm, writeFile } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { JsonObject } from "@earendil-works/pi-ai";
import { cleanupTempDirs, type PiHost, type ToolOutcome, tempDir } from "../../../test/e2e/harness.ts";
import {
	commandText,
	FOVEA_ENTRY,
	git,
	gitRepo,
	listedRoots,
	newestRing,
	withHost,
	writeFiles,
} from "../../../test/e2e/support/workspaces.ts";
import { CodeMap } from "../src/engine/map/code-map.ts";
import { estimateTokens } from "../src/engine/render/budget.ts";
import {
	generatedProject,
	INVOICE_SIGNATURE,
	lineOf,
	POLYGLOT,
	POLYGLOT_GAPS,
	POLYGLOT_MAPPED,
} from "./fixtures/polyglot.ts";
import { type NodeRun, runNode } from "./support/run-node.ts";

const FOVEA = fileURLToPath(new URL("../src/extension/index.ts", import.meta.url));
const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

// Every fact cache of this process lives in a temp dir, never in the user's home. Set before any host starts.
const CACHE_DIR = await tempDir("fovea-tools-cache-");
process.env.FOVEA_CACHE_DIR = CACHE_DIR;

after(cleanupTempDirs);

interface Item {
	file: string;
	line: number;
	kind: string;
	name: string;
	score: number;
	signature?: string;
}

interface FocusDetails {
	root: string;
	files: Item[];
	symbols: Item[];
	gaps: number;
	bestEffort: number;
}

interface SketchDetails {
	root: string;
	files: number;
	gaps: number;
	bestEffort: number;
}

const host = (cwd: string, body: (host: PiHost) => Promise<void>) => withHost({ cwd, extensions: [FOVEA] }, body);

/** Runs one tool call in its own turn and returns its result. */
async function call(pi: PiHost, name: string, args: JsonObject): Promise<ToolOutcome> {
	const run = await pi.runTools([{ name, arguments: args }]);
	assert.equal(run.toolResults.length, 1);
	return run.toolResults[0] as ToolOutcome;
}

/** A successful `fovea_focus` call. */
async function focus(
	pi: PiHost,
	args: Record<string, string | number | boolean>,
): Promise<{ text: string; details: FocusDetails }> {
	const result = await call(pi, "fovea_focus", args);
	assert.equal(result.isError, false, `fovea_focus ${JSON.stringify(args)} failed: ${result.text}`);
	return { text: result.text, details: result.details as FocusDetails };
}

/** A successful `fovea_sketch` call. */
async function sketch(
	pi: PiHost,
	args: Record<string, string | number | boolean>,
): Promise<{ text: string; details: SketchDetails }> {
	const result = await call(pi, "fovea_sketch", args);
	assert.equal(result.isError, false, `fovea_sketch ${JSON.stringify(args)} failed: ${result.text}`);
	return { text: result.text, details: result.details as SketchDetails };
}

/** The item lines (indented by two spaces) under the section headed `heading`, up to the next unindented line. */
function section(text: string, heading: string): string[] {
	const lines = text.split("\n");
	const start = lines.indexOf(heading);
	if (start < 0) return [];
	const items: string[] = [];
	for (const line of lines.slice(start + 1)) {
		if (!line.startsWith("  ")) break;
		items.push(line.slice(2));
	}
	return items;
}

const SYMBOLS_HEADING = "Hottest symbols (exact signature, file:line):";
const FILES_HEADING = "Hottest files:";

/** Number of listed items (symbols and files) in a focus answer. */
const itemCount = (text: string) => section(text, SYMBOLS_HEADING).length + section(text, FILES_HEADING).length;

/** A fresh Git repository `name` under `base` holding the polyglot project. */
const polyglotRepo = (base: string, name = "shop") => gitRepo(join(base, name), POLYGLOT, { commit: true });

/** Runs the CLI with this process's fact cache; resolves with its exit code and output. */
function cli(args: string[], cwd: string): Promise<NodeRun> {
	return runNode([CLI, ...args], { cwd, env: { FOVEA_CACHE_DIR: CACHE_DIR } });
}

describe("fovea_focus through the real Pi host", () => {
	it("puts the named function's exact signature and file:line first, heats its callers through the graph, lists gaps", async () => {
		const repo = polyglotRepo(await tempDir());
		await host(repo, async (pi) => {
			const { text, details } = await focus(pi, { query: "computeInvoiceTotal" });
			assert.ok(
				text.startsWith(`fovea focus · root ${repo} · "computeInvoiceTotal" · ${POLYGLOT_MAPPED} files, `),
				`header names the root: ${text.split("\n")[0]}`,
			);
			assert.equal(details.root, repo);

			const line = lineOf(POLYGLOT, "src/billing/invoice.ts", "export function computeInvoiceTotal");
			const symbols = section(text, SYMBOLS_HEADING);
			assert.equal(symbols[0], `src/billing/invoice.ts:${line}  ${INVOICE_SIGNATURE}`, text);
			assert.deepEqual(details.symbols[0], {
				file: "src/billing/invoice.ts",
				line,
				kind: "function",
				name: "computeInvoiceTotal",
				score: details.symbols[0]?.score,
				signature: INVOICE_SIGNATURE,
			});

			// checkout.ts shares no term with the query: it is hot only because it imports and calls the function.
			const files = section(text, FILES_HEADING).map((l) => l.split(" — ")[0]);
			assert.ok(files.includes("src/checkout.ts"), `the calling file is among the hottest files:\n${text}`);
			assert.equal(files[0], "src/billing/invoice.ts");
			const ranked = details.files.map((f) => f.file);
			const checkout = ranked.indexOf("src/checkout.ts");
			assert.ok(checkout > 0, `details.files ranks the caller: ${ranked.join(", ")}`);
			for (const unrelated of ["analytics/metrics.py", "tools/migrate.go"]) {
				const at = ranked.indexOf(unrelated);
				assert.ok(at < 0 || at > checkout, `${unrelated} (unconnected) does not outrank the caller`);
			}
			for (const item of [...details.files, ...details.symbols]) {
				assert.ok(!isAbsolute(item.file) && existsSync(join(repo, item.file)), `${item.file} is root-relative`);
			}
			for (let i = 1; i < details.files.length; i++) {
				assert.ok((details.files[i - 1] as Item).score >= (details.files[i] as Item).score, "files in rank order");
			}

			assert.match(
				text,
				/^Not mapped: 2 files: 1 minified \(public\/vendor\.min\.js\); 1 unsupported-language \(scripts\/deploy\.rb\)\.$/m,
			);
			assert.equal(details.gaps, POLYGLOT_GAPS.length);
		});
	});

	it("finds Python and Go definitions of the same project with their file:line", async () => {
		const repo = polyglotRepo(await tempDir());
		await host(repo, async (pi) => {
			const py = await focus(pi, { query: "build_report" });
			assert.deepEqual(
				{ file: py.details.symbols[0]?.file, line: py.details.symbols[0]?.line, kind: py.details.symbols[0]?.kind },
				{
					file: "analytics/report.py",
					line: lineOf(POLYGLOT, "analytics/report.py", "def build_report"),
					kind: "function",
				},
			);
			assert.ok(
				py.details.files.some((f) => f.file === "analytics/metrics.py"),
				"the module build_report calls into is warm",
			);
			const go = await focus(pi, { query: "RunMigration", kind: "function" });
			assert.deepEqual(
				{ file: go.details.symbols[0]?.file, line: go.details.symbols[0]?.line },
				{ file: "tools/migrate.go", line: lineOf(POLYGLOT, "tools/migrate.go", "func RunMigration") },
			);
			assert.ok(
				go.details.symbols.every((s) => s.kind === "function"),
				"kind filters the ranked symbols",
			);
		});
	});

	it("finds a file by words only its text holds (a comment), through the real host", async () => {
		const repo = polyglotRepo(await tempDir());
		await host(repo, async (pi) => {
			// "pending schema" is in one comment of tools/migrate.go and in no name or path of the project.
			const { text, details } = await focus(pi, { query: "pending schema" });
			assert.equal(details.files[0]?.file, "tools/migrate.go", text);
			const files = section(text, FILES_HEADING).map((l) => l.split(" — ")[0]);
			assert.equal(files[0], "tools/migrate.go");
			assert.ok(
				details.symbols.some((s) => s.file === "tools/migrate.go" && s.name === "RunMigration"),
				`the file's symbols are heated through it:\n${text}`,
			);
		});
	});

	it("fits every budget by the chars/3 estimate, shows more with more budget, and clamps invalid budgets", async () => {
		const repo = polyglotRepo(await tempDir());
		await host(repo, async (pi) => {
			const counts: number[] = [];
			for (const maxTokens of [200, 300, 600, 1500]) {
				const { text, details } = await focus(pi, { query: "computeInvoiceTotal checkout", maxTokens });
				// The top files are listed at every budget, not crowded out by signatures.
				const listed = section(text, FILES_HEADING).map((l) => l.split(" — ")[0]);
				assert.deepEqual(
					listed.slice(0, 3),
					details.files.slice(0, 3).map((f) => f.file),
					`maxTokens ${maxTokens}:\n${text}`,
				);
				assert.ok(
					Math.ceil(text.length / 3) <= maxTokens,
					`maxTokens ${maxTokens}: ${text.length} chars ≈ ${estimateTokens(text)} tokens`,
				);
				assert.ok(text.startsWith(`fovea focus · root ${repo}`), `maxTokens ${maxTokens} keeps the header`);
				assert.match(text, /^Not mapped: 2 files: /m, `maxTokens ${maxTokens} keeps the coverage gaps`);
				counts.push(itemCount(text));
			}
			for (let i = 1; i < counts.length; i++) {
				assert.ok((counts[i] as number) >= (counts[i - 1] as number), `monotone item counts: ${counts.join(", ")}`);
			}
			assert.ok((counts[0] as number) >= 1, `the smallest budget still lists something: ${counts.join(", ")}`);
			assert.ok((counts[0] as number) < (counts[3] as number), `a larger budget shows more: ${counts.join(", ")}`);

			// Out-of-range budgets are clamped to 200–20000: a small but useful answer, or everything; never an error.
			for (const maxTokens of [0, -5]) {
				const { text } = await focus(pi, { query: "computeInvoiceTotal checkout", maxTokens });
				assert.ok(estimateTokens(text) <= 200, `maxTokens ${maxTokens} answers within 200 tokens: ${text.length}`);
				assert.ok(text.startsWith(`fovea focus · root ${repo}`), `maxTokens ${maxTokens} keeps the header`);
				assert.equal(itemCount(text), counts[0], `maxTokens ${maxTokens} shows what 200 shows:\n${text}`);
				assert.match(text, /^Not mapped: 2 files: /m);
			}
			const huge = await focus(pi, { query: "computeInvoiceTotal checkout", maxTokens: 1e9 });
			assert.ok(estimateTokens(huge.text) <= 20_000);
			assert.equal(itemCount(huge.text), counts[3], "maxTokens 1e9 shows everything, like 1500 on this project");
			assert.doesNotMatch(huge.text, /^Beyond this:/m);
		});
	});
});

describe("fovea_dwell and fovea_impact within maxTokens", () => {
	it("fit every budget by the chars/3 estimate, keeping the header and the coverage gaps", async () => {
		const repo = polyglotRepo(await tempDir());
		await host(repo, async (pi) => {
			await call(pi, "read", { path: "src/billing/invoice.ts" });
			for (const [tool, args] of [
				["fovea_dwell", {}],
				["fovea_impact", { symbols: ["applyTax"] }],
			] as const) {
				for (const maxTokens of [200, 300, 600]) {
					const { text, isError } = await call(pi, tool, { ...args, maxTokens });
					assert.equal(isError, false, text);
					assert.ok(Math.ceil(text.length / 3) <= maxTokens, `${tool} ${maxTokens}: ${text.length} chars`);
					assert.ok(text.startsWith(`${tool.replace("_", " ")} · root ${repo}`), `${tool} ${maxTokens}:\n${text}`);
					assert.match(text, /^Not mapped: 2 files: /m, `${tool} ${maxTokens} keeps the coverage gaps`);
				}
			}
		});
	});
});

describe("fovea_focus at its smallest budget", () => {
	it("keeps the root label and the coverage gaps with a long root, a long question and several kinds of gaps", async () => {
		const root = gitRepo(
			join(await tempDir(), "customer-facing-applications", "checkout-and-billing-platform", "shop-frontend-service"),
			{
				...POLYGLOT,
				"public/legacy/jquery-ui-1.12.1.custom.min.js": "var a=1;\n",
				"scripts/deploy/production-rollout.rb": "puts 1\n",
				"native/bindings/image_resize.c": "int main(void) { return 0; }\n",
				"src/generated/api-client.generated.ts": "// @generated by openapi-generator\nexport const api = 1;\n",
				"src/assets/logo-data.ts": "export const logo = 1;\u0000\n",
				"src/data/fixtures/large-seed-data.ts": `export const seed = ${JSON.stringify("x".repeat(1024 * 1024))};\n`,
				"src/billing/half-written-refund.ts": "export function refund( {\n\treturn ;;; }}}\n",
			},
			{ commit: true },
		);
		const query = "where is the invoice total computed and how does the checkout format money for the receipt";
		await host(root, async (pi) => {
			const { text, details } = await focus(pi, { query, maxTokens: 200 });
			assert.equal(details.gaps, 8, "two minified, three unsupported, one binary, one generated, one too large");
			assert.ok(estimateTokens(text) <= 200, `fits: ${text.length} chars`);
			assert.ok(text.startsWith(`fovea focus · root ${root} · "`), `the answer names its root:\n${text}`);
			assert.match(text, /^Not mapped: 8 files: /m, `coverage gaps are listed even at the smallest budget:\n${text}`);
			assert.equal(details.bestEffort, 1, "the file with syntax errors is mapped, best effort");
			assert.match(text, /^Mapped best effort: 1 file/m, `and so is what was mapped only best effort:\n${text}`);
			const status = await commandText(pi, "/fovea status");
			assert.match(status, /^what the maps in memory cover:$/m, status);
			assert.ok(
				status.includes(
					`  ${root}: ${POLYGLOT_MAPPED + 1} files mapped (1 best effort), 8 not mapped; change coupling: `,
				),
				status,
			);
			assert.match(
				status,
				/ 8 not mapped; change coupling: (\d+ commits? read, up to HEAD [0-9a-f]{12}|not mined yet)$/m,
				"and what its change coupling was mined from",
			);
		});
	});
});

describe("fovea_sketch through the real Pi host", () => {
	it("lists languages, the most connected files first, and the gaps, within its budget", async () => {
		const repo = polyglotRepo(await tempDir());
		await host(repo, async (pi) => {
			const { text, details } = await sketch(pi, {});
			assert.ok(text.startsWith(`fovea sketch · root ${repo} · ${POLYGLOT_MAPPED} files (`), text.split("\n")[0]);
			assert.match(text.split("\n")[0] as string, /\(typescript 5, python 3, go 1\)/);
			const central = section(text, "Most connected files (symbols inside):").map((l) => l.split(" — ")[0]);
			assert.equal(central.length, POLYGLOT_MAPPED, text);
			assert.equal(central[0], "src/checkout.ts", "imports two files and is called from server.ts");
			assert.equal(central.at(-1), "tools/migrate.go", "the unconnected Go file comes last");
			assert.match(text, /^ {2}src\/billing\/invoice\.ts — LineItem, computeInvoiceTotal$/m);
			assert.match(text, /^Not mapped: 2 files: /m);
			assert.deepEqual(details, { root: repo, files: POLYGLOT_MAPPED, gaps: POLYGLOT_GAPS.length, bestEffort: 0 });

			let previous = 0;
			for (const maxTokens of [200, 300, 600, 1500]) {
				const small = await sketch(pi, { maxTokens });
				assert.ok(Math.ceil(small.text.length / 3) <= maxTokens, `sketch maxTokens ${maxTokens}: ${small.text.length}`);
				const shown = small.text.split("\n").filter((l) => l.startsWith("  ")).length;
				assert.ok(shown >= previous, `sketch shows no less with more budget (${maxTokens})`);
				previous = shown;
			}
			const small = await sketch(pi, { maxTokens: 200 });
			for (const maxTokens of [0, -5]) {
				const clamped = await sketch(pi, { maxTokens });
				assert.equal(clamped.text, small.text, `sketch maxTokens ${maxTokens} is clamped to 200`);
			}
			assert.equal((await sketch(pi, { maxTokens: 1e9 })).text, text, "sketch maxTokens 1e9 shows everything");
		});
	});
});

describe("roots of fovea_focus", () => {
	const bFiles: Record<string, string> = {
		"lib/lexer.ts": 'export function tokenize(source: string): string[] {\n\treturn source.split(" ");\n}\n',
		"lib/parser.ts":
			'import { tokenize } from "./lexer.ts";\n\nexport function parseProgram(source: string): string[] {\n\treturn tokenize(source);\n}\n',
		"other/cli.ts":
			'import { parseProgram } from "../lib/parser.ts";\n\nexport function tokenizeArgs(argv: string[]): string[] {\n\treturn parseProgram(argv.join(" "));\n}\n',
	};

	it("omitted root is the session cwd's project; an explicit relative root answers for that repo and enrolls as explicit", async () => {
		const base = await tempDir();
		const a = polyglotRepo(base, "a");
		const b = gitRepo(join(base, "b"), bFiles, { commit: true });
		await host(join(a, "src"), async (pi) => {
			const own = await focus(pi, { query: "computeInvoiceTotal" });
			assert.equal(own.details.root, a);
			assert.ok(own.text.startsWith(`fovea focus · root ${a} ·`));

			const other = await focus(pi, { query: "tokenize", root: "../../b" });
			assert.equal(other.details.root, b);
			assert.ok(other.text.startsWith(`fovea focus · root ${b} · "tokenize" · 3 files`), other.text);
			assert.equal(other.details.symbols[0]?.file, "lib/lexer.ts");
			assert.equal(other.details.symbols[0]?.line, 1);
			for (const item of other.details.files) assert.ok(existsSync(join(b, item.file)), `${item.file} is in b`);

			const rows = listedRoots(await commandText(pi, "/fovea roots"));
			assert.deepEqual(rows, [
				{ root: b, marker: "explicit" },
				{ root: a, marker: "cwd" },
			]);
			assert.deepEqual(newestRing(pi, FOVEA_ENTRY), [b, a]);
		});
	});

	it("an explicit narrow root answers only for files under it; reads inside it keep it narrow, reads outside enroll the repo", async () => {
		const base = await tempDir();
		const b = gitRepo(join(base, "b"), bFiles, { commit: true });
		const lib = join(b, "lib");
		await host(base, async (pi) => {
			const narrow = await focus(pi, { query: "tokenize parseProgram", root: "b/lib" });
			assert.equal(narrow.details.root, lib);
			assert.ok(narrow.text.startsWith(`fovea focus · root ${lib} · "tokenize parseProgram" · 2 files`), narrow.text);
			const files = narrow.details.files.map((f) => f.file).sort();
			assert.deepEqual(files, ["lexer.ts", "parser.ts"], "only lib/ is mapped, relative to the narrow root");
			for (const item of [...narrow.details.files, ...narrow.details.symbols]) {
				assert.ok(existsSync(join(lib, item.file)), `${item.file} lies under b/lib`);
			}
			assert.ok(!narrow.text.includes("cli.ts") && !narrow.text.includes("tokenizeArgs"), "nothing from b/other");
			assert.deepEqual(newestRing(pi, FOVEA_ENTRY), [lib]);

			await call(pi, "read", { path: "b/lib/lexer.ts" });
			assert.deepEqual(newestRing(pi, FOVEA_ENTRY), [lib], "activity under the narrow root refreshes it, not b");

			await call(pi, "read", { path: "b/other/cli.ts" });
			assert.deepEqual(newestRing(pi, FOVEA_ENTRY), [b, lib], "a read outside it enrolls the Git project");
			assert.deepEqual(listedRoots(await commandText(pi, "/fovea roots")), [
				{ root: b, marker: "git" },
				{ root: lib, marker: "explicit" },
			]);

			await call(pi, "read", { path: "b/lib/parser.ts" });
			assert.deepEqual(newestRing(pi, FOVEA_ENTRY), [lib, b], "the narrow root still owns its files: it is refreshed");

			// The session branch remembers which roots were chosen explicitly: a reload keeps the narrow root narrow.
			await call(pi, "read", { path: "b/other/cli.ts" });
			assert.deepEqual(newestRing(pi, FOVEA_ENTRY), [b, lib]);
			await pi.reload();
			await call(pi, "read", { path: "b/lib/lexer.ts" });
			assert.deepEqual(newestRing(pi, FOVEA_ENTRY), [lib, b], "after a reload, still the narrow root's file");
			assert.deepEqual(listedRoots(await commandText(pi, "/fovea roots")), [
				{ root: lib, marker: "explicit" },
				{ root: b, marker: "restored" },
			]);
			// `/fovea status` waits for the post-turn probes, which index the roots again after the reload.
			await commandText(pi, "/fovea status");
		});
	});

	it("the ring's entry is exactly {version, roots}; explicit roots have an entry of their own, restored by branch rules", async () => {
		const base = await tempDir();
		const b = gitRepo(join(base, "b"), bFiles, { commit: true });
		const lib = join(b, "lib");
		const EXPLICIT = `${FOVEA_ENTRY}-explicit`;
		await host(base, async (pi) => {
			await pi.runTools([{ name: "read", arguments: { path: "b/other/cli.ts" } }], { prompt: "first prompt" });
			const firstLeaf = pi.leafId() as string;
			assert.deepEqual(pi.customEntries(EXPLICIT), [], "no explicit root yet: no entry of that kind");
			await pi.runTools([{ name: "fovea_focus", arguments: { query: "tokenize", root: "b/lib" } }], {
				prompt: "second prompt",
			});
			assert.deepEqual(newestRing(pi, FOVEA_ENTRY), [lib, b]);
			assert.deepEqual(pi.customEntries(EXPLICIT), [{ version: 1, roots: [lib] }]);
			const exact = () => {
				for (const data of pi.customEntries(FOVEA_ENTRY, "all")) {
					assert.deepEqual(Object.keys(data as object).sort(), ["roots", "version"], JSON.stringify(data));
				}
			};
			exact();

			// A refresh reorders the ring: a new ring entry, the explicit set unchanged, so no new explicit entry.
			await call(pi, "read", { path: "b/other/cli.ts" });
			assert.deepEqual(newestRing(pi, FOVEA_ENTRY), [b, lib]);
			assert.equal(pi.customEntries(EXPLICIT).length, 1);

			// Compaction writes a fresh snapshot of both.
			const counts = [pi.customEntries(FOVEA_ENTRY).length, pi.customEntries(EXPLICIT).length];
			await pi.compact();
			assert.deepEqual(
				[pi.customEntries(FOVEA_ENTRY).length, pi.customEntries(EXPLICIT).length],
				[(counts[0] ?? 0) + 1, (counts[1] ?? 0) + 1],
			);
			exact();
			const laterLeaf = pi.leafId() as string;

			// Tree navigation: before the explicit choice there is no lib; back on the later branch it is explicit again.
			await pi.navigateTree(firstLeaf);
			assert.deepEqual(listedRoots(await commandText(pi, "/fovea roots")), [{ root: b, marker: "restored" }]);
			await pi.navigateTree(laterLeaf);
			assert.deepEqual(listedRoots(await commandText(pi, "/fovea roots")), [
				{ root: b, marker: "restored" },
				{ root: lib, marker: "explicit" },
			]);
			await call(pi, "read", { path: "b/lib/lexer.ts" });
			assert.deepEqual(newestRing(pi, FOVEA_ENTRY), [lib, b], "restored narrow: it owns its files, b does not");

			// A fork from the second prompt keeps what came before it: lib is not there, and not explicit.
			await pi.fork(pi.lastUserEntryId("second prompt"));
			assert.deepEqual(listedRoots(await commandText(pi, "/fovea roots")), [{ root: b, marker: "restored" }]);
			await call(pi, "read", { path: "b/lib/lexer.ts" });
			assert.deepEqual(newestRing(pi, FOVEA_ENTRY), [b], "without the explicit choice, lib's files are b's");
			exact();
			await commandText(pi, "/fovea status");
		});
	});

	it("an explicit umbrella directory maps its own files and leaves nested repositories closed", async () => {
		const base = await tempDir();
		const umbrella = join(base, "umbrella");
		writeFiles(umbrella, {
			"shared/config.ts": "export function loadConfig(path: string): string {\n\treturn path;\n}\n",
		});
		gitRepo(join(umbrella, "svc-a"), {
			"src/config.ts": "export function loadConfig(name: string): string {\n\treturn name;\n}\n",
		});
		gitRepo(join(umbrella, "svc-b"), {
			"main.py": "def load_config(name):\n    return name\n",
			"app.go": "package app\n\nfunc LoadConfig(name string) string {\n\treturn name\n}\n",
		});
		await host(base, async (pi) => {
			const answer = await focus(pi, { query: "loadConfig load_config LoadConfig", root: "umbrella" });
			assert.equal(answer.details.root, umbrella);
			assert.deepEqual(
				answer.details.files.map((f) => f.file),
				["shared/config.ts"],
				`only the umbrella's own files; nested repositories stay closed until access enrolls them:\n${answer.text}`,
			);
			const overview = await sketch(pi, { root: "umbrella" });
			assert.equal(overview.details.files, 1, `the umbrella maps one file of its own:\n${overview.text}`);
			assert.deepEqual(listedRoots(await commandText(pi, "/fovea roots")), [{ root: umbrella, marker: "explicit" }]);

			// Access opens a nested repository as the project it is; the umbrella keeps its own files.
			await call(pi, "read", { path: "umbrella/svc-a/src/config.ts" });
			assert.deepEqual(newestRing(pi, FOVEA_ENTRY), [join(umbrella, "svc-a"), umbrella]);
			await call(pi, "read", { path: "umbrella/shared/config.ts" });
			assert.deepEqual(newestRing(pi, FOVEA_ENTRY), [umbrella, join(umbrella, "svc-a")]);
			assert.deepEqual(listedRoots(await commandText(pi, "/fovea roots")), [
				{ root: umbrella, marker: "explicit" },
				{ root: join(umbrella, "svc-a"), marker: "git" },
			]);
		});
	});

	it("an explicit Git root leaves a linked worktree inside it (a crew task's) to enroll as its own root", async () => {
		const base = await tempDir();
		const repo = gitRepo(join(base, "repo"), bFiles, { commit: true });
		const worktree = join(repo, ".worktrees", "run1", "task1");
		git(repo, "worktree", "add", "-q", "-b", "crew/run1-task1", worktree);
		await host(base, async (pi) => {
			await focus(pi, { query: "tokenize", root: "repo" });
			await call(pi, "read", { path: "repo/.worktrees/run1/task1/lib/lexer.ts" });
			assert.deepEqual(newestRing(pi, FOVEA_ENTRY), [worktree, repo], "linked worktrees remain distinct");
			await call(pi, "read", { path: "repo/lib/lexer.ts" });
			assert.deepEqual(newestRing(pi, FOVEA_ENTRY), [repo, worktree]);
		});
	});

	it("a nonexistent root or a file given as root is a tool error that names the root, and enrolls nothing", async () => {
		const base = await tempDir();
		const a = polyglotRepo(base, "a");
		await host(base, async (pi) => {
			const missing = await call(pi, "fovea_focus", { query: "x", root: "no-such-dir" });
			assert.equal(missing.isError, true);
			assert.match(missing.text, /root 'no-such-dir' does not exist/);
			assert.ok(missing.text.includes(join(base, "no-such-dir")), missing.text);

			const file = await call(pi, "fovea_sketch", { root: "a/src/checkout.ts" });
			assert.equal(file.isError, true);
			assert.match(file.text, /root 'a\/src\/checkout\.ts' is not a directory/);
			assert.ok(file.text.includes(join(a, "src/checkout.ts")), file.text);

			const kind = await call(pi, "fovea_focus", { query: "x", root: "a", kind: "klass" });
			assert.equal(kind.isError, true);
			assert.match(kind.text, /unknown symbol kind "klass": use function, method, class/);

			assert.equal(newestRing(pi, FOVEA_ENTRY), undefined, "a failed call enrolls no root");
		});
	});

	it("in the home directory a call without root maps nothing and says to name one; named, the home directory is mapped", async () => {
		const home = join(await tempDir(), "home");
		writeFiles(home, {
			"notes.ts": "export function notes(): number {\n\treturn 1;\n}\n",
			".ssh/keys.ts": "export const secretKey = 1;\n",
		});
		gitRepo(join(home, "projects/p"), { "src/x.ts": "export const x = 1;\n" }, { commit: true });
		const saved = process.env.HOME;
		process.env.HOME = home;
		try {
			await host(home, async (pi) => {
				for (const [name, args] of [
					["fovea_focus", { query: "notes secretKey" }],
					["fovea_sketch", {}],
				] as const) {
					const refused = await call(pi, name, args);
					assert.equal(refused.isError, true, `${name}: ${refused.text}`);
					assert.match(refused.text, new RegExp(`session cwd ${home} \\(home\\) is never mapped unless named`));
				}
				assert.equal(newestRing(pi, FOVEA_ENTRY), undefined, "nothing enrolled, the home directory least of all");
				assert.match(
					await commandText(pi, "/fovea status"),
					new RegExp(`default root \\(no root given\\): none, the session cwd ${home} \\(home\\)`),
				);
				const grep = await call(pi, "grep", { pattern: "notes" });
				assert.equal(grep.isError, false, grep.text);
				assert.match(grep.text, /notes\.ts/);
				assert.ok(!grep.text.includes("── fovea"), `a grep there maps nothing either:\n${grep.text}`);
				assert.equal(newestRing(pi, FOVEA_ENTRY), undefined);
				const named = await focus(pi, { query: "notes", root: home });
				assert.equal(named.details.root, home, "a home directory named as root is mapped");
			});
			const cli = await runNode([CLI, "focus", "notes"], {
				cwd: home,
				env: { FOVEA_CACHE_DIR: CACHE_DIR, HOME: home },
			});
			assert.equal(cli.code, 2, cli.stderr);
			assert.match(cli.stderr, /no --root given, and the current directory .* \(home\) is never mapped unless named/);
		} finally {
			if (saved === undefined) delete process.env.HOME;
			else process.env.HOME = saved;
		}
	});

	it("a call on a valid root that fails (nothing to measure, an unknown base) enrolls nothing either", async () => {
		const base = await tempDir();
		polyglotRepo(base, "a");
		await host(base, async (pi) => {
			const nothing = await call(pi, "fovea_impact", { root: "a" });
			assert.equal(nothing.isError, true, nothing.text);
			const unknown = await call(pi, "fovea_impact", { root: "a", base: "no-such-branch" });
			assert.equal(unknown.isError, true, unknown.text);
			assert.match(unknown.text, /unknown base "no-such-branch"/);
			assert.equal(newestRing(pi, FOVEA_ENTRY), undefined, "no failed call enrolled its root");
			const answer = await sketch(pi, { root: "a" });
			assert.ok(answer.details.files > 0);
			assert.deepEqual(newestRing(pi, FOVEA_ENTRY), [join(base, "a")], "a successful one does");
		});
	});
});

const DISCOUNT_SIGNATURE = "export function applyDiscount(amount: number, percent: number): number";
/** Appended to `src/billing/tax.ts` by the edit tests: a new function the next answer must find. */
const DISCOUNT = `\n${DISCOUNT_SIGNATURE} {\n\treturn amount * (1 - percent / 100);\n}\n`;
const DISCOUNT_LINE = lineOf({ tax: `${POLYGLOT["src/billing/tax.ts"]}${DISCOUNT}` }, "tax", "applyDiscount");

describe("incrementality through the tool", () => {
	it("answers with an edit on the next call, and a restarted host on the same cache answers alike without parsing", async () => {
		const repo = polyglotRepo(await tempDir());
		const query = { query: "applyDiscount" };
		let edited: Item | undefined;
		let header = "";
		await host(repo, async (pi) => {
			const before = await focus(pi, query);
			assert.ok(!before.details.symbols.some((s) => s.name === "applyDiscount"), "not there yet");
			await appendFile(join(repo, "src/billing/tax.ts"), DISCOUNT);
			const after = await focus(pi, query);
			assert.deepEqual(
				{
					file: after.details.symbols[0]?.file,
					line: after.details.symbols[0]?.line,
					name: after.details.symbols[0]?.name,
				},
				{ file: "src/billing/tax.ts", line: DISCOUNT_LINE, name: "applyDiscount" },
				after.text,
			);
			assert.ok(after.text.includes(`\n  src/billing/tax.ts:${DISCOUNT_LINE}  ${DISCOUNT_SIGNATURE}\n`), after.text);
			edited = after.details.symbols[0];
			header = after.text.split("\n")[0] as string;
		});
		await host(repo, async (pi) => {
			const restarted = await focus(pi, query);
			assert.deepEqual(
				{ ...restarted.details.symbols[0], score: 0 },
				{ ...edited, score: 0 },
				"a fresh host on the same repo and cache finds the edit",
			);
			assert.equal(restarted.text.split("\n")[0], header, "same counts of files and symbols");
		});
		// Parse counts are not visible through the tool; a fresh process on the same cache shows the hosts stored
		// every file's current facts (the edited one included): nothing left to parse.
		const status = await cli(["status", "--json"], repo);
		assert.equal(status.code, 0, status.stderr);
		const work = (JSON.parse(status.stdout) as { work: { filesParsed: number; cacheHits: number } }).work;
		assert.equal(work.filesParsed, 0, status.stdout);
		assert.equal(work.cacheHits, POLYGLOT_MAPPED, status.stdout);
	});
});

describe("indexing progress", () => {
	it("indexing ~300 files shows progress in the status bar and as partial results, then the idle item again", async () => {
		const root = gitRepo(join(await tempDir(), "generated"), generatedProject(300));
		await host(root, async (pi) => {
			const { text, details } = await focus(pi, { query: "handler150" });
			assert.ok(text.startsWith(`fovea focus · root ${root} · "handler150" · 300 files`), text.split("\n")[0]);
			assert.equal(details.symbols[0]?.file, "gen/mod150.ts");

			const statuses = pi.ui.log.flatMap((e) => (e.kind === "status" && e.key === "fovea" ? [e.text] : []));
			assert.ok(
				statuses.some((s) => /^fovea: indexing generated \d+\/300$/.test(s ?? "")),
				`an indexing status: ${JSON.stringify(statuses)}`,
			);
			assert.equal(statuses.at(-1), "fovea: 1 root", "then the idle item, counting the root just enrolled");

			const partials = pi.sessionEvents.flatMap((e) =>
				e.type === "tool_execution_update" && e.toolName === "fovea_focus" ? [JSON.stringify(e.partialResult)] : [],
			);
			assert.ok(
				partials.some((p) => p.includes("indexing") && p.includes("/300 files")),
				`a partial result reports indexing: ${partials.join("\n")}`,
			);
		});
	});
});

describe("incremental index (engine CodeMap directly: parse counts are not observable through the tool)", () => {
	it("an edit costs exactly one parse; a fresh map on the same cache parses nothing", async () => {
		const repo = polyglotRepo(await tempDir(), "engine");
		const map = new CodeMap(repo);
		const first = await map.focus({ text: "applyDiscount" }, 1500);
		assert.equal(map.index.stats.filesParsed, POLYGLOT_MAPPED);
		assert.ok(!first.symbols.some((s) => s.name === "applyDiscount"));
		assert.ok(map.index.cache?.dir.startsWith(CACHE_DIR), "the fact cache lives in FOVEA_CACHE_DIR");

		const path = join(repo, "src/billing/tax.ts");
		const size = statSync(path).size;
		await writeFile(path, `${POLYGLOT["src/billing/tax.ts"]}${DISCOUNT}`);
		assert.notEqual(statSync(path).size, size);
		const scans = map.index.stats.scans;
		const reused = await map.focus({ text: "applyDiscount" }, 1500);
		assert.equal(map.index.stats.scans, scans, "within FOVEA_WALK_REUSE_MS a focus does not walk the root again");
		assert.ok(!reused.symbols.some((s) => s.name === "applyDiscount"), "so an outside edit waits for fresh or a probe");
		const second = await map.focus({ text: "applyDiscount" }, 1500, { fresh: true });
		assert.equal(map.index.stats.filesParsed, POLYGLOT_MAPPED + 1, "exactly the edited file is parsed again");
		assert.deepEqual(
			{ file: second.symbols[0]?.file, line: second.symbols[0]?.line, name: second.symbols[0]?.name },
			{ file: "src/billing/tax.ts", line: DISCOUNT_LINE, name: "applyDiscount" },
		);
		assert.deepEqual(
			{ built: map.stats.graphsBuilt, patched: map.stats.graphsPatched },
			{ built: 1, patched: 1 },
			"the edit patched the graph instead of building it again",
		);
		// An index refreshed on its own (as a probe does) is caught up by the next focus, still by a patch.
		await writeFile(path, `${POLYGLOT["src/billing/tax.ts"]}${DISCOUNT.replaceAll("applyDiscount", "applyRebate")}`);
		await map.index.refresh({ paths: ["src/billing/tax.ts"] });
		const rebate = await map.focus({ text: "applyRebate" }, 1500);
		assert.equal(rebate.symbols[0]?.name, "applyRebate");
		assert.ok(!rebate.symbols.some((s) => s.name === "applyDiscount"), "the removed symbol is gone from the graph");
		assert.deepEqual({ built: map.stats.graphsBuilt, patched: map.stats.graphsPatched }, { built: 1, patched: 2 });
		// A new file changes the set of files: imports may resolve differently, so the graph is built again.
		await writeFile(join(repo, "src/billing/extra.ts"), "export function extraCharge() { return 1; }\n");
		await map.focus({ text: "extraCharge" }, 1500, { fresh: true });
		assert.equal(map.stats.graphsBuilt, 2);
		await writeFile(path, `${POLYGLOT["src/billing/tax.ts"]}${DISCOUNT}`);
		await map.index.refresh({ paths: ["src/billing/tax.ts"] });
		await rm(join(repo, "src/billing/extra.ts"));
		await map.focus({ text: "applyDiscount" }, 1500, { fresh: true });
		await map.index.flush();

		const restarted = new CodeMap(repo);
		const again = await restarted.focus({ text: "applyDiscount" }, 1500);
		assert.equal(restarted.index.stats.filesParsed, 0, "a restart parses nothing");
		assert.equal(restarted.index.stats.cacheHits, POLYGLOT_MAPPED);
		assert.equal(again.text, second.text);
	});
});
