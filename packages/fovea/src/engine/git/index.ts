/**
 * `pi-fovea/git`: the one way any package of this repository runs Git. It takes a directory and Git arguments and
 * gives Git's output, with nothing of the repository run: the hardening flags and environment (command.ts), the
 * per-repository guard that neutralizes the filter, merge and submodule programs its config names (guard.ts), one
 * runner with its own timer, abort signal, streaming and accepted exit codes that reports a missing binary at once
 * (run.ts), one NUL splitter (records.ts) and one `status --porcelain=v2` parser (status-v2.ts). Fovea's own
 * questions (a root's status, the files a change covers) are in probe.ts. Imports only Node built-ins, so a consumer
 * that needs Git loads no engine module and no parser.
 *
 * @module
 */
export { type ForcedConfig, type GitCommandOptions, hardenedGit } from "./command.ts";
export { commonDirOf, gitDirOf, gitStateDirectories } from "./git-dir.ts";
export {
	forcedConfigFrom,
	GUARDED_CONFIG_PATTERN,
	PartialCloneError,
	REFUSED_MERGE_DRIVER,
	repositoryGuard,
} from "./guard.ts";
export { changedFiles, changedSince, type GitState, gitState, gitStateOf, statusSignature } from "./probe.ts";
export { nulRecords, nulSplit } from "./records.ts";
export {
	GitError,
	type GitFailure,
	type GitOutput,
	type GitRunOptions,
	gitMissingError,
	gitText,
	isMissingBinary,
	runGit,
	spawnGit,
} from "./run.ts";
export { parseStatusV2, type StatusEntry, type StatusV2, statusPaths } from "./status-v2.ts";
