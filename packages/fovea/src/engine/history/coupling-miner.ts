/**
 * Reads the file sets of a root's recent commits with the hardened Git runner, for change coupling. Only HEAD and its
 * ancestors are read (`git log <head>`, never `--all` nor another ref), merges and root commits are left out, renames are
 * followed (rename-paths.ts: a renamed file's older commits count under its path at `head`, since its old path couples
 * to nothing in today's tree), and nothing of the repository runs: no external diff, no textconv, no signature check,
 * no mailmap, plus the runner's hardening and the repository's guard.
 */
import { type ForcedConfig, GitError, gitText, nulSplit, repositoryGuard, runGit } from "../git/index.ts";
import { type NameStatus, RenamePaths } from "./rename-paths.ts";

/** Where the history comes from: the root's own repository, or (for a benchmark) another Git directory and commit. */
export interface HistorySource {
	/** The directory Git runs in: the root itself, or a (bare) Git directory holding the history. */
	gitDir: string;
	/** The revision treated as HEAD (default `HEAD`). */
	head?: string;
}

/**
 * One mined commit: its id, the root-relative files it changed (empty for a commit left out as huge) and its subject
 * (the message's first line, at most `SUBJECT_CHARS`, control characters dropped): the words people used for the
 * change, which focus reads as evidence for the files it changed (`graph/commit-messages.ts`).
 */
export interface MinedCommit {
	id: string;
	files: string[];
	subject: string;
}

/** A subject is kept to this many characters: enough for any subject's words, a bound on what a commit holds. */
export const SUBJECT_CHARS = 200;

/** Where history is, or why there is none. */
export type HistoryProbe =
	| { kind: "history"; head: string; prefix: string; forced: ForcedConfig }
	| { kind: "none"; reason: string };

const TIMEOUT_MS = 60_000;
/** Flags that keep `git log` from running anything a repository or user config names. */
const SAFE_LOG = ["--no-ext-diff", "--no-textconv", "--no-show-signature", "--no-mailmap", "--no-color"];
/**
 * Rename detection: content-similar pairs (Git's default 50%) only where a commit adds or deletes at most this many
 * files, given explicitly so no config raises the cost; exact renames (a mass move) are found at any size.
 */
const RENAME_LIMIT = 1000;

/**
 * Resolves the head to mine and the root's path inside its worktree (`prefix`), or says why there is no history: not
 * a Git repository, no commit yet, or a shallow clone (its history is cut, so counts would mislead).
 */
export async function probeHistory(source: HistorySource): Promise<HistoryProbe> {
	const head = source.head ?? "HEAD";
	if (!/^[A-Za-z0-9._/~^@{}][A-Za-z0-9._/~^@{}-]*$/.test(head))
		return { kind: "none", reason: `not a revision: ${JSON.stringify(head)}` };
	let forced: ForcedConfig;
	try {
		forced = await repositoryGuard(source.gitDir);
	} catch (error) {
		return { kind: "none", reason: noHistoryReason(error) };
	}
	const out = await gitText(
		source.gitDir,
		["rev-parse", "--is-shallow-repository", "--show-prefix", "--verify", "-q", "--end-of-options", `${head}^{commit}`],
		{ forced, timeoutMs: TIMEOUT_MS, okCodes: [0, 1] },
	).catch((error: unknown) => error);
	if (typeof out !== "string") return { kind: "none", reason: noHistoryReason(out) };
	const lines = out.split("\n");
	if (lines[0] === "true") return { kind: "none", reason: "a shallow clone: its history is cut" };
	// A bare directory prints no prefix line; the commit is always the last line.
	const oid = lines.filter((line) => line !== "").at(-1) ?? "";
	if (!/^[0-9a-f]{40,64}$/.test(oid)) return { kind: "none", reason: "no commit yet" };
	const prefix = lines.length >= 4 ? (lines[1] ?? "") : "";
	return { kind: "history", head: oid, prefix, forced };
}

/** Whether `ancestor` is an ancestor of (or equal to) `head`, so `ancestor..head` is what is new. */
export async function isAncestor(
	gitDir: string,
	forced: ForcedConfig,
	ancestor: string,
	head: string,
): Promise<boolean> {
	const out = await runGit(gitDir, ["merge-base", "--is-ancestor", ancestor, head], {
		forced,
		timeoutMs: TIMEOUT_MS,
		okCodes: [0, 1, 128],
	});
	return out.code === 0;
}

/**
 * The newest `limit` commits with one parent reachable from `head` (and not from `since`, when given), newest first, each
 * with the files under `prefix` it changed, root-relative and named as at `head` (a file renamed since is counted
 * under its new path); a commit that changed more than `maxFiles` files (an import, a mass rename, a reformat) keeps no
 * files, since it couples nothing, but its renames are still followed. `renames` maps root-relative paths as they were
 * at `since` to their path at `head`, for the commits mined before (see `RenamePaths.rename`).
 */
export async function mineCommits(
	gitDir: string,
	forced: ForcedConfig,
	options: { head: string; since?: string; limit: number; maxFiles: number; prefix: string },
): Promise<{ commits: MinedCommit[]; huge: number; renames: RenamePaths }> {
	const range = options.since === undefined ? options.head : `${options.since}..${options.head}`;
	const out = await runGit(
		gitDir,
		[
			"log",
			...SAFE_LOG,
			// Neither merges (their changes are their parents' commits, counted there) nor root commits (an import of
			// a whole tree couples files only by their arrival together).
			"--min-parents=1",
			"--max-parents=1",
			"--find-renames",
			`-l${RENAME_LIMIT}`,
			"--name-status",
			"-z",
			// The id, then the subject (`%s`: the message's first paragraph on one line) after a unit separator.
			"--format=%x1e%H%x1f%s",
			`-n${options.limit}`,
			"--end-of-options",
			range,
			"--",
		],
		{ forced, timeoutMs: TIMEOUT_MS },
	);
	const commits: MinedCommit[] = [];
	const renames = new RenamePaths(options.prefix);
	let huge = 0;
	// Newest first, so every rename is known before the older commits that name the old path.
	for (const chunk of out.stdout.toString("utf8").split("\x1e")) {
		if (chunk === "") continue;
		const [header = "", ...tokens] = nulSplit(chunk);
		const cut = header.indexOf("\x1f");
		const id = cut < 0 ? header : header.slice(0, cut);
		// With no changed file the header runs on to the end of the chunk: the subject is its first line only.
		const subject = cut < 0 ? "" : keptSubject(header.slice(cut + 1).split("\n")[0] ?? "");
		const changed = renames.commit(parseNameStatus(tokens));
		if (changed.length > options.maxFiles) {
			commits.push({ id, files: [], subject });
			huge++;
			continue;
		}
		commits.push({ id, files: changed, subject });
	}
	return { commits, huge, renames };
}

/** A subject as kept: control characters dropped, at most `SUBJECT_CHARS`. */
export function keptSubject(text: string): string {
	// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is dropped
	return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").slice(0, SUBJECT_CHARS);
}

/** The entries of one commit's `--name-status -z` records: a status, then one path, or two for a rename or copy. */
export function parseNameStatus(tokens: readonly string[]): NameStatus[] {
	const entries: NameStatus[] = [];
	for (let i = 0; i < tokens.length; ) {
		// The first status of a commit follows the header's newline.
		const status = (tokens[i] ?? "").replace(/^\n+/, "");
		if (status === "") {
			i++;
			continue;
		}
		if (status.startsWith("R") || status.startsWith("C")) {
			const from = tokens[i + 1];
			const path = tokens[i + 2];
			if (from !== undefined && path !== undefined) {
				entries.push(status.startsWith("R") ? { path, from } : { path });
			}
			i += 3;
		} else {
			const path = tokens[i + 1];
			if (path !== undefined) entries.push({ path });
			i += 2;
		}
	}
	return entries;
}

function noHistoryReason(error: unknown): string {
	const text = error instanceof GitError ? `${error.stderr} ${error.message}` : String(error);
	if (/not a git repository/i.test(text)) return "not a Git repository";
	if (error instanceof GitError && error.failure === "missing") return "git is not installed";
	return `history could not be read: ${oneLine(text)}`;
}

/** The first line of a message, control characters shown as `?`, so it can be printed to a person as it is. */
export function oneLine(text: string): string {
	// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
	return (text.split("\n")[0] ?? "").replace(/[\u0000-\u001f\u007f-\u009f]/g, "?").slice(0, 200);
}
