/**
 * Import resolution for Rust: `crate::`/`self::`/`super::` paths resolve to the longest prefix that is a module file
 * (`a/b.rs` or `a/b/mod.rs`), falling back to the crate root `lib.rs`/`main.rs` for items of the root; a path
 * starting with a module of the crate root is crate-relative; a path starting with a crate of the root's workspace
 * resolves in that crate, also from an integration test, example or benchmark (`tests/x.rs`: `use ignore::dir`); `mod:x` is `x.rs` or `x/mod.rs` in the declaring
 * module's directory. Its own module because crate layout (where `src` is, which file is the root) is Rust's alone.
 */
import { basenameOf, dirnameOf, firstExisting, joinPath } from "../model/index.ts";

const RUST_EXTERNAL_ROOTS = new Set(["std", "core", "alloc"]);
/** Directories of a package whose files are crates of their own that use the package's library as an outside crate. */
const TARGET_DIRS = new Set(["tests", "examples", "benches"]);

/**
 * The files a Rust path (`crate::`, `self::`, `super::`, a crate-root module, another crate of the root's workspace)
 * or `mod:x` in `fromPath` names. `crates` maps a crate's name as paths write it (`my_lib` for `my-lib`) to the
 * root-relative directory of its `Cargo.toml`.
 */
export function resolveRust(
	fromPath: string,
	spec: string,
	context: { files: ReadonlySet<string>; rustCrates?: ReadonlyMap<string, string> | undefined },
): string[] {
	const files = context.files;
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
		if (local.length > 0) return rustPath(crate, segments, files);
		const member = context.rustCrates?.get(head);
		if (member === undefined) return [];
		const src = joinPath(member, "src");
		if (src === undefined) return [];
		const root = firstExisting(files, [`${src}/lib.rs`, `${src}/main.rs`])[0];
		return rustPath({ src, root, modulePath: [] }, segments.slice(1), files);
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

/**
 * The crate `fromPath` belongs to: the one of its nearest `src` directory, else (an integration test, example or
 * benchmark, each a crate of its own) its nearest `tests`/`examples`/`benches` directory, whose files its `crate::`
 * paths name (a test target `tests/tests.rs` declaring `mod util;` is used as `crate::util`) and which has no root.
 */
function rustCrate(fromPath: string, files: ReadonlySet<string>): RustCrate | undefined {
	const segments = fromPath.split("/");
	const srcAt = segments.lastIndexOf("src", segments.length - 2);
	if (srcAt < 0) {
		const at = segments.findLastIndex((s, i) => i < segments.length - 1 && TARGET_DIRS.has(s));
		if (at < 0) return undefined;
		const inner = segments.slice(at + 1);
		inner[inner.length - 1] = (inner[inner.length - 1] as string).replace(/\.rs$/, "");
		if (inner[inner.length - 1] === "mod") inner.pop();
		return { src: segments.slice(0, at + 1).join("/"), root: undefined, modulePath: inner };
	}
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
