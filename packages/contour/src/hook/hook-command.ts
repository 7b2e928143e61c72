/**
 * `contour hook install|uninstall|status`: the pre-commit hook that runs the staged review (`hook-script.ts`).
 *
 * - install writes the hook where Git runs it (`hook-location.ts`: the common dir's `hooks/`, so linked worktrees
 *   share it, or `core.hooksPath` inside the repository). A hook Contour did not write is never overwritten: it is
 *   kept beside the new one as `pre-commit.contour-chained` and run first (its failure stops the commit as before);
 *   a kept hook already there is refused rather than overwritten. Installing again updates Contour's own hook.
 * - uninstall removes Contour's hook and puts the kept one back; a hook Contour did not write is left as it is.
 * - status says where the hook goes, whether Contour's is there, its mode, and whether the Node and CLI it records
 *   still exist.
 *
 * Advisory by default (the commit always goes through, the report is printed); `--blocking` stops a commit that
 * violates the repository's explicit policy (the review's exit 1) or that the review cannot check.
 */
import { chmod, lstat, mkdir, readFile, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { UsageError } from "pi-fovea/cli-failure";
import { writeOutput } from "pi-fovea/cli-output";
import { gitReviewRoot } from "pi-fovea/manual-root";
import { printable } from "pi-fovea/printable";
import { ProjectDiscovery } from "pi-fovea/workspace";
import { hookLocation, inside } from "./hook-location.ts";
import { CHAINED_NAME, HOOK_MARKER, type HookMode, hookScript, readHookRecord } from "./hook-script.ts";

/** The program a hook runs: this Node and this `contour` entry, by absolute path. */
export interface HookProgram {
	node: string;
	cli: string;
}

/** A hook file bigger than this is not read (a hook is a script, not data). */
const MAX_HOOK_BYTES = 256 * 1024;

/** Runs `contour hook …` with `argv` after `hook`; returns the exit code. */
export async function hookCommand(argv: string[], program: HookProgram): Promise<number> {
	const { values, positionals } = parseArgs({
		args: argv,
		allowPositionals: true,
		options: {
			root: { type: "string" },
			blocking: { type: "boolean", default: false },
			json: { type: "boolean", default: false },
		},
	});
	const [action, ...rest] = positionals;
	if (action !== "install" && action !== "uninstall" && action !== "status") {
		throw new UsageError(`contour hook needs install, uninstall or status, got ${JSON.stringify(action ?? "nothing")}`);
	}
	if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
	if (values.blocking && action !== "install") throw new UsageError("--blocking goes with contour hook install");
	const root = await worktreeTop(values.root);
	const location = await hookLocation(root);
	if (action === "install") await mkdir(location.hooksDir, { recursive: true });
	await checkInside(location.hooksDir, [root, location.commonDir]);
	const hook = join(location.hooksDir, "pre-commit");
	const chained = join(location.hooksDir, CHAINED_NAME);
	let lines: string[];
	if (action === "install") lines = await install(hook, chained, values.blocking ? "blocking" : "advisory", program);
	else if (action === "uninstall") lines = await uninstall(hook, chained);
	else {
		const info = await status(hook, chained);
		if (values.json) {
			await writeOutput(
				`${JSON.stringify({ root, hooksDir: location.hooksDir, source: location.source, ...info }, null, 2)}\n`,
			);
			return 0;
		}
		lines = statusLines(info);
	}
	const where = `hooks: ${location.hooksDir}${location.source === "core.hooksPath" ? " (core.hooksPath)" : ""}`;
	await writeOutput(`${[...lines, where].map(printable).join("\n")}\n`);
	return 0;
}

async function install(hook: string, chained: string, mode: HookMode, program: HookProgram): Promise<string[]> {
	const existing = await hookText(hook);
	const lines: string[] = [];
	if (existing !== undefined && !existing.includes(HOOK_MARKER)) {
		if (await exists(chained)) {
			throw new Error(
				`${hook} is not contour's, and ${chained} already keeps an earlier hook: contour overwrites neither; move one of them away first`,
			);
		}
		await rename(hook, chained);
		lines.push(`kept the existing pre-commit hook as ${CHAINED_NAME}: it runs first, and uninstall puts it back`);
	}
	const temporary = `${hook}.contour-${process.pid}`;
	await writeFile(temporary, hookScript({ mode, ...program }), { mode: 0o755 });
	await chmod(temporary, 0o755);
	await rename(temporary, hook);
	const verdict =
		mode === "advisory"
			? "advisory: every commit goes through, the staged review is printed"
			: "blocking: a commit that violates the repository's contour policy is stopped (exit 1); without a policy nothing is";
	return [
		`contour hook installed: ${hook} (${verdict})`,
		`runs: ${program.node} ${program.cli} review --staged`,
		...lines,
	];
}

async function uninstall(hook: string, chained: string): Promise<string[]> {
	const existing = await hookText(hook);
	if (existing === undefined) return ["no pre-commit hook to uninstall"];
	if (!existing.includes(HOOK_MARKER)) {
		throw new Error(`${hook} was not written by contour: it is left as it is`);
	}
	await rm(hook);
	if (await exists(chained)) {
		await rename(chained, hook);
		return [`contour hook removed; the earlier pre-commit hook is back in ${hook}`];
	}
	return [`contour hook removed: ${hook}`];
}

/** What `contour hook status` reports. */
interface HookStatus {
	hook: string;
	installed: "contour" | "other" | "none";
	mode?: HookMode;
	node?: { path: string; exists: boolean };
	cli?: { path: string; exists: boolean };
	/** Contour's hook whose text is not what install writes now (an earlier contour wrote it). */
	outdated?: boolean;
	chained: boolean;
}

async function status(hook: string, chained: string): Promise<HookStatus> {
	const text = await hookText(hook);
	const out: HookStatus = {
		hook,
		installed: text === undefined ? "none" : text.includes(HOOK_MARKER) ? "contour" : "other",
		chained: await exists(chained),
	};
	const record = text === undefined ? undefined : readHookRecord(text);
	if (record !== undefined) {
		out.mode = record.mode;
		out.node = { path: record.node, exists: await exists(record.node) };
		out.cli = { path: record.cli, exists: await exists(record.cli) };
		out.outdated = text !== hookScript(record);
	}
	return out;
}

function statusLines(info: HookStatus): string[] {
	if (info.installed === "none") return [`contour hook: not installed (no pre-commit hook at ${info.hook})`];
	if (info.installed === "other")
		return [`contour hook: not installed; ${info.hook} is another tool's hook (install keeps it and runs it first)`];
	const gone = [info.node, info.cli]
		.filter((entry) => entry !== undefined && !entry.exists)
		.map((entry) => entry?.path);
	return [
		`contour hook: installed, ${info.mode ?? "unknown mode"}: ${info.hook}`,
		`runs: ${info.node?.path ?? "?"} ${info.cli?.path ?? "?"} review --staged`,
		...(gone.length > 0
			? [`missing: ${gone.join(", ")} (the hook says so at each commit; run contour hook install again)`]
			: []),
		...(info.outdated === true
			? [
					"outdated: an earlier contour wrote this hook (it may review the index as it stood before `git commit -a` or `git commit <path>`); run contour hook install again",
				]
			: []),
		...(info.chained ? [`chained: ${CHAINED_NAME} runs first`] : []),
	];
}

/**
 * Refuses a hooks directory that a symbolic link leads out of the repository: the hook would land (or be removed)
 * elsewhere. A directory that does not exist yet holds nothing to refuse.
 */
async function checkInside(dir: string, parents: readonly string[]): Promise<void> {
	const real = await realpath(dir).catch(() => undefined);
	if (real === undefined) return;
	const allowed = await Promise.all(parents.map((parent) => realpath(parent).catch(() => parent)));
	if (allowed.some((parent) => inside(parent, real))) return;
	throw new Error(`${dir} leads out of the repository (to ${real}): contour writes no hook there`);
}

/** The worktree top around `--root` or the current directory (a hook belongs to a whole repository). */
async function worktreeTop(explicit: string | undefined): Promise<string> {
	const from = explicit === undefined ? process.cwd() : resolve(explicit);
	const found = await gitReviewRoot(from, [], new ProjectDiscovery());
	if (found === undefined)
		throw new UsageError(`${from} is in no Git worktree: run contour hook inside one or pass --root DIR`);
	return found.root;
}

/** The text of the hook at `path` (a link is read where it leads), or `undefined` when there is none. */
async function hookText(path: string): Promise<string | undefined> {
	const info = await lstat(path).catch(() => undefined);
	if (info === undefined) return undefined;
	const target = await stat(path).catch(() => undefined);
	// A dangling link or something that is not a file is a hook Contour did not write: never read, never replaced.
	if (target === undefined || !target.isFile() || target.size > MAX_HOOK_BYTES) return "";
	return readFile(path, "utf8");
}

async function exists(path: string): Promise<boolean> {
	return lstat(path).then(
		() => true,
		() => false,
	);
}
