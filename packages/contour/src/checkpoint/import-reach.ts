/**
 * Which files of a project slice (`project-slice.ts`) a review parses so that its import graphs give the same
 * answers as graphs of the whole project:
 *
 * - The files that import a changed path (on either side): the imports a change adds or removes include those of
 *   unchanged files whose import now resolves elsewhere (a file added beside an old target), and clone search looks
 *   at importers. A file can import a path only if its text names it (`importKeys`), so only files whose text holds
 *   a key are parsed; the parse decides. A Python file names what it imports in its import statements, so only
 *   those are searched (`python-import-text.ts`): a module called like a common word is no reason to parse every
 *   file that uses the word.
 * - Every file on a cycle through a changed file: such a cycle lies both among the files a changed file reaches
 *   through imports and among the files that reach it. Either set, parsed whole with all its imports, gives the
 *   cycles the whole project's graph holds, so both are grown a level at a time, the cheaper one first, until one is
 *   complete. A cycle that touches no changed file is the same on both sides and never reported.
 */
import { posix } from "node:path";
import { type LanguageId, languageOf, type ResolutionContext, resolveImport } from "pi-fovea/engine";
import { ImportResolutions } from "./import-resolutions.ts";
import type { ImportFacts } from "./measure-cache.ts";
import type { ProjectSlice } from "./project-slice.ts";
import { pythonImportText } from "./python-import-text.ts";

/** A file's imports as one side of the import graphs sees them. */
export interface ReachedSide {
	path: string;
	language: LanguageId;
	imports: ImportFacts;
}

/** File names a directory import resolves to: such a file is named by its directory, not its own name. */
const DIRECTORY_ENTRIES = /^(index|__init__|mod|lib|main)\.[^.]+$/;

/**
 * Parses in `slice` the importers of `changedPaths` and the files on cycles through them, from `sides` (the changed
 * files' before and after sides), resolving each import against the file list of both sides (`sideFiles`), with the
 * review's remembered resolutions (`resolutions`, shared with its import graphs).
 */
export async function reachImports(
	slice: ProjectSlice,
	sides: readonly ReachedSide[],
	changedPaths: ReadonlySet<string>,
	sideFiles: { before: ReadonlySet<string>; after: ReadonlySet<string> },
	signal?: AbortSignal,
	resolutions: ImportResolutions = new ImportResolutions(),
): Promise<void> {
	const base = slice.project.context;
	// One resolver when both sides list the same files.
	const resolvers = new Set([resolutions.onSide(base, sideFiles.before), resolutions.onSide(base, sideFiles.after)]);
	const targets = (side: ReachedSide): Set<string> => {
		const out = new Set<string>();
		for (const resolve of resolvers)
			for (const imported of side.imports) for (const target of resolve(side, imported)) out.add(target);
		return out;
	};
	const parse = async (paths: Iterable<string>): Promise<void> => {
		await slice.factsFor(paths);
		signal?.throwIfAborted();
	};
	// What reaches the changed files: a level is the files whose text names one of the last level and that import
	// it. The first level (the changed paths' importers) is always wanted.
	const backward = { seen: new Set(changedPaths), frontier: [...changedPaths] };
	const candidatesBack = () => namingFiles(slice, backward.frontier, backward.seen);
	const stepBackward = async ({ level, candidates }: ReturnType<typeof candidatesBack>): Promise<void> => {
		await parse(candidates);
		backward.frontier = candidates.filter((path) => {
			const facts = slice.project.files.get(path);
			return facts !== undefined && [...targets(facts)].some((target) => level.has(target));
		});
		for (const path of backward.frontier) backward.seen.add(path);
	};
	// What the changed files reach: a level is what the last one imports.
	const forward = { seen: new Set(changedPaths), frontier: [] as string[] };
	const enqueue = (paths: Iterable<string>, into: Set<string>) => {
		for (const path of paths) if (!forward.seen.has(path)) into.add(path);
	};
	const first = new Set<string>();
	for (const side of sides) enqueue(targets(side), first);
	forward.frontier = [...first];
	const stepForward = async (): Promise<void> => {
		for (const path of forward.frontier) forward.seen.add(path);
		await parse(forward.frontier);
		const next = new Set<string>();
		for (const path of forward.frontier) {
			const facts = slice.project.files.get(path);
			if (facts !== undefined) enqueue(targets(facts), next);
		}
		forward.frontier = [...next];
	};
	await stepBackward(candidatesBack());
	// The cheaper next level first: files not parsed yet on either side.
	const unparsed = (paths: readonly string[]) => paths.filter((path) => !slice.project.files.has(path)).length;
	while (forward.frontier.length > 0 && backward.frontier.length > 0) {
		const back = candidatesBack();
		if (unparsed(back.candidates) < unparsed(forward.frontier)) await stepBackward(back);
		else await stepForward();
	}
}

/**
 * A backward level's candidates: the files of `slice` not `seen` whose text names a file of `frontier`
 * (`importKeys`), or that lie under the directory of a directory's entry file (or a Rust module) among them; with
 * `level`, the files of `frontier` in a language the engine parses. The first level, from the changed paths, is
 * parsed in every review, so a cold review can hand it to the parsing threads before it measures its change.
 */
export function namingFiles(
	slice: Pick<ProjectSlice, "texts" | "project">,
	frontier: Iterable<string>,
	seen: ReadonlySet<string>,
): { level: Set<string>; candidates: string[] } {
	const level = new Set([...frontier].filter((path) => languageOf(path) !== undefined));
	const keys: RegExp[] = [];
	const dirs = new Set<string>();
	for (const path of level) {
		keys.push(...importKeys(path, slice.project.context));
		if (DIRECTORY_ENTRIES.test(posix.basename(path)) || path.endsWith(".rs")) dirs.add(posix.dirname(path));
	}
	const candidates: string[] = [];
	for (const [path, text] of slice.texts) {
		if (seen.has(path)) continue;
		const near = [...dirs].some((dir) => dir === "." || path.startsWith(`${dir}/`));
		if (near) candidates.push(path);
		else if (keys.some((key) => key.test(text))) {
			// A Python file names what it imports in its import statements only (`python-import-text.ts`).
			const statements = languageOf(path) === "python" ? pythonImportText(text) : undefined;
			if (statements === undefined || keys.some((key) => key.test(statements))) candidates.push(path);
		}
	}
	return { level, candidates };
}

/**
 * Patterns one of which a file's text must match to import `path`: its name up to the first dot, as a module path
 * writes it (in a script, after a `/` or a quote and before a `/`, a quote or a dot; elsewhere as a word); for a
 * directory's entry file (`index.ts`, `__init__.py`) or a Java class, the name of its directory too; for Go, the
 * quoted import path of its package; and a local package name, tsconfig alias or subpath import that resolves to it.
 */
export function importKeys(path: string, context: ResolutionContext): RegExp[] {
	const name = posix.basename(path);
	const dir = posix.dirname(path);
	const language = languageOf(path);
	if (language === "go") return goKeys(dir, context).map((key) => new RegExp(escaped(key)));
	const names = [name.split(".")[0] as string];
	// A directory import names the directory holding the entry file; a Java wildcard import, the class's package.
	if ((DIRECTORY_ENTRIES.test(name) || language === "java") && dir !== ".") names.push(posix.basename(dir));
	const script = language === "typescript" || language === "tsx" || language === "javascript";
	const keys = names.map((word) => {
		const core = escaped(word.split(".")[0] as string);
		return script ? new RegExp(`(?:^|[/'"\x60])${core}(?=[/'"\x60.])`, "m") : new RegExp(`\\b${core}\\b`);
	});
	const aliases = [...(context.packages?.keys() ?? [])];
	for (const tsconfig of [context.tsconfig, ...(context.nestedTsconfigs?.values() ?? [])])
		for (const alias of Object.keys(tsconfig?.paths ?? {})) if (!alias.includes("*")) aliases.push(alias);
	for (const imports of context.packageImports?.values() ?? [])
		for (const alias of imports.keys()) if (!alias.includes("*")) aliases.push(alias);
	const from = { path, language: language === "python" || language === undefined ? "typescript" : language };
	for (const alias of aliases)
		if (resolveImport(from, { specifier: alias, line: 1 }, context).includes(path))
			keys.push(new RegExp(escaped(alias)));
	return keys;
}

function escaped(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The quoted import paths of the Go package in `dir`; without a module, any text may name it. */
function goKeys(dir: string, context: ResolutionContext): string[] {
	const keys: string[] = [];
	const modules = [
		...(context.goModule === undefined ? [] : [{ module: context.goModule, dir: context.goModuleDir ?? "" }]),
		...(context.goModules ?? []),
	];
	for (const { module, dir: moduleDir } of modules) {
		const inside = moduleDir === "" || moduleDir === "." ? dir : posix.relative(moduleDir, dir);
		if (inside.startsWith("..")) continue;
		const importPath = inside === "." || inside === "" ? module : `${module}/${inside}`;
		keys.push(`"${importPath}"`, `\`${importPath}\``);
	}
	return keys.length === 0 ? [""] : keys;
}
