#!/usr/bin/env node
/**
 * `crew`: pi-crew's runs and worktrees without a model, for the workspace of the current directory (its project
 * root) or `--root`. The person at the terminal sees every session's runs; `--session ID` narrows to one.
 * Nothing here starts an agent. Exit codes: 0 ok, 2 usage or input error (an unknown or damaged run, Git missing,
 * a `--root` that is no directory, a worktree that refused cleanup). `crew help`, `--help` and `--version` answer
 * at once.
 *
 *   crew list [--session ID] [--root DIR] [--json]
 *   crew status <runId> [--events N] [--root DIR] [--json]
 *   crew worktrees [--root DIR] [--json]
 *   crew cleanup [runId] [--commit|--discard] [--unlock] [--root DIR] [--json]
 *   crew doctor [--root DIR] [--json]   (exit 1 when it found an error)
 */
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { parseArgs } from "node:util";
import { versionText } from "pi-fovea/cli-version";
import { runDoctor } from "./doctor/doctor.ts";
import { doctorText } from "./doctor/finding.ts";
import { runCleanupText } from "./extension/cli-cleanup.ts";
import { manifestJson, runListingJson, runListText, runStatusText, shownText } from "./extension/run-text.ts";
import { workspaceOf } from "./extension/workspace.ts";
import { manifestOwner } from "./state/manifest.ts";
import { isOwnerAlive } from "./state/owner.ts";
import { RunStore } from "./state/run-store.ts";
import { formatTaskWorktrees, listTaskWorktrees } from "./worktree/list.ts";

const USAGE = `usage:
  crew list [--session ID] [--root DIR] [--json]
  crew status <runId> [--events N] [--root DIR] [--json]
  crew worktrees [--root DIR] [--json]
  crew cleanup [runId] [--commit|--discard] [--unlock] [--root DIR] [--json]
  crew doctor [--root DIR] [--json]
  crew help | --help | --version

commands:
  list       the runs of this workspace, newest first (all sessions', or one session's with --session)
  status     one run: its tasks, their results, its last events
  worktrees  the Git worktrees that runs in worktree mode made
  cleanup    remove finished runs' worktrees (a dirty one is kept unless --commit or --discard says what to do)
  doctor     checks pi, git, ripgrep, fd, the definitions, runs, worktrees and state folders; each problem with its fix

options:
  --root DIR    the workspace (default: the Git root or project around the current directory)
  --events N    status: how many of the last events to show (default 10)
  --unlock      cleanup: also remove worktrees Git has locked
  --json        the answer as JSON instead of text
Runs start from Pi (the team tool or /team run); this command reads and tidies them without a model.`;

class UsageError extends Error {}

/**
 * Writes the answer, made printable: the text, or the JSON (whose strings may still hold C1 and bidi controls,
 * which come out as `\uXXXX` escapes, so it stays the same JSON).
 */
function print(json: boolean, value: unknown, text: string): void {
	process.stdout.write(`${shownText(json ? JSON.stringify(value, null, 2) : text)}\n`);
}

async function list(store: RunStore, session: string | undefined, json: boolean): Promise<number> {
	const listings = (await store.listRuns()).filter(
		(l) => session === undefined || l.manifest?.ownerSessionId === session,
	);
	const scope = session === undefined ? "any session" : `session ${session}`;
	print(json, listings.map(runListingJson), runListText(listings, store.root, scope));
	return 0;
}

async function status(store: RunStore, runId: string | undefined, events: number, json: boolean): Promise<number> {
	if (runId === undefined) throw new UsageError("status needs a run id (see crew list)");
	if (!existsSync(store.files(runId).dir)) throw new Error(`No run ${runId} in workspace ${store.root}.`);
	const run = await store.readRun(runId);
	const log = await store.readEvents(runId);
	const m = run.manifest;
	const working = m.status === "running" || m.status === "pending";
	const ownerAlive = await isOwnerAlive(manifestOwner(m));
	const note =
		working && !ownerAlive
			? "its owner process is gone: the run is interrupted; resume it from Pi with /team resume"
			: undefined;
	const latest = log.events.slice(-events);
	if (json) {
		const problems = log.problems.map((p) => ({ line: p.line, torn: p.torn, message: p.message }));
		print(true, { ...manifestJson(m), ownerAlive, tasks: run.tasks, events: latest, eventProblems: problems }, "");
		return 0;
	}
	const text = runStatusText({ ...run, events: latest }, { events, ...(note ? { ownerNote: note } : {}) });
	const problems = log.problems.map((p) => `events.jsonl line ${p.line}: ${p.message}`);
	print(false, undefined, [text, ...problems].join("\n"));
	return 0;
}

async function worktrees(root: string, json: boolean): Promise<number> {
	const entries = await listTaskWorktrees(root);
	print(json, entries, formatTaskWorktrees(entries, root));
	return 0;
}

/** A `--root` that names an existing directory (an input error otherwise, said without the usage). */
async function rootDirectory(root: string): Promise<string> {
	if (root.trim() === "") throw new UsageError("--root needs a directory");
	const info = await stat(root).catch(() => undefined);
	if (info === undefined) throw new Error(`--root ${root} does not exist (was the root deleted or moved?)`);
	if (!info.isDirectory()) throw new Error(`--root ${root} is not a directory`);
	return root;
}

async function main(argv: string[]): Promise<number> {
	const { values, positionals } = parseArgs({
		args: argv,
		allowPositionals: true,
		options: {
			root: { type: "string" },
			json: { type: "boolean", default: false },
			session: { type: "string" },
			events: { type: "string" },
			commit: { type: "boolean", default: false },
			discard: { type: "boolean", default: false },
			unlock: { type: "boolean", default: false },
			help: { type: "boolean", short: "h", default: false },
			version: { type: "boolean", default: false },
		},
	});
	const [command, ...rest] = positionals;
	if (values.version) {
		process.stdout.write(`${versionText("crew", new URL("../package.json", import.meta.url))}\n`);
		return 0;
	}
	if (values.help || command === "help" || command === undefined) {
		process.stdout.write(`${USAGE}\n`);
		return command === undefined && !values.help ? 2 : 0;
	}
	const events = values.events === undefined ? 10 : Number(values.events);
	if (!Number.isInteger(events) || events < 0)
		throw new UsageError(`--events: expected a whole number, got ${values.events}`);
	if (values.commit && values.discard) throw new UsageError("--commit or --discard, not both");
	if (rest.length > (command === "status" || command === "cleanup" ? 1 : 0)) {
		throw new UsageError(`unexpected argument ${rest.at(-1)}`);
	}
	const root = await workspaceOf(values.root === undefined ? process.cwd() : await rootDirectory(values.root));
	if (command === "doctor") {
		// Before the store opens: a broken state folder is one of the things it reports.
		const findings = await runDoctor({ root, env: process.env });
		print(values.json, { root, findings }, doctorText(findings));
		return findings.some((f) => f.status === "error") ? 1 : 0;
	}
	const store = await RunStore.open(root);
	switch (command) {
		case "list":
			return list(store, values.session, values.json);
		case "status":
			return status(store, rest[0], events, values.json);
		case "worktrees":
			return worktrees(root, values.json);
		case "cleanup": {
			const { text, json, failed } = await runCleanupText(store, {
				...(rest[0] === undefined ? {} : { runId: rest[0] }),
				commit: values.commit,
				discard: values.discard,
				unlock: values.unlock,
			});
			print(values.json, json, text);
			return failed ? 2 : 0;
		}
		default:
			throw new UsageError(`unknown command ${command}`);
	}
}

main(process.argv.slice(2)).then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		const message = error instanceof Error ? error.message : String(error);
		process.stderr.write(`crew: ${shownText(message)}\n`);
		if (error instanceof UsageError || (error as { code?: unknown })?.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
			process.stderr.write(`${USAGE}\n`);
		}
		process.exitCode = 2;
	},
);
