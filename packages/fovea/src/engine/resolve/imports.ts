/**
 * Resolution of an import as written (`ImportFact.specifier`) to files of the project, by convention and by probing
 * `context.files` — never by reading the disk, so it is pure and fast. A specifier that names nothing in the project
 * (standard library, third-party package, unknown alias) resolves to `[]`. The importing file itself is never
 * returned.
 *
 * Each language's rules live in its own module: TypeScript/JavaScript with tsconfig paths (`script.ts`),
 * Python (`python.ts`), Rust (`rust.ts`), and Go and Java, whose imports name package directories
 * (`packages.ts`). This module picks one by the importing file's language and drops duplicates.
 *
 * `context.files` must not change while it is in use: per-set indexes (directory listing, file names) are built on
 * first use and cached on the set object (rebuilt if its size changes).
 */
import type { FileFacts, ImportFact } from "../model/index.ts";
import type { LocalPackage } from "./local-packages.ts";
import { type GoModule, resolveGo, resolveJava } from "./packages.ts";
import { resolvePython } from "./python.ts";
import { resolveRust } from "./rust.ts";
import { resolveScript, type TsconfigPaths } from "./script.ts";

/** What resolution may look at: the project's files and the settings read from the root. */
export interface ResolutionContext {
	/** Every root-relative file path of the project, `/`-separated. */
	files: ReadonlySet<string>;
	/** The root's `tsconfig.json` (else `jsconfig.json`) settings. */
	tsconfig?: TsconfigPaths;
	/**
	 * The configurations of directories below the root, by directory: a script file resolves with the nearest one
	 * above it (`null`: a configuration that sets no `baseUrl` or `paths`), else with the root's.
	 */
	nestedTsconfigs?: ReadonlyMap<string, TsconfigPaths | null>;
	/** The root's own packages by name (`package.json` files with a `name`), for imports between them. */
	packages?: ReadonlyMap<string, LocalPackage>;
	/**
	 * The subpath imports (`#name`) of every `package.json` of the root by its directory (empty maps for those that
	 * declare none); absent when none declares any.
	 */
	packageImports?: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;
	/** Module path declared by `go.mod`. */
	goModule?: string;
	/** Root-relative directory holding that `go.mod`; the root by default. */
	goModuleDir?: string;
	/** The Go modules of `go.mod` files below the root (a repository holding several), with their directories. */
	goModules?: readonly GoModule[];
	/** The crates of the root's `Cargo.toml` files by the name Rust paths use, with their directories. */
	rustCrates?: ReadonlyMap<string, string>;
	/** Directories below the root holding a Python project (`pyproject.toml` or `setup.py`), sorted. */
	pythonProjects?: readonly string[];
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
			found = resolvePython(from.path, spec, imported.names, context);
			break;
		case "go":
			found = resolveGo(spec, context);
			break;
		case "rust":
			found = resolveRust(from.path, spec, context);
			break;
		case "java":
			found = resolveJava(spec, context.files);
			break;
		default:
			found = [];
	}
	return found.filter((path, i) => path !== from.path && found.indexOf(path) === i);
}
