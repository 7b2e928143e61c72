// A deterministic polyglot code base for the speed benchmark: TypeScript (with tests), Python, Go, Rust and Java in
// the layouts their ecosystems use (`web/src`, a Python package tree, a Go module, a Rust crate, a Maven tree), with
// imports that the engine resolves and calls into the imported files, so the code graph is connected the way a real
// project's is: most links stay inside a package, some cross packages, and a few hub files are imported widely.
// Names are drawn from a small domain vocabulary, so queries find several candidates, as in real code.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** mulberry32: a tiny, fast, deterministic PRNG. */
export function rng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const VERBS = [
	"parse",
	"validate",
	"render",
	"load",
	"store",
	"fetch",
	"build",
	"compute",
	"merge",
	"split",
	"encode",
	"decode",
	"normalize",
	"resolve",
	"schedule",
	"dispatch",
	"publish",
	"apply",
	"revoke",
	"refresh",
	"expire",
	"sync",
	"serialize",
	"compress",
	"sign",
	"verify",
	"reconcile",
	"aggregate",
	"rank",
	"archive",
	"restore",
	"estimate",
	"collect",
	"prune",
	"rotate",
	"throttle",
	"format",
	"classify",
	"enrich",
	"migrate",
];

const NOUNS = [
	"user",
	"account",
	"order",
	"invoice",
	"payment",
	"cart",
	"product",
	"catalog",
	"price",
	"discount",
	"shipment",
	"address",
	"session",
	"token",
	"cache",
	"queue",
	"event",
	"metric",
	"report",
	"schedule",
	"job",
	"worker",
	"config",
	"policy",
	"permission",
	"role",
	"audit",
	"ledger",
	"balance",
	"refund",
	"coupon",
	"review",
	"rating",
	"search",
	"query",
	"filter",
	"page",
	"template",
	"email",
	"notification",
	"webhook",
	"upload",
	"image",
	"thumbnail",
	"storage",
	"bucket",
	"backup",
	"snapshot",
	"migration",
	"tenant",
	"region",
	"quota",
	"retry",
	"lease",
	"heartbeat",
	"cluster",
	"shard",
	"replica",
	"certificate",
	"secret",
];

const PACKAGES = [
	"billing",
	"catalog",
	"identity",
	"shipping",
	"search",
	"storage",
	"telemetry",
	"scheduler",
	"payments",
	"inventory",
	"messaging",
	"reporting",
	"gateway",
	"pricing",
	"audit",
	"accounts",
	"media",
	"routing",
	"ledger",
	"sessions",
];

type Lang = "ts" | "py" | "go" | "rs" | "java";

interface Spec {
	lang: Lang;
	/** Index of the package within its language. */
	pkg: number;
	pkgName: string;
	topic: [string, string];
	path: string;
	/** Exported function names, in the language's own case. */
	functions: string[];
	/** The type (class or struct) the file defines. */
	type: string;
	deps: Spec[];
	/** TypeScript test files: the file under test. */
	testOf?: Spec;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const camel = (words: readonly string[]) => words.map((w, i) => (i === 0 ? w : cap(w))).join("");
const pascal = (words: readonly string[]) => words.map(cap).join("");
const snake = (words: readonly string[]) => words.join("_");
const kebab = (words: readonly string[]) => words.join("-");

function functionName(lang: Lang, words: string[]): string {
	if (lang === "py" || lang === "rs") return snake(words);
	if (lang === "go") return pascal(words);
	return camel(words);
}

export interface CorpusSummary {
	files: number;
	byLanguage: Record<string, number>;
	bytes: number;
	lines: number;
	imports: number;
}

/**
 * Writes a corpus of exactly `files` supported source files (plus a few manifests and a `.gitignore`) under `root`.
 * The same (`files`, `seed`) always gives the same bytes.
 */
export function writePolyglotCorpus(root: string, files: number, seed = 20240611): CorpusSummary {
	const random = rng(seed);
	const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
	const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

	// Share of each language; package index files (`__init__.py`, `mod.rs`, `lib.rs`) count towards `files`.
	const perPackage = 24;
	const count = (share: number) => Math.max(perPackage, Math.round(files * share));
	const py = count(0.18);
	const go = count(0.14);
	const rs = count(0.1);
	const java = count(0.14);
	const pyPackages = Math.ceil(py / perPackage);
	const rsPackages = Math.ceil(rs / perPackage);
	let ts = files - (py + pyPackages) - go - (rs + rsPackages + 1) - java;
	if (ts < 10) throw new Error(`writePolyglotCorpus: ${files} files is too few`);
	const tsTests = Math.floor(ts / 11);
	ts -= tsTests;

	const specs: Spec[] = [];
	const byLang = new Map<Lang, Spec[]>();
	const plan: [Lang, number][] = [
		["ts", ts],
		["py", py],
		["go", go],
		["rs", rs],
		["java", java],
	];
	for (const [lang, n] of plan) {
		const list: Spec[] = [];
		const packages = Math.ceil(n / perPackage);
		const topicsUsed: Set<string>[] = Array.from({ length: packages }, () => new Set());
		for (let i = 0; i < n; i++) {
			const pkg = i % packages;
			const pkgName = `${PACKAGES[pkg % PACKAGES.length]}${pkg >= PACKAGES.length ? Math.floor(pkg / PACKAGES.length) : ""}`;
			let topic: [string, string];
			const used = topicsUsed[pkg] as Set<string>;
			do topic = [pick(NOUNS), pick(NOUNS)];
			while (topic[0] === topic[1] || used.has(topic.join(" ")));
			used.add(topic.join(" "));
			const verbs = new Set<string>();
			const want = between(3, 6);
			while (verbs.size < want) verbs.add(pick(VERBS));
			const functions = [...verbs].map((verb) => functionName(lang, [verb, ...topic]));
			const type = pascal(topic);
			const path = pathOf(lang, pkgName, topic);
			// Imports: earlier files of the same language, mostly the same package, some hubs (the first files).
			const deps: Spec[] = [];
			const candidates = list.length;
			if (candidates > 0) {
				const want = between(1, Math.min(4, candidates));
				for (let tries = 0; deps.length < want && tries < 20; tries++) {
					const roll = random();
					let dep: Spec | undefined;
					if (roll < 0.55) {
						const same = list.filter((s) => s.pkg === pkg);
						dep = same.length > 0 ? pick(same.slice(-12)) : undefined;
					} else if (roll < 0.85) dep = list[Math.floor(random() * candidates)];
					else dep = list[Math.floor(random() * Math.min(8, candidates))];
					if (dep !== undefined && !deps.includes(dep)) deps.push(dep);
				}
			}
			const spec: Spec = { lang, pkg, pkgName, topic, path, functions, type, deps };
			list.push(spec);
			specs.push(spec);
		}
		byLang.set(lang, list);
	}
	const tsList = byLang.get("ts") ?? [];
	for (let i = 0; i < tsTests; i++) {
		const subject = tsList[(i * 11) % tsList.length] as Spec;
		specs.push({ ...subject, path: subject.path.replace(/\.ts$/, ".test.ts"), deps: [subject], testOf: subject });
	}

	const summary: CorpusSummary = { files: 0, byLanguage: {}, bytes: 0, lines: 0, imports: 0 };
	const write = (path: string, text: string, language?: string) => {
		const full = join(root, path);
		mkdirSync(dirname(full), { recursive: true });
		writeFileSync(full, text);
		if (language === undefined) return;
		summary.files++;
		summary.byLanguage[language] = (summary.byLanguage[language] ?? 0) + 1;
		summary.bytes += Buffer.byteLength(text);
		summary.lines += text.split("\n").length;
	};

	for (const spec of specs) {
		summary.imports += spec.deps.length;
		write(spec.path, render(spec, random), spec.lang);
	}
	// Package index files.
	for (let p = 0; p < pyPackages; p++) {
		const members = (byLang.get("py") ?? []).filter((s) => s.pkg === p);
		const name = members[0]?.pkgName ?? `pkg${p}`;
		const lines = members.slice(0, 6).map((s) => `from .${snake(s.topic)} import ${s.type}`);
		write(`services/py/${name}/__init__.py`, `"""The ${name} package."""\n${lines.join("\n")}\n`, "py");
	}
	const rsNames: string[] = [];
	for (let p = 0; p < rsPackages; p++) {
		const members = (byLang.get("rs") ?? []).filter((s) => s.pkg === p);
		const name = members[0]?.pkgName ?? `pkg${p}`;
		rsNames.push(name);
		write(
			`engine/src/${name}/mod.rs`,
			`//! The ${name} module.\n${members.map((s) => `pub mod ${snake(s.topic)};`).join("\n")}\n`,
			"rs",
		);
	}
	write("engine/src/lib.rs", `//! The engine crate.\n${rsNames.map((n) => `pub mod ${n};`).join("\n")}\n`, "rs");
	// Manifests and ignore rules, as a real project has them (not source: not counted).
	write("go.mod", "module fleet\n\ngo 1.22\n");
	write("package.json", `${JSON.stringify({ name: "fleet-web", private: true, type: "module" }, null, 2)}\n`);
	write("tsconfig.json", `${JSON.stringify({ compilerOptions: { strict: true, module: "NodeNext" } }, null, 2)}\n`);
	write("engine/Cargo.toml", '[package]\nname = "engine"\nversion = "0.1.0"\nedition = "2021"\n');
	write("jvm/pom.xml", "<project><modelVersion>4.0.0</modelVersion><artifactId>fleet</artifactId></project>\n");
	write(".gitignore", "node_modules/\nbuild/\ntarget/\n*.log\n__pycache__/\n");
	write("README.md", "# fleet\n\nA generated polyglot code base for benchmarks.\n");
	return summary;
}

function pathOf(lang: Lang, pkg: string, topic: [string, string]): string {
	switch (lang) {
		case "ts":
			return `web/src/${pkg}/${kebab(topic)}.ts`;
		case "py":
			return `services/py/${pkg}/${snake(topic)}.py`;
		case "go":
			return `backend/${pkg}/${snake(topic)}.go`;
		case "rs":
			return `engine/src/${pkg}/${snake(topic)}.rs`;
		case "java":
			return `jvm/src/main/java/com/acme/${pkg}/${pascal(topic)}.java`;
	}
}

/** Calls into the dependencies: one or two of each dependency's functions. */
function depCalls(spec: Spec, random: () => number): { dep: Spec; fn: string }[] {
	const out: { dep: Spec; fn: string }[] = [];
	for (const dep of spec.deps) {
		const n = 1 + Math.floor(random() * 2);
		for (let i = 0; i < n; i++) {
			const fn = dep.functions[Math.floor(random() * dep.functions.length)] as string;
			if (!out.some((c) => c.fn === fn && c.dep === dep)) out.push({ dep, fn });
		}
	}
	return out;
}

function render(spec: Spec, random: () => number): string {
	switch (spec.lang) {
		case "ts":
			return spec.testOf === undefined ? renderTs(spec, random) : renderTsTest(spec);
		case "py":
			return renderPy(spec, random);
		case "go":
			return renderGo(spec, random);
		case "rs":
			return renderRs(spec, random);
		case "java":
			return renderJava(spec, random);
	}
}

function relativeImport(from: string, to: string): string {
	const a = from.split("/").slice(0, -1);
	const b = to.split("/");
	let i = 0;
	while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
	const up = a.length - i;
	const rest = b.slice(i).join("/");
	return up === 0 ? `./${rest}` : `${"../".repeat(up)}${rest}`;
}

function renderTs(spec: Spec, random: () => number): string {
	const calls = depCalls(spec, random);
	const lines: string[] = [];
	const byDep = new Map<Spec, string[]>();
	for (const { dep, fn } of calls) byDep.set(dep, [...(byDep.get(dep) ?? []), fn]);
	for (const [dep, fns] of byDep)
		lines.push(`import { ${fns.join(", ")} } from "${relativeImport(spec.path, dep.path)}";`);
	const words = spec.topic.join(" ");
	lines.push(
		"",
		`/** Options for ${words} operations. */`,
		`export interface ${spec.type}Options {`,
		"\tlimit: number;",
		"\tregion: string;",
		"\tstrict?: boolean;",
		"}",
		"",
		`const DEFAULT_${spec.topic.map((w) => w.toUpperCase()).join("_")}_LIMIT = ${10 + Math.floor(random() * 90)};`,
	);
	spec.functions.forEach((fn, i) => {
		const call = calls[i % Math.max(1, calls.length)];
		const local = spec.functions[(i + 1) % spec.functions.length] as string;
		lines.push(
			"",
			`/** ${cap(fn.replace(/([A-Z])/g, " $1").toLowerCase())}. */`,
			`export function ${fn}(input: string, options?: Partial<${spec.type}Options>): string {`,
			`\tconst limit = options?.limit ?? DEFAULT_${spec.topic.map((w) => w.toUpperCase()).join("_")}_LIMIT;`,
			"\tconst parts: string[] = [];",
			'\tfor (const piece of input.split(",")) {',
			"\t\tif (piece.length === 0 || parts.length >= limit) continue;",
			call === undefined ? "\t\tparts.push(piece.trim());" : `\t\tparts.push(${call.fn}(piece.trim()));`,
			"\t}",
			i % 2 === 0 && spec.functions.length > 1 ? `\tif (options?.strict) return ${local}(parts.join(","));` : "",
			`\treturn parts.join(",");`,
			"}",
		);
	});
	lines.push(
		"",
		`/** Keeps ${words} records for one region. */`,
		`export class ${spec.type}Service {`,
		"\treadonly #items = new Map<string, string>();",
		"\tconstructor(readonly region: string) {}",
		"",
		"\tput(key: string, value: string): void {",
		`\t\tthis.#items.set(key, ${spec.functions[0]}(value, { region: this.region }));`,
		"\t}",
		"",
		"\tget(key: string): string | undefined {",
		"\t\treturn this.#items.get(key);",
		"\t}",
		"",
		`\t${spec.functions[1] ?? "process"}All(): string[] {`,
		`\t\treturn [...this.#items.values()].map((v) => ${spec.functions[1] ?? spec.functions[0]}(v));`,
		"\t}",
		"}",
		"",
	);
	return lines.filter((l, i, all) => l !== "" || all[i - 1] !== "").join("\n");
}

function renderTsTest(spec: Spec): string {
	const subject = spec.testOf as Spec;
	const fns = subject.functions.slice(0, 2);
	const name = subject.path.split("/").pop() as string;
	return [
		'import assert from "node:assert/strict";',
		'import { test } from "node:test";',
		`import { ${fns.join(", ")}, ${subject.type}Service } from "./${name}";`,
		"",
		...fns.flatMap((fn) => [
			`test("${fn} keeps non-empty parts", () => {`,
			`\tassert.equal(${fn}("a,,b", { limit: 5 }).split(",").length >= 1, true);`,
			"});",
			"",
		]),
		`test("${subject.type}Service stores values", () => {`,
		`\tconst service = new ${subject.type}Service("eu");`,
		'\tservice.put("k", "v");',
		'\tassert.notEqual(service.get("k"), undefined);',
		"});",
		"",
	].join("\n");
}

function renderPy(spec: Spec, random: () => number): string {
	const calls = depCalls(spec, random);
	const lines: string[] = [`"""${cap(spec.topic.join(" "))}: ${spec.functions.join(", ")}."""`, "", "import json", ""];
	const byDep = new Map<Spec, string[]>();
	for (const { dep, fn } of calls) byDep.set(dep, [...(byDep.get(dep) ?? []), fn]);
	for (const [dep, fns] of byDep) lines.push(`from ${dep.pkgName}.${snake(dep.topic)} import ${fns.join(", ")}`);
	lines.push("", `DEFAULT_LIMIT = ${10 + Math.floor(random() * 90)}`, "");
	spec.functions.forEach((fn, i) => {
		const call = calls[i % Math.max(1, calls.length)];
		lines.push(
			"",
			`def ${fn}(value, limit=DEFAULT_LIMIT, strict=False):`,
			`    """${cap(fn.replace(/_/g, " "))}."""`,
			"    parts = []",
			'    for piece in value.split(","):',
			"        if not piece or len(parts) >= limit:",
			"            continue",
			call === undefined ? "        parts.append(piece.strip())" : `        parts.append(${call.fn}(piece.strip()))`,
			"    if strict:",
			"        return json.dumps(parts)",
			'    return ",".join(parts)',
			"",
		);
	});
	lines.push(
		"",
		`class ${spec.type}:`,
		`    """Keeps ${spec.topic.join(" ")} records for one region."""`,
		"",
		"    def __init__(self, region):",
		"        self.region = region",
		"        self.items = {}",
		"",
		"    def put(self, key, value):",
		`        self.items[key] = ${spec.functions[0]}(value)`,
		"",
		`    def ${spec.functions[1] ?? "process"}_all(self):`,
		`        return [${spec.functions[1] ?? spec.functions[0]}(v) for v in self.items.values()]`,
		"",
	);
	return lines.join("\n");
}

function renderGo(spec: Spec, random: () => number): string {
	const calls = depCalls(spec, random);
	const foreign = [...new Set(calls.filter((c) => c.dep.pkgName !== spec.pkgName).map((c) => c.dep.pkgName))];
	const qualify = (c: { dep: Spec; fn: string }) =>
		c.dep.pkgName === spec.pkgName ? c.fn : `${c.dep.pkgName}.${c.fn}`;
	const lines = [
		`// Package ${spec.pkgName}: ${spec.topic.join(" ")} handling.`,
		`package ${spec.pkgName}`,
		"",
		"import (",
		'\t"strings"',
		...(foreign.length > 0 ? ["", ...foreign.map((p) => `\t"fleet/backend/${p}"`)] : []),
		")",
		"",
		`// ${spec.type} keeps ${spec.topic.join(" ")} records for one region.`,
		`type ${spec.type} struct {`,
		"\tRegion string",
		"\titems  map[string]string",
		"}",
	];
	spec.functions.forEach((fn, i) => {
		const call = calls[i % Math.max(1, calls.length)];
		lines.push(
			"",
			`// ${fn} ${spec.topic.join(" ")} input.`,
			`func ${fn}(input string) string {`,
			"\tparts := []string{}",
			'\tfor _, piece := range strings.Split(input, ",") {',
			'\t\tif piece == "" {',
			"\t\t\tcontinue",
			"\t\t}",
			call === undefined
				? "\t\tparts = append(parts, strings.TrimSpace(piece))"
				: `\t\tparts = append(parts, ${qualify(call)}(strings.TrimSpace(piece)))`,
			"\t}",
			'\treturn strings.Join(parts, ",")',
			"}",
		);
	});
	lines.push(
		"",
		`// Put stores a ${spec.topic.join(" ")} value.`,
		`func (r *${spec.type}) Put(key, value string) {`,
		"\tif r.items == nil {",
		"\t\tr.items = map[string]string{}",
		"\t}",
		`\tr.items[key] = ${spec.functions[0]}(value)`,
		"}",
		"",
	);
	return lines.join("\n");
}

function renderRs(spec: Spec, random: () => number): string {
	const calls = depCalls(spec, random);
	const byDep = new Map<Spec, string[]>();
	for (const { dep, fn } of calls) byDep.set(dep, [...(byDep.get(dep) ?? []), fn]);
	const lines = [`//! ${cap(spec.topic.join(" "))} handling.`, "", "use std::collections::HashMap;"];
	for (const [dep, fns] of byDep) lines.push(`use crate::${dep.pkgName}::${snake(dep.topic)}::{${fns.join(", ")}};`);
	lines.push(
		"",
		`/// Keeps ${spec.topic.join(" ")} records for one region.`,
		`pub struct ${spec.type} {`,
		"    pub region: String,",
		"    items: HashMap<String, String>,",
		"}",
		"",
		`impl ${spec.type} {`,
		"    pub fn new(region: &str) -> Self {",
		"        Self { region: region.to_string(), items: HashMap::new() }",
		"    }",
		"",
		"    pub fn put(&mut self, key: &str, value: &str) {",
		`        self.items.insert(key.to_string(), ${spec.functions[0]}(value));`,
		"    }",
		"}",
	);
	spec.functions.forEach((fn, i) => {
		const call = calls[i % Math.max(1, calls.length)];
		lines.push(
			"",
			`/// ${cap(fn.replace(/_/g, " "))}.`,
			`pub fn ${fn}(input: &str) -> String {`,
			"    let mut parts: Vec<String> = Vec::new();",
			"    for piece in input.split(',') {",
			"        if piece.is_empty() {",
			"            continue;",
			"        }",
			call === undefined
				? "        parts.push(piece.trim().to_string());"
				: `        parts.push(${call.fn}(piece.trim()));`,
			"    }",
			'    parts.join(",")',
			"}",
		);
	});
	lines.push("");
	return lines.join("\n");
}

function renderJava(spec: Spec, random: () => number): string {
	const calls = depCalls(spec, random);
	const foreign = [...new Set(calls.filter((c) => c.dep.pkgName !== spec.pkgName).map((c) => c.dep))];
	const lines = [
		`package com.acme.${spec.pkgName};`,
		"",
		...foreign.map((d) => `import com.acme.${d.pkgName}.${d.type};`),
		"import java.util.ArrayList;",
		"import java.util.HashMap;",
		"import java.util.List;",
		"import java.util.Map;",
		"",
		`/** Keeps ${spec.topic.join(" ")} records for one region. */`,
		`public class ${spec.type} {`,
		"    private final Map<String, String> items = new HashMap<>();",
		"    private final String region;",
		"",
		`    public ${spec.type}(String region) {`,
		"        this.region = region;",
		"    }",
		"",
		"    public void put(String key, String value) {",
		`        items.put(key, ${spec.functions[0]}(value));`,
		"    }",
	];
	spec.functions.forEach((fn, i) => {
		const call = calls[i % Math.max(1, calls.length)];
		lines.push(
			"",
			`    /** ${cap(fn.replace(/([A-Z])/g, " $1").toLowerCase())}. */`,
			`    public static String ${fn}(String input) {`,
			"        List<String> parts = new ArrayList<>();",
			'        for (String piece : input.split(",")) {',
			"            if (piece.isEmpty()) {",
			"                continue;",
			"            }",
			call === undefined
				? "            parts.add(piece.trim());"
				: `            parts.add(${call.dep.type}.${call.fn}(piece.trim()));`,
			"        }",
			'        return String.join(",", parts);',
			"    }",
		);
	});
	lines.push("}", "");
	return lines.join("\n");
}

/** Appends a new function to one source file, in its language: a realistic one-file edit. */
export function appendedFunction(path: string, source: string, k: number): string {
	if (path.endsWith(".py")) return `${source}\n\ndef bench_edit_${k}(value):\n    return value.strip()\n`;
	if (path.endsWith(".go")) return `${source}\nfunc BenchEdit${k}(value string) string {\n\treturn value\n}\n`;
	if (path.endsWith(".rs")) return `${source}\npub fn bench_edit_${k}(value: &str) -> &str {\n    value\n}\n`;
	if (path.endsWith(".java")) {
		const end = source.lastIndexOf("}");
		const method = `    public static String benchEdit${k}(String v) {\n        return v;\n    }\n`;
		return end < 0 ? `${source}\n${method}` : `${source.slice(0, end)}\n${method}}\n`;
	}
	return `${source}\nexport function benchEdit${k}(value: string): string {\n\treturn value.trim();\n}\n`;
}
