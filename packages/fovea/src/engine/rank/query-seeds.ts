/**
 * The strong seeds of a focus query: the files and symbols its precise parts (`terms/query-reading.ts`) name, found
 * in the graph. A path as a traceback prints it (absolute, under `site-packages/`, or a bare file name) is the
 * indexed file sharing most of its trailing directories; its line names the innermost symbol there. A name is the
 * symbols of that name; a qualified one (`Greeter.greet`, `pkg.mod.func`, `a::b::c`, `com.x.Gson.fromJson`) the
 * member of that container, or of the module file its leading parts spell.
 */
import { type CodeGraph, MAX_LITERAL_FILES } from "../graph/index.ts";
import { manyOf } from "../model/index.ts";
import type { NamedLiteral, QueryReading } from "../terms/index.ts";
import { subjectStem } from "./file-role.ts";
import type { PreparedGraph } from "./prepared-graph.ts";
import { symbolsNamed } from "./seeds.ts";

/** What the precise parts of a query name: seed mass per node, and how strongly each file is named. */
export interface NamedSeeds {
	/** Seed mass per node (files and symbols), before normalization. */
	nodes: Map<number, number>;
	/** How strongly each file is named (its own or its symbols'), in (0, 1]. */
	files: Map<number, number>;
	/** The root-relative paths of the files named by path. */
	paths: string[];
}

/** A name that many symbols share (`get`, `run`) names none of them precisely. */
const MAX_SYMBOLS_PER_NAME = 8;
/** A bare file name that many files share (`index.js`, `__init__.py`) names none of them. */
const MAX_FILES_PER_NAME = 3;
/**
 * How strongly a subject's scope names the files in its area (`fix(server-renderer): …` → `packages/server-renderer/`):
 * half as strongly as a path, since it names a whole directory. It seeds nothing (a directory's files are too many
 * to seed); it only lifts them.
 */
const SCOPE_STRENGTH = 0.5;
/** Module files a qualified name's leading parts may spell, besides `a/b.<ext>`. */
const PACKAGE_FILES = ["__init__.py", "index.ts", "index.js", "mod.rs"];

/** The nodes and files that `reading` names in `prepared`'s graph; see the module comment. */
export function namedSeeds(prepared: PreparedGraph, reading: QueryReading): NamedSeeds {
	const out: NamedSeeds = { nodes: new Map(), files: new Map(), paths: [] };
	if (reading.paths.length + reading.names.length + reading.scopes.length + reading.literals.length === 0) return out;
	const { graph } = prepared;
	const byBase = filesByBaseName(graph);
	const add = (id: number, mass: number) => {
		out.nodes.set(id, (out.nodes.get(id) ?? 0) + mass);
		const file = prepared.fileOf[id] ?? -1;
		if (file >= 0) out.files.set(file, Math.max(out.files.get(file) ?? 0, mass));
	};
	// A path written twice (a frame, and again in the text) is named once, as strongly as its strongest mention.
	const byFile = new Map<number, { mass: number; lines: Set<number> }>();
	for (const named of reading.paths) {
		const files = filesForPath(graph, byBase, named.path);
		for (const file of files) {
			const known = byFile.get(file) ?? { mass: 0, lines: new Set<number>() };
			known.mass = Math.max(known.mass, named.weight / files.length);
			if (named.line !== undefined) known.lines.add(named.line);
			byFile.set(file, known);
		}
	}
	for (const [file, { mass, lines }] of byFile) {
		const path = graph.nodes[file]?.path as string;
		add(file, mass);
		out.paths.push(path);
		for (const line of lines) for (const id of innermostAt(graph, path, line)) add(id, mass / lines.size);
	}
	for (const file of scopedFiles(graph, reading.scopes)) {
		out.files.set(file, Math.max(out.files.get(file) ?? 0, SCOPE_STRENGTH));
	}
	for (const { name, weight } of reading.names) {
		const ids = nodesForName(graph, byBase, name);
		if (ids.length === 0 || ids.length > MAX_SYMBOLS_PER_NAME) continue;
		for (const id of ids) add(id, weight / ids.length);
	}
	// Like an area, a literal lifts the files holding it and seeds nothing: a weak literal (an option of another
	// program run in a snippet) would otherwise take the named share of the seed mass from the words.
	for (const [file, strength] of literalFiles(prepared, reading.literals)) {
		out.files.set(file, Math.max(out.files.get(file) ?? 0, strength));
	}
	return out;
}

/**
 * The files holding the string literals `literals` name, each named as strongly as its strongest literal shared by
 * the literal's holders: a literal more than `MAX_LITERAL_FILES` files hold is a common word of the root.
 */
function literalFiles(prepared: PreparedGraph, literals: readonly NamedLiteral[]): Map<number, number> {
	const files = new Map<number, number>();
	if (literals.length === 0) return files;
	const holders = prepared.content.literalHolders(new Set(literals.map((named) => named.literal)));
	for (const { literal, weight } of literals) {
		const ids = holders.get(literal) ?? [];
		if (ids.length > MAX_LITERAL_FILES) continue;
		for (const id of ids) files.set(id, Math.max(files.get(id) ?? 0, weight / ids.length));
	}
	return files;
}

/** The graph's files by their base name. */
function filesByBaseName(graph: CodeGraph): Map<string, number[]> {
	const byBase = new Map<string, number[]>();
	for (const [path, id] of graph.fileNode) {
		const base = path.slice(path.lastIndexOf("/") + 1);
		const list = byBase.get(base);
		if (list === undefined) byBase.set(base, [id]);
		else list.push(id);
	}
	return byBase;
}

/**
 * The indexed files `written` names: those sharing the most trailing path segments with it, at least two when it
 * has a directory (`/usr/lib/python3/site-packages/requests/models.py` is `src/requests/models.py`, but not
 * `docs/models.py`), else its file name shared by few files.
 */
function filesForPath(graph: CodeGraph, byBase: Map<string, number[]>, written: string): number[] {
	const segments = written
		.replace(/\\/g, "/")
		.split("/")
		.filter((s) => s !== "" && s !== ".");
	const exact = graph.fileNode.get(segments.join("/"));
	if (exact !== undefined) return [exact];
	const candidates = byBase.get(segments[segments.length - 1] ?? "") ?? [];
	let best: number[] = [];
	let bestShared = 0;
	for (const id of candidates) {
		const shared = sharedTail(segments, (graph.nodes[id]?.path ?? "").split("/"));
		if (shared > bestShared) {
			best = [id];
			bestShared = shared;
		} else if (shared === bestShared) best.push(id);
	}
	if (bestShared >= 2) return best;
	return segments.length === 1 && best.length <= MAX_FILES_PER_NAME ? best : [];
}

/** How many trailing segments `a` and `b` share. */
function sharedTail(a: readonly string[], b: readonly string[]): number {
	let n = 0;
	while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
	return n;
}

/** The innermost live symbols of `path` spanning `line`. */
function innermostAt(graph: CodeGraph, path: string, line: number): number[] {
	let best: number[] = [];
	let bestSpan = Number.POSITIVE_INFINITY;
	for (const id of graph.symbolIds.get(path) ?? []) {
		const node = graph.nodes[id];
		if (node === undefined || node.removed === true || node.line > line || node.endLine < line) continue;
		const span = node.endLine - node.line;
		if (span < bestSpan) {
			best = [id];
			bestSpan = span;
		} else if (span === bestSpan) best.push(id);
	}
	return best;
}

/**
 * The nodes `name` names: the symbols of that name (in that container when qualified); else the module its leading
 * parts spell as a path (`pkg.mod.func` → `pkg/mod.py` and its `func`, or the module file alone).
 */
function nodesForName(graph: CodeGraph, byBase: Map<string, number[]>, name: string): number[] {
	const direct = symbolsNamed({ graph }, name);
	if (direct.length > 0) return direct;
	const parts = name.split(/\.|::/).filter((p) => p !== "");
	if (parts.length < 2) return [];
	// The whole name as a module (`numpy.linalg`), else its longest leading module holding the last part as a symbol.
	let leading: number[] = [];
	for (let k = parts.length; k >= 1; k--) {
		const modules = moduleFiles(graph, byBase, parts.slice(0, k));
		if (k === parts.length) {
			if (modules.length > 0) return modules;
			continue;
		}
		if (leading.length === 0) leading = modules.filter((file) => !isPackageFile(graph.nodes[file]?.path ?? ""));
		const member = parts[parts.length - 1] as string;
		const inModule = modules.flatMap((file) => {
			const path = graph.nodes[file]?.path;
			return manyOf(graph.byName.get(member)).filter((id) => graph.nodes[id]?.path === path);
		});
		if (inModule.length > 0) return inModule;
	}
	// A module its leading parts spell is what the name is about, even without that member (`unittest.skip` is about
	// `_pytest/unittest.py`, not any `skip`): the member may come from elsewhere (a library, a star import). Not a
	// package's own file: it re-exports its members (`sympy.exp` is `exp`, not `sympy/__init__.py`).
	if (leading.length > 0) return leading;
	// `ds.to_netcdf` names `to_netcdf` whatever `ds` is; `Quantity.__array_ufunc__`, when the method is inherited,
	// the class it is asked of.
	const member = manyOf(graph.byName.get(parts[parts.length - 1] as string));
	return member.length > 0 ? [...member] : symbolsNamed({ graph }, parts[parts.length - 2] as string);
}

/** Whether `path` is a package's own file (`__init__.py`, `index.ts`, `mod.rs`). */
function isPackageFile(path: string): boolean {
	return PACKAGE_FILES.includes(path.slice(path.lastIndexOf("/") + 1));
}

/** Extensions a module file may have. */
const MODULE_EXTENSIONS = ["py", "pyi", "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "go", "rs", "java"];

/** The files a module path spells: `a/b/c.<ext>`, or a package file in `a/b/c/`, ending the file's path. */
function moduleFiles(graph: CodeGraph, byBase: Map<string, number[]>, parts: readonly string[]): number[] {
	const last = parts[parts.length - 1] as string;
	const found: number[] = [];
	const spelled = (base: string, wanted: readonly string[]) => {
		for (const id of byBase.get(base) ?? []) {
			if (sharedTail(wanted, (graph.nodes[id]?.path ?? "").split("/")) === wanted.length) found.push(id);
		}
	};
	for (const ext of MODULE_EXTENSIONS) spelled(`${last}.${ext}`, [...parts.slice(0, -1), `${last}.${ext}`]);
	for (const base of PACKAGE_FILES) spelled(base, [...parts, base]);
	return found;
}

/**
 * The files in the areas `scopes` name: a directory or file (without extension, a test by its subject's name:
 * `context` is `context.go` and `context_test.go`) of that name, or a run of them for
 * a scope with slashes (`net/http`); names compared without case, `-`, `_` and `.` (`v-model` is `vModel.ts`).
 */
function scopedFiles(graph: CodeGraph, scopes: readonly string[]): number[] {
	if (scopes.length === 0) return [];
	const wanted = scopes.map((scope) =>
		scope
			.split("/")
			.map(plain)
			.filter((part) => part !== ""),
	);
	const found: number[] = [];
	for (const [path, id] of graph.fileNode) {
		const parts = path.split("/");
		parts[parts.length - 1] = subjectStem(path);
		const plainParts = parts.map(plain);
		if (wanted.some((scope) => scope.length > 0 && holdsRun(plainParts, scope))) found.push(id);
	}
	return found;
}

/** A name without case and the punctuation that joins words. */
function plain(name: string): string {
	return name.toLowerCase().replace(/[-_.]/g, "");
}

/** Whether `run` occurs in `parts` as consecutive entries. */
function holdsRun(parts: readonly string[], run: readonly string[]): boolean {
	for (let at = 0; at + run.length <= parts.length; at++) {
		if (run.every((part, k) => parts[at + k] === part)) return true;
	}
	return false;
}
