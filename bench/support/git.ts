// Git for the benchmarks, run with the engine's hardening (pi-fovea/git): no fsmonitor, no hooks, no transport,
// no credential helper, no pager, no prompt, no lazy fetch, no system config, no optional locks. Only ever reads (or
// creates a throwaway corpus repo).
import { spawn } from "node:child_process";
import { gitText, hardenedGit } from "../../packages/fovea/src/engine/git/index.ts";

/** The environment of a hardened Git call (the engine's own hardening: one definition for engine and benchmarks). */
export const GIT_ENV: NodeJS.ProcessEnv = hardenedGit(".", []).env;

/** The full argument list of a hardened `git -C repo …` call. */
export function gitArgs(repo: string, args: readonly string[]): string[] {
	return hardenedGit(repo, args).args;
}

/** Runs `git -C repo args…` and returns its stdout; rejects with stderr on a non-zero exit. */
export function git(repo: string, args: readonly string[], maxBuffer = 256 * 1024 * 1024): Promise<string> {
	return gitText(repo, args, { maxBuffer, timeoutMs: 600_000 });
}

/** Writes the tree of `treeish` (only `pathspecs`, when given) into the existing directory `into`. */
export async function materialize(
	repo: string,
	treeish: string,
	into: string,
	pathspecs: readonly string[] = [],
): Promise<void> {
	const archive = spawn("git", gitArgs(repo, ["archive", "--format=tar", treeish, "--", ...pathspecs]), {
		env: GIT_ENV,
		stdio: ["ignore", "pipe", "pipe"],
	});
	// `-m`: files get the extraction time as mtime, never the commit time, so two trees extracted into the same
	// directory can never look unchanged to a (size, mtime) check.
	const tar = spawn("tar", ["-x", "-m", "-C", into], { stdio: ["pipe", "ignore", "pipe"] });
	archive.stdout.pipe(tar.stdin);
	let errors = "";
	const collect = (chunk: Buffer) => {
		errors += chunk.toString();
	};
	archive.stderr.on("data", collect);
	tar.stderr.on("data", collect);
	const exit = (child: ReturnType<typeof spawn>) =>
		new Promise<number | null>((resolve, reject) => {
			child.on("error", reject);
			child.on("close", resolve);
		});
	const [archiveCode, tarCode] = await Promise.all([exit(archive), exit(tar)]);
	if (archiveCode !== 0 || tarCode !== 0) {
		throw new Error(`git archive ${treeish} | tar -x: ${errors.trim() || `exit ${archiveCode}/${tarCode}`}`);
	}
}
