/**
 * Import resolution for TypeScript and JavaScript: relative specifiers probe the source extensions (preferring a
 * `.ts` source to the `.js` it compiles to), then `/index.*`; bare specifiers go through tsconfig `paths` (exact
 * patterns first, then the longest `*` prefix, targets in order), then `baseUrl`, then a `#name` through the
 * `imports` of the nearest `package.json` and any other name through the root's own packages.
 */

import { dirnameOf, firstExisting, joinPath } from "../model/index.ts";
import { declaredTargets, type LocalPackage, packageTargets } from "./local-packages.ts";
import { patternTargets } from "./path-patterns.ts";

/** The tsconfig settings that resolve bare specifiers. */
export interface TsconfigPaths {
	/** Root-relative directory of the tsconfig (`""` for the root). */
	baseDir: string;
	baseUrl?: string;
	paths?: Record<string, string[]>;
}

const SCRIPT_EXTENSIONS = [".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"];
const SOURCE_FOR_OUTPUT: Record<string, string[]> = {
	".js": [".ts", ".tsx", ".d.ts"],
	".jsx": [".tsx"],
	".mjs": [".mts", ".d.mts"],
	".cjs": [".cts", ".d.cts"],
};

/** What script resolution looks at (see `ResolutionContext`). */
export interface ScriptContext {
	files: ReadonlySet<string>;
	tsconfig?: TsconfigPaths | undefined;
	nestedTsconfigs?: ReadonlyMap<string, TsconfigPaths | null> | undefined;
	packages?: ReadonlyMap<string, LocalPackage> | undefined;
	packageImports?: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>> | undefined;
}

/** The settings of the configuration nearest above `fromPath`: a nested one, else the root's. */
function tsconfigOf(fromPath: string, context: ScriptContext): TsconfigPaths | undefined {
	const nested = context.nestedTsconfigs;
	if (nested !== undefined && nested.size > 0) {
		for (let dir = dirnameOf(fromPath); dir !== ""; dir = dirnameOf(dir)) {
			const found = nested.get(dir);
			if (found !== undefined) return found ?? undefined;
		}
	}
	return context.tsconfig;
}

/**
 * The files a TypeScript/JavaScript specifier written in `fromPath` names: relative, through the aliases of the
 * configuration nearest above it, else as a package of the root (a monorepo's own packages).
 */
export function resolveScript(fromPath: string, spec: string, context: ScriptContext): string[] {
	if (spec === "." || spec === ".." || spec.startsWith("./") || spec.startsWith("../")) {
		return probeScript(joinPath(dirnameOf(fromPath), spec), context.files);
	}
	if (spec.startsWith("/")) return [];
	const tsconfig = tsconfigOf(fromPath, context);
	const aliased = tsconfig === undefined ? [] : resolveAlias(spec, tsconfig, context.files);
	if (aliased.length > 0) return aliased;
	if (spec.startsWith("#")) return resolveSubpathImport(fromPath, spec, context);
	if (context.packages === undefined || context.packages.size === 0) return [];
	return firstFound(packageTargets(spec, context.packages), context.files);
}

/**
 * The files a `#name` specifier names through the `imports` of the `package.json` nearest above `fromPath`, as Node
 * resolves it: a `./` target inside that package (or its source twin, see `declaredTargets`), a bare one as any bare
 * specifier written in `fromPath`. A manifest without the key ends the search: Node looks no further up.
 */
function resolveSubpathImport(fromPath: string, spec: string, context: ScriptContext): string[] {
	const scopes = context.packageImports;
	if (scopes === undefined) return [];
	for (let dir = dirnameOf(fromPath); ; dir = dirnameOf(dir)) {
		const imports = scopes.get(dir);
		if (imports !== undefined) {
			for (const target of patternTargets(spec, imports)) {
				const found = target.startsWith("./")
					? firstFound(declaredTargets(dir, target), context.files)
					: target.startsWith("#")
						? []
						: resolveScript(fromPath, target, context);
				if (found.length > 0) return found;
			}
			return [];
		}
		if (dir === "") return [];
	}
}

function firstFound(bases: readonly string[], files: ReadonlySet<string>): string[] {
	for (const base of bases) {
		const found = probeScript(base, files);
		if (found.length > 0) return found;
	}
	return [];
}

/** The files a bare specifier names through tsconfig `paths`, then `baseUrl`. */
function resolveAlias(spec: string, tsconfig: TsconfigPaths, files: ReadonlySet<string>): string[] {
	const base = joinPath(tsconfig.baseDir, tsconfig.baseUrl ?? ".");
	if (base === undefined) return [];
	for (const target of patternTargets(spec, Object.entries(tsconfig.paths ?? {}))) {
		const found = probeScript(joinPath(base, target), files);
		if (found.length > 0) return found;
	}
	return tsconfig.baseUrl === undefined ? [] : probeScript(joinPath(base, spec), files);
}

function probeScript(base: string | undefined, files: ReadonlySet<string>): string[] {
	if (base === undefined) return [];
	const candidates: string[] = [];
	const dot = base.lastIndexOf(".");
	const ext = dot > base.lastIndexOf("/") ? base.slice(dot) : "";
	const sources = SOURCE_FOR_OUTPUT[ext];
	if (sources !== undefined) for (const source of sources) candidates.push(base.slice(0, dot) + source);
	candidates.push(base);
	// TypeScript with `allowJs` takes `./view.js` for `view.jsx` too, as it takes it for `view.tsx`.
	if (ext === ".js") candidates.push(`${base.slice(0, dot)}.jsx`);
	for (const extension of SCRIPT_EXTENSIONS) candidates.push(base + extension);
	const dir = base === "" ? "index" : `${base}/index`;
	for (const extension of SCRIPT_EXTENSIONS) candidates.push(dir + extension);
	return firstExisting(files, candidates);
}
