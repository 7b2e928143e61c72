import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** One module reached by static imports from an entry: its size on disk, and the bytes of its code alone. */
export interface GraphModule {
	path: string;
	bytes: number;
	/** The bytes left once comments and blank lines are taken out: what loading it costs, not what explains it. */
	codeBytes: number;
}

/** Packages the Pi host provides to extensions at run time; their bytes are Pi's, not the extension's. */
const HOST_PACKAGES = ["@earendil-works/", "typebox"];

/**
 * The static import graph of a TypeScript entry module: every file reached through `import … from` and
 * `export … from` (type-only imports are erased by the host and do not count; `import()` is lazy and does not
 * count). Relative specifiers and workspace package exports are followed; Node built-ins and host packages stop.
 */
export function staticImportGraph(entry: string, repoRoot: string): { modules: GraphModule[]; external: string[] } {
	const seen = new Map<string, { bytes: number; codeBytes: number }>();
	const external = new Set<string>();
	const queue = [resolve(entry)];
	while (queue.length > 0) {
		const file = queue.pop() as string;
		if (seen.has(file)) continue;
		const source = readFileSync(file, "utf8");
		seen.set(file, { bytes: statSync(file).size, codeBytes: Buffer.byteLength(codeOnly(source)) });
		for (const specifier of staticSpecifiers(source)) {
			if (specifier.startsWith("node:") || HOST_PACKAGES.some((p) => specifier.startsWith(p))) continue;
			if (specifier.startsWith(".")) {
				queue.push(resolve(dirname(file), specifier));
				continue;
			}
			const target = resolveWorkspaceExport(specifier, repoRoot);
			if (target === undefined) external.add(specifier);
			else queue.push(target);
		}
	}
	return { modules: [...seen].map(([path, sizes]) => ({ path, ...sizes })), external: [...external] };
}

/**
 * `source` without its comment lines, block comments and blank lines. Whole lines only: a `//` inside a string or a
 * trailing comment stays, so the count can only overstate the code.
 */
export function codeOnly(source: string): string {
	return source
		.replace(/^\s*\/\*[\s\S]*?\*\/\s*$/gm, "")
		.split("\n")
		.filter((line) => line.trim() !== "" && !/^\s*\/\//.test(line))
		.join("\n");
}

/** Specifiers of value-level static imports and re-exports in `source`. */
export function staticSpecifiers(source: string): string[] {
	const specifiers: string[] = [];
	const pattern = /^\s*(import|export)\s+(type\s+)?([^'";]*?\s+from\s+)?["']([^"']+)["']/gm;
	for (const match of source.matchAll(pattern)) {
		const [, keyword, typeOnly, clause, specifier] = match;
		if (typeOnly !== undefined || specifier === undefined) continue;
		if (keyword === "export" && clause === undefined) continue;
		if (clause !== undefined && /^\{[^}]*\}\s+from$/.test(clause.trim()) && allTypeOnly(clause)) continue;
		specifiers.push(specifier);
	}
	return specifiers;
}

function allTypeOnly(clause: string): boolean {
	const inner = clause.slice(clause.indexOf("{") + 1, clause.lastIndexOf("}"));
	const names = inner
		.split(",")
		.map((n) => n.trim())
		.filter((n) => n.length > 0);
	return names.length > 0 && names.every((n) => n.startsWith("type "));
}

/**
 * Every module `source` names: static imports and re-exports, type-only ones included, side-effect imports, and
 * `import("…")` with a literal. Comments that start a line are skipped (a doc comment may show an import as an
 * example).
 */
export function allSpecifiers(source: string): string[] {
	const code = source.replace(/^\s*\/\*[\s\S]*?\*\//gm, "").replace(/^\s*\/\/.*$/gm, "");
	const specifiers: string[] = [];
	const pattern =
		/^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm;
	for (const match of code.matchAll(pattern)) {
		const specifier = match[1] ?? match[2];
		if (specifier !== undefined) specifiers.push(specifier);
	}
	return specifiers;
}

/** The file a workspace package specifier (`pi-fovea/engine`) names through its package's `exports`, if any. */
export function resolveWorkspaceExport(specifier: string, repoRoot: string): string | undefined {
	const [scopeOrName = "", maybeName] = specifier.split("/");
	const name = scopeOrName.startsWith("@") ? `${scopeOrName}/${maybeName}` : scopeOrName;
	const subpath = `.${specifier.slice(name.length)}`;
	for (const pkg of ["fovea", "contour", "crew"]) {
		const dir = join(repoRoot, "packages", pkg);
		const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
			name: string;
			exports?: Record<string, string>;
		};
		if (manifest.name !== name) continue;
		const target = manifest.exports?.[subpath === "." ? "." : subpath];
		return target === undefined ? undefined : resolve(dir, target);
	}
	return undefined;
}
