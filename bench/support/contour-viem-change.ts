// A refactoring-sized change on real code (the `viem` sources), made so that each kind of structural delta the two
// reviewers know occurs at least once: a new complex function with a needless catch and a boolean conditional, a
// copied function body, new imports between directories, a new file that closes an import cycle with the file it
// uses, a deleted file and a renamed file. The deleted and the renamed file import no project file: removing a file
// that is part of an import cycle would shrink that cycle, which the reference reports as new cycles (it
// flags every strongly connected region whose membership changed) and ours does not, a difference of definition
// rather than of coverage. The files are chosen from the sorted file list by position, so the same viem version gives the same
// change. Follows viem's own style (single quotes, no semicolons, two-space indent).
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";

/** What the change did, file by file. */
export interface ViemChange {
	complexFunction: string;
	clone: { from: string; to: string; name: string };
	crossImports: [string, string];
	cycle: [string, string];
	deleted: string;
	renamed: { from: string; to: string };
	added: string;
}

const FUNCTION_BLOCK = /^export function (\w+)[^\n]*\n[\s\S]*?^}\n/gm;

/** The top-level exported function blocks of a source (biome-formatted: a block ends at a `}` in column 0). */
function functionBlocks(source: string): { name: string; text: string }[] {
	return [...source.matchAll(FUNCTION_BLOCK)].map((m) => ({ name: m[1] as string, text: m[0] }));
}

function importPath(from: string, to: string): string {
	const path = posix.relative(posix.dirname(from), to).replace(/\.ts$/, ".js");
	return path.startsWith(".") ? path : `./${path}`;
}

/** Applies the change to the committed viem tree in `root` (paths relative to it); `files` is the sorted file list. */
export function applyViemChange(root: string, files: readonly string[]): ViemChange {
	const read = (path: string) => readFileSync(join(root, path), "utf8");
	const write = (path: string, text: string) => {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), text);
	};
	const candidates = files.filter(
		(p) => p.startsWith("viem/") && !/\.(test|bench|spec)\.ts$/.test(p) && !p.endsWith("/index.ts"),
	);
	const withFunctions = candidates.filter((p) => functionBlocks(read(p)).some((b) => b.text.split("\n").length >= 8));
	if (withFunctions.length < 50) throw new Error(`viem corpus: only ${withFunctions.length} files with functions`);
	const used = new Set<string>();
	const pick = (fraction: number, accept: (path: string) => boolean = () => true): string => {
		const start = Math.floor(fraction * withFunctions.length);
		for (let k = 0; k < withFunctions.length; k++) {
			const path = withFunctions[(start + k) % withFunctions.length] as string;
			if (!used.has(path) && accept(path)) {
				used.add(path);
				return path;
			}
		}
		throw new Error("viem corpus: no file left to change");
	};
	const firstBlock = (path: string) =>
		functionBlocks(read(path)).find((b) => b.text.split("\n").length >= 8) as { name: string; text: string };

	// 1. A new complex function in an existing file.
	const complexFunction = pick(0.1);
	write(complexFunction, `${read(complexFunction)}\n${SETTLE_FUNCTION}`);

	// 2. A function body copied into another file, under a new name.
	const cloneFrom = pick(0.5);
	const cloneTo = pick(0.3, (p) => posix.dirname(p) !== posix.dirname(cloneFrom));
	const original = firstBlock(cloneFrom);
	const copyName = `${original.name}Copy`;
	write(cloneTo, `${read(cloneTo)}\n${original.text.replace(`function ${original.name}`, `function ${copyName}`)}`);

	// 3. Two files in different directories start importing each other: two new cross-directory imports.
	const a = pick(0.7);
	const b = pick(0.9, (p) => posix.dirname(p) !== posix.dirname(a) && !read(a).includes(posix.basename(p, ".ts")));
	const aName = firstBlock(a).name;
	const bName = firstBlock(b).name;
	write(a, `import { ${bName} } from '${importPath(a, b)}'\n${read(a)}\nexport const ${bName}Ref = ${bName}\n`);
	write(b, `import { ${aName} } from '${importPath(b, a)}'\n${read(b)}\nexport const ${aName}Ref = ${aName}\n`);

	// 4. A deleted file and a renamed one (content unchanged), both importing no project file: such a file is in no
	// import cycle, so removing it cannot shrink one.
	const leaf = (path: string) => !/from '\.\.?\//.test(read(path));
	const deleted = pick(0.2, leaf);
	rmSync(join(root, deleted));
	const renamedFrom = pick(0.4, leaf);
	const renamedTo = renamedFrom.replace(/\.ts$/, "Moved.ts");
	renameSync(join(root, renamedFrom), join(root, renamedTo));

	// 5. A new file that uses the new function, and that function's file using the new file back: a new cycle.
	const added = posix.join(posix.dirname(complexFunction), "settlePlan.ts");
	if (existsSync(join(root, added))) throw new Error(`viem corpus: ${added} already exists`);
	write(added, addedFile(importPath(added, complexFunction)));
	write(
		complexFunction,
		`import { attemptsFor } from '${importPath(complexFunction, added)}'\n${read(complexFunction)}\nexport const readAttempts = attemptsFor('read', false)\n`,
	);

	return {
		complexFunction,
		clone: { from: cloneFrom, to: cloneTo, name: copyName },
		crossImports: [a, b],
		cycle: [complexFunction, added],
		deleted,
		renamed: { from: renamedFrom, to: renamedTo },
		added,
	};
}

const SETTLE_FUNCTION = `/** Runs \`run\` up to \`attempts\` times and tells whether it settled with a value. */
export async function settleWithRetry(
  run: () => Promise<unknown>,
  options: { attempts?: number; delay?: number; retryOn?: (error: unknown) => boolean } = {},
): Promise<boolean> {
  const attempts = options.attempts ?? 3
  for (let i = 0; i < attempts; i++) {
    try {
      const value = await run()
      if (value === undefined || value === null) continue
      return Array.isArray(value) && value.length === 0 ? false : true
    } catch (error) {
      throw error
    }
  }
  if (options.delay && options.delay > 0 && attempts > 1) {
    await new Promise((resolve) => setTimeout(resolve, options.delay))
  }
  while (options.retryOn?.(undefined) && attempts > 0) {
    if (attempts > 10 || !options.delay) break
  }
  return false
}
`;

function addedFile(settle: string): string {
	return `import { settleWithRetry } from '${settle}'

/** How often to try a step of a plan, by its kind. */
export function attemptsFor(kind: 'read' | 'write' | 'simulate', critical: boolean): number {
  if (kind === 'read') return critical ? 5 : 3
  if (kind === 'simulate') return 1
  return critical ? 2 : 1
}

/** Runs the steps of a plan in order and returns how many settled. */
export async function settlePlan(
  steps: readonly { kind: 'read' | 'write' | 'simulate'; critical: boolean; run: () => Promise<unknown> }[],
): Promise<number> {
  let settled = 0
  for (const step of steps) {
    if (await settleWithRetry(step.run, { attempts: attemptsFor(step.kind, step.critical) })) settled++
  }
  return settled
}
`;
}
