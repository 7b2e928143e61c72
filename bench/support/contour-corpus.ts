// Real repositories in a reviewable state for the side-by-side Contour benchmark, and the one-file edit made on top.
//
// - `self`: a clone of this repository with a real commit replayed as a staged change: HEAD at the commit's parent,
//   the index and worktree at the commit (`checkout C; reset --soft C~1`).
// - `viem`: the TypeScript sources the `viem` package ships, committed as one repository, then changed the way a
//   refactoring session would (see `contour-viem-change.ts`) and staged.
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { git } from "./git.ts";

/** A repository prepared for review, with what its staged change holds. */
export interface Corpus {
	label: string;
	root: string;
	description: string;
	/** `git diff --cached --name-status` of the prepared state, one "S\tpath" per line. */
	staged: string[];
	/** The TypeScript file the one-file edit changes; absent in a repository with none (no one-file case there). */
	editPath?: string;
}

const IDENTITY = ["-c", "user.name=bench", "-c", "user.email=bench@localhost"];

/** Stages every change in `root` and returns the staged name-status lines. */
export async function stageAll(root: string): Promise<string[]> {
	await git(root, ["add", "-A"]);
	return (await git(root, ["diff", "--cached", "--name-status", "--no-renames"])).split("\n").filter(Boolean);
}

/**
 * Clones `source` (a local repository) into `into` and replays `commit` as a staged change. The clone copies the
 * objects (`--no-hardlinks`), so nothing the benchmark does can touch the source repository.
 */
export async function prepareSelf(source: string, into: string, commit: string): Promise<Corpus> {
	// Hardened Git refuses every transport; a clone of a local path needs the file transport, for this command only.
	await git(dirname(into), ["-c", "protocol.file.allow=always", "clone", "-q", "--no-hardlinks", source, into]);
	const full = (await git(into, ["rev-parse", "--verify", `${commit}^{commit}`]).catch(() => "")).trim();
	if (full === "") throw new Error(`commit ${commit} is not in the history of ${source} (a shallow clone?)`);
	await git(into, ["checkout", "-q", "--detach", full]);
	await git(into, ["reset", "-q", "--soft", `${full}~1`]);
	const staged = (await git(into, ["diff", "--cached", "--name-status", "--no-renames"])).split("\n").filter(Boolean);
	const subject = (await git(into, ["log", "-1", "--format=%s", full])).trim();
	const changed = new Set(staged.map((line) => line.split("\t")[1]));
	return {
		label: "self",
		root: into,
		description: `this repository, commit ${full.slice(0, 12)} staged on its parent: ${subject.slice(0, 120)}`,
		staged,
		...(await editablePath(into, changed)),
	};
}

/** An unchanged TypeScript source file of `root` to edit, the same one for the same tree; none where it has none. */
async function editablePath(root: string, changed: ReadonlySet<string | undefined>): Promise<{ editPath?: string }> {
	const tracked = (await git(root, ["ls-files", "-z"])).split("\0");
	const sources = tracked
		.filter((p) => /\.ts$/.test(p) && !p.endsWith(".d.ts") && !/(^|\/)test\//.test(p) && !changed.has(p))
		.sort();
	const preferred = sources.find((p) => p.endsWith("/engine/rank/heat.ts")) ?? sources[Math.floor(sources.length / 2)];
	return preferred === undefined ? {} : { editPath: preferred };
}

/** Copies the `.ts` sources of an installed package (no build output, no declarations) into `into`. */
export function copyPackageSources(packageDir: string, into: string): number {
	let copied = 0;
	const walk = (dir: string) => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			const from = join(dir, entry.name);
			if (entry.isDirectory()) {
				if (!entry.name.startsWith("_") && entry.name !== "node_modules") walk(from);
			} else if (entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) {
				const to = join(into, relative(packageDir, from));
				mkdirSync(dirname(to), { recursive: true });
				cpSync(from, to);
				copied++;
			}
		}
	};
	walk(packageDir);
	return copied;
}

/** Commits everything in `root` as its first commit. */
export async function commitAll(root: string, message: string): Promise<void> {
	await git(root, ["init", "-q"]);
	await git(root, ["add", "-A"]);
	await git(root, [...IDENTITY, "commit", "-q", "--no-verify", "-m", message]);
}

/** The installed directory of package `name`, looked up the way Node would from `from`. */
export function packageDir(name: string, from: string): string | undefined {
	for (let dir = from; ; dir = dirname(dir)) {
		const candidate = join(dir, "node_modules", name);
		try {
			if (statSync(join(candidate, "package.json")).isFile()) return candidate;
		} catch {
			// not here: look further up
		}
		if (dirname(dir) === dir) return undefined;
	}
}

/**
 * A realistic one-file edit: a new function with eleven decisions (so both tools have a complexity to report)
 * appended to `path`, staged. Returns the file's previous content, for `restoreEdit`.
 */
export async function applyOneFileEdit(root: string, path: string): Promise<string> {
	const full = join(root, path);
	const previous = readFileSync(full, "utf8");
	writeFileSync(full, `${previous}\n${EDIT_FUNCTION}`);
	await git(root, ["add", "--", path]);
	return previous;
}

/** Puts back what `applyOneFileEdit` changed, staged as before. */
export async function restoreEdit(root: string, path: string, previous: string): Promise<void> {
	writeFileSync(join(root, path), previous);
	await git(root, ["add", "--", path]);
}

/**
 * Lets the index settle: a file modified within the index's timestamp granularity is "racily clean" and would be
 * re-hashed by every Git status of either tool; waiting and refreshing the index once takes that out of the timings.
 */
export async function settle(root: string): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, 1100));
	await git(root, ["update-index", "-q", "--refresh"]).catch(() => "");
}

const EDIT_FUNCTION = `/** Classifies a retry after a failed call (added by the one-file edit of the Contour benchmark). */
export function classifyRetry(status: number, attempt: number, budget?: { left: number; hard?: boolean }): string {
\tif (attempt < 0 || !Number.isInteger(attempt)) return "invalid";
\tconst left = budget?.left ?? 3;
\tfor (let i = 0; i < attempt; i++) {
\t\tif (i > left && budget?.hard) return "exhausted";
\t}
\tswitch (status) {
\t\tcase 408:
\t\tcase 429:
\t\t\treturn attempt > left ? "give-up" : "later";
\t\tcase 503:
\t\t\treturn "later";
\t\tdefault:
\t\t\tif (status >= 500 && status < 600) return "soon";
\t}
\treturn status >= 400 ? "never" : "done";
}
`;
