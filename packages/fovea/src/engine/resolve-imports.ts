/**
 * Resolution of an import as written (`ImportFact.specifier`) to files of the project, by convention and by probing
 * `context.files` — never by reading the disk, so it is pure and fast. A specifier that names nothing in the project
 * (standard library, third-party package, unknown alias) resolves to `[]`. The importing file itself is never
 * returned.
 *
 * - TypeScript/JavaScript: relative specifiers probe `.ts .tsx .d.ts .js .jsx .mjs .cjs .mts .cts`, then `/index.*`;
 *   a `.js`/`.jsx`/`.mjs`/`.cjs` specifier prefers the `.ts`/`.tsx`/`.mts`/`.cts` source. Bare specifiers go through
 *   `tsconfig.paths` (exact patterns first, then the longest `*` prefix, targets in order) and then `baseUrl`.
 * - Python: `a.b` → `a/b.py`, `a/b.pyi` or `a/b/__init__.py` under the root, `src/`, or an ancestor directory of the
 *   importing file (nearest first); `.x`/`..x.y` from the importing file's package. For `from m import n`, each name
 *   that is a submodule (`m/n.py`, `m/n/__init__.py`) resolves too, besides `m` itself.
 * - Go: paths under `context.goModule` → every non-test `.go` file of that directory (below `goModuleDir`).
 * - Rust: `crate::`/`self::`/`super::` paths → the longest prefix that is a module file (`a/b.rs` or `a/b/mod.rs`,
 *   falling back to the crate root `lib.rs`/`main.rs` for items of the root); a path starting with a module of the
 *   crate root is crate-relative; `mod:x` → `x.rs` or `x/mod.rs` in the declaring module's directory.
 * - Java: `a.b.C` → every `…/a/b/C.java` (outer class for nested or static-member imports); `a.b.*` → every `.java`
 *   file of every `…/a/b` directory.
 *
 * `context.files` must not change while it is in use: per-set indexes (directory listing, file names) are built on
 * first use and cached on the set object (rebuilt if its size changes).
 */
import type { FileFacts, ImportFact } from "./facts.ts";

export interface TsconfigPaths {
	/** Root-relative directory of the tsconfig (`""` for the root). */
	baseDir: string;
	baseUrl?: string;
	paths?: Record<string, string[]>;
}

export interface ResolutionContext {
	/** Every root-relative file path of the project, `/`-separated. */
	files: ReadonlySet<string>;
	tsconfig?: TsconfigPaths;
	/** Module path declared by `go.mod`. */
	goModule?: string;
	/** Root-relative directory holding that `go.mod`; the root by default. */
	goModuleDir?: string;
}

/** The files `imported` refers to, as root-relative paths present in `context.files`. */
export function resolveImport(
	from: Pick<FileFacts, "path" | "language">,
	imported: ImportFact,
	context: ResolutionContext,
): string[] {
	const spec = imported.specifier;
	let found: string[];
	switch (from.language) {
		case "typescript":
		case "tsx":
		case "javascript":
			found = resolveScript(from.path, spec, context);
			break;
		case "python":
			found = resolvePython(from.path, spec, imported.names, context.files);
			break;
		case "go":
			found = resolveGo(spec, context);
			break;
		case "rust":
			found = resolveRust(from.path, spec, context.files);
			break;
		case "java":
			found = resolveJava(spec, context.files);
			break;
		default:
			found = [];
	}
	return found.filter((path, i) => path !== from.path && found.indexOf(path) === i);
}

// ---------------------------------------------------------------- paths and indexes

/** `a/b/c.ts` → `a/b`; a root-level file → `""`. */
export function dirnameOf(path: string): string {
	const slash = path.lastIndexOf("/");
	return slash < 0 ? "" : path.slice(0, slash);
}

/** `a/b/c.ts` → `c.ts`. */
export function basenameOf(path: string): string {
	return path.slice(path.lastIndexOf("/") + 1);
}

/** Joins root-relative segments, resolving `.` and `..`; `undefined` when the result would leave the root. */
export function joinPath(...parts: string[]): string | undefined {
	const out: string[] = [];
	for (const part of parts) {
		for (const segment of part.split("/")) {
			if (segment === "" || segment === ".") continue;
			if (segment === "..") {
				if (out.length === 0) return undefined;
				out.pop();
			} else out.push(segment);
		}
	}
	return out.join("/");
}

export interface FileIndex {
	/** Directory → files directly inside it, sorted. */
	byDir: Map<string, string[]>;
	/** File name → every path with that name, sorted. */
	byName: Map<string, string[]>;
	/** Directory name → every directory with that name (holding files directly). */
	dirsByName: Map<string, string[]>;
}

const indexes = new WeakMap<ReadonlySet<string>, { size: number; index: FileIndex }>();

/** Directory and file-name indexes of `files`, built once per set. */
export function fileIndex(files: ReadonlySet<string>): FileIndex {
	const cached = indexes.get(files);
	if (cached !== undefined && cached.size === files.size) return cached.index;
	const byDir = new Map<string, string[]>();
	const byName = new Map<string, string[]>();
	for (const path of [...files].sort()) {
		push(byDir, dirnameOf(path), path);
		push(byName, basenameOf(path), path);
	}
	const dirsByName = new Map<string, string[]>();
	for (const dir of byDir.keys()) push(dirsByName, basenameOf(dir), dir);
	const index = { byDir, byName, dirsByName };
	indexes.set(files, { size: files.size, index });
	return index;
}

function push(map: Map<string, string[]>, key: string, value: string): void {
	const list = map.get(key);
	if (list === undefined) map.set(key, [value]);
	else list.push(value);
}

function firstExisting(files: ReadonlySet<string>, candidates: Iterable<string | undefined>): string[] {
	for (const candidate of candidates) if (candidate !== undefined && files.has(candidate)) return [candidate];
	return [];
}

// ---------------------------------------------------------------- TypeScript / JavaScript

const SCRIPT_EXTENSIONS = [".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"];
const SOURCE_FOR_OUTPUT: Record<string, string[]> = {
	".js": [".ts", ".tsx", ".d.ts"],
	".jsx": [".tsx"],
	".mjs": [".mts", ".d.mts"],
	".cjs": [".cts", ".d.cts"],
};

function resolveScript(fromPath: string, spec: string, context: ResolutionContext): string[] {
	if (spec === "." || spec === ".." || spec.startsWith("./") || spec.startsWith("../")) {
		return probeScript(joinPath(dirnameOf(fromPath), spec), context.files);
	}
	if (spec.startsWith("/")) return [];
	const tsconfig = context.tsconfig;
	if (tsconfig === undefined) return [];
	const base = joinPath(tsconfig.baseDir, tsconfig.baseUrl ?? ".");
	if (base === undefined) return [];
	for (const target of pathTargets(spec, tsconfig.paths)) {
		const found = probeScript(joinPath(base, target), context.files);
		if (found.length > 0) return found;
	}
	return tsconfig.baseUrl === undefined ? [] : probeScript(joinPath(base, spec), context.files);
}

/** Substituted targets of the `paths` pattern that matches `spec`: an exact pattern, else the longest prefix. */
function pathTargets(spec: string, paths: Record<string, string[]> | undefined): string[] {
	if (paths === undefined) return [];
	if (Object.hasOwn(paths, spec) && !spec.includes("*")) return paths[spec] ?? [];
	let best: { prefix: number; capture: string; targets: string[] } | undefined;
	for (const [pattern, targets] of Object.entries(paths)) {
		const star = pattern.indexOf("*");
		if (star < 0) continue;
		const prefix = pattern.slice(0, star);
		const suffix = pattern.slice(star + 1);
		if (spec.length < prefix.length + suffix.length || !spec.startsWith(prefix) || !spec.endsWith(suffix)) continue;
		if (best !== undefined && best.prefix >= prefix.length) continue;
		best = { prefix: prefix.length, capture: spec.slice(prefix.length, spec.length - suffix.length), targets };
	}
	if (best === undefined) return [];
	const capture = best.capture;
	return best.targets.map((target) => target.replace("*", capture));
}

function probeScript(base: string | undefined, files: ReadonlySet<string>): string[] {
	if (base === undefined) return [];
	const candidates: string[] = [];
	const dot = base.lastIndexOf(".");
	const ext = dot > base.lastIndexOf("/") ? base.slice(dot) : "";
	const sources = SOURCE_FOR_OUTPUT[ext];
	if (sources !== undefined) for (const source of sources) candidates.push(base.slice(0, dot) + source);
	candidates.push(base);
	for (const extension of SCRIPT_EXTENSIONS) candidates.push(base + extension);
	const dir = base === "" ? "index" : `${base}/index`;
	for (const extension of SCRIPT_EXTENSIONS) candidates.push(dir + extension);
	return firstExisting(files, candidates);
}

// ---------------------------------------------------------------- Python

function resolvePython(
	fromPath: string,
	spec: string,
	names: string[] | undefined,
	files: ReadonlySet<string>,
): string[] {
	const dots = /^\.*/.exec(spec)?.[0].length ?? 0;
	const rest = spec.slice(dots).replace(/\./g, "/");
	if (dots > 0) {
		let dir: string | undefined = dirnameOf(fromPath);
		for (let i = 1; i < dots && dir !== undefined; i++) dir = dir === "" ? undefined : dirnameOf(dir);
		if (dir === undefined) return [];
		return pythonModule(joinPath(dir, rest), names, files, true);
	}
	if (rest === "") return [];
	const roots = ["", "src"];
	for (let dir = dirnameOf(fromPath); dir !== ""; dir = dirnameOf(dir)) if (dir !== "src") roots.push(dir);
	for (const root of roots) {
		const found = pythonModule(joinPath(root, rest), names, files, false);
		if (found.length > 0) return found;
	}
	return [];
}

function pythonModule(
	module: string | undefined,
	names: string[] | undefined,
	files: ReadonlySet<string>,
	relative: boolean,
): string[] {
	if (module === undefined) return [];
	const found: string[] = [];
	const prefix = module === "" ? "" : `${module}/`;
	const own = module === "" ? [`__init__.py`] : [`${module}.py`, `${module}.pyi`, `${prefix}__init__.py`];
	found.push(...firstExisting(files, own));
	if (found.length === 0 && !relative && names === undefined) return found;
	for (const name of names ?? []) {
		if (name === "*") continue;
		found.push(
			...firstExisting(files, [`${prefix}${name}.py`, `${prefix}${name}.pyi`, `${prefix}${name}/__init__.py`]),
		);
	}
	return found;
}

// ---------------------------------------------------------------- Go

function resolveGo(spec: string, context: ResolutionContext): string[] {
	const module = context.goModule;
	if (module === undefined || module === "") return [];
	if (spec !== module && !spec.startsWith(`${module}/`)) return [];
	const dir = joinPath(context.goModuleDir ?? "", spec.slice(module.length));
	if (dir === undefined) return [];
	const listing = fileIndex(context.files).byDir.get(dir) ?? [];
	return listing.filter((path) => path.endsWith(".go") && !path.endsWith("_test.go"));
}

// ---------------------------------------------------------------- Rust

const RUST_EXTERNAL_ROOTS = new Set(["std", "core", "alloc"]);

function resolveRust(fromPath: string, spec: string, files: ReadonlySet<string>): string[] {
	if (spec.startsWith("mod:")) {
		const dir = rustModuleDir(fromPath);
		const name = spec.slice(4);
		return firstExisting(files, [joinPath(dir, `${name}.rs`), joinPath(dir, name, "mod.rs")]);
	}
	const segments = spec.split("::").filter((segment) => segment !== "");
	const crate = rustCrate(fromPath, files);
	if (crate === undefined || segments.length === 0) return [];
	let base: string[];
	const head = segments[0] as string;
	if (head === "crate") base = [];
	else if (head === "self" || head === "super") {
		base = [...crate.modulePath];
		let i = 0;
		for (; segments[i] === "self" || segments[i] === "super"; i++) {
			if (segments[i] === "super") {
				if (base.length === 0) return [];
				base.pop();
			}
		}
		return rustPath(crate, [...base, ...segments.slice(i)], files);
	} else if (RUST_EXTERNAL_ROOTS.has(head)) return [];
	else {
		// Uniform paths: a first segment naming a module of the crate root is crate-relative; else an external crate.
		const local = firstExisting(files, [joinPath(crate.src, `${head}.rs`), joinPath(crate.src, head, "mod.rs")]);
		if (local.length === 0) return [];
		return rustPath(crate, segments, files);
	}
	return rustPath(crate, [...base, ...segments.slice(1)], files);
}

interface RustCrate {
	/** Directory holding the crate root (`src`). */
	src: string;
	/** The crate root file: `lib.rs`, else `main.rs`, or the importing file when it is itself a root. */
	root: string | undefined;
	/** Module path of the importing file inside the crate (`src/a/b.rs` → `["a", "b"]`). */
	modulePath: string[];
}

function rustCrate(fromPath: string, files: ReadonlySet<string>): RustCrate | undefined {
	const segments = fromPath.split("/");
	const srcAt = segments.lastIndexOf("src", segments.length - 2);
	if (srcAt < 0) return undefined;
	const src = segments.slice(0, srcAt + 1).join("/");
	const inner = segments.slice(srcAt + 1);
	inner[inner.length - 1] = (inner[inner.length - 1] as string).replace(/\.rs$/, "");
	if (inner[inner.length - 1] === "mod") inner.pop();
	else if (inner.length === 1 && (inner[0] === "lib" || inner[0] === "main")) inner.pop();
	const isRoot = inner.length === 0 && !fromPath.endsWith("/mod.rs");
	const root = isRoot ? fromPath : firstExisting(files, [`${src}/lib.rs`, `${src}/main.rs`])[0];
	return { src, root, modulePath: inner };
}

/** The longest prefix of `path` that is a module file under the crate, else the crate root. */
function rustPath(crate: RustCrate, path: string[], files: ReadonlySet<string>): string[] {
	for (let k = path.length; k > 0; k--) {
		const module = joinPath(crate.src, ...path.slice(0, k));
		if (module === undefined) return [];
		const found = firstExisting(files, [`${module}.rs`, `${module}/mod.rs`]);
		if (found.length > 0) return found;
	}
	return crate.root === undefined ? [] : [crate.root];
}

/** Where `mod x;` declared in `path` looks for `x`: beside `mod.rs`/`lib.rs`/`main.rs`, else in `dir/stem/`. */
function rustModuleDir(path: string): string {
	const name = basenameOf(path);
	const dir = dirnameOf(path);
	if (name === "mod.rs" || name === "lib.rs" || name === "main.rs") return dir;
	const stem = name.replace(/\.rs$/, "");
	return dir === "" ? stem : `${dir}/${stem}`;
}

// ---------------------------------------------------------------- Java

function resolveJava(spec: string, files: ReadonlySet<string>): string[] {
	const index = fileIndex(files);
	if (spec.endsWith(".*")) {
		const pkg = spec.slice(0, -2).replace(/\./g, "/");
		const found: string[] = [];
		for (const dir of index.dirsByName.get(basenameOf(pkg)) ?? []) {
			if (dir !== pkg && !dir.endsWith(`/${pkg}`)) continue;
			for (const path of index.byDir.get(dir) ?? []) if (path.endsWith(".java")) found.push(path);
		}
		if (found.length > 0) return found;
		return javaClass(spec.slice(0, -2).split("."), index);
	}
	return javaClass(spec.split("."), index);
}

function javaClass(segments: string[], index: FileIndex): string[] {
	for (let k = segments.length; k > 0; k--) {
		const name = `${segments[k - 1]}.java`;
		const suffix = `${segments.slice(0, k).join("/")}.java`;
		const found = (index.byName.get(name) ?? []).filter((path) => path === suffix || path.endsWith(`/${suffix}`));
		if (found.length > 0) return found;
	}
	return [];
}
