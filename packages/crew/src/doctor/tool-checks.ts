import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { resolvePiCommand } from "../runtime/pi-command.ts";
import { type DoctorFinding, ok, problem } from "./finding.ts";

/** How long one `--version` may take. */
const VERSION_TIMEOUT_MS = 15_000;

/**
 * The first line `program --version` prints, or the reason it could not be run. Run in the temporary folder with
 * no Git variables, so nothing of a repository (its config, hooks, project extensions) is involved: only the
 * program the person installed runs.
 */
function versionOf(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
	const clean = Object.fromEntries(Object.entries(env).filter(([key]) => !key.startsWith("GIT_")));
	return new Promise((resolve, reject) => {
		execFile(
			command,
			[...args, "--version"],
			{ cwd: tmpdir(), env: clean, timeout: VERSION_TIMEOUT_MS, encoding: "utf8" },
			(error, stdout, stderr) => {
				if (error) reject(new Error((stderr.trim() || error.message).split("\n")[0]));
				else resolve((stdout.trim() || stderr.trim()).split("\n")[0] ?? "");
			},
		);
	});
}

/** The program named `name` on PATH (or in `extra` folders), if any. */
function onPath(name: string, env: NodeJS.ProcessEnv, extra: readonly string[] = []): string | undefined {
	const dirs = [...(env.PATH ?? "").split(delimiter).filter((d) => d !== ""), ...extra];
	return dirs.map((dir) => join(dir, name)).find((file) => existsSync(file));
}

async function piCheck(env: NodeJS.ProcessEnv): Promise<DoctorFinding> {
	let command: ReturnType<typeof resolvePiCommand>;
	try {
		command = resolvePiCommand(env);
	} catch (error) {
		const fix = "install @earendil-works/pi-coding-agent, or set PI_CREW_PI_CLI to the pi CLI file";
		return problem("pi", "error", (error as Error).message, fix);
	}
	const cli = command.args.at(-1) ?? command.command;
	try {
		const version = await versionOf(command.command, command.args, env);
		return ok("pi", `${version || "(no version printed)"} (${cli})`);
	} catch (error) {
		const fix = `check that ${cli} is Pi's CLI and runs with ${command.command}; PI_CREW_PI_CLI overrides it`;
		return problem("pi", "error", `sub-agents cannot start: ${cli} --version failed: ${(error as Error).message}`, fix);
	}
}

async function binaryCheck(
	check: string,
	names: readonly string[],
	env: NodeJS.ProcessEnv,
	extra: readonly string[],
	missing: { status: "warn" | "error"; why: string; fix: string },
): Promise<DoctorFinding> {
	for (const name of names) {
		const file = onPath(name, env, extra);
		if (file === undefined) continue;
		try {
			return ok(check, `${await versionOf(file, [], env)} (${file})`);
		} catch (error) {
			return problem(check, missing.status, `${file} --version failed: ${(error as Error).message}`, missing.fix);
		}
	}
	return problem(check, missing.status, `${names.join(" or ")} not found on PATH: ${missing.why}`, missing.fix);
}

/**
 * The programs sub-agents need: Pi itself (and its version), Git (worktree mode), ripgrep and fd (Pi's grep and
 * find tools; Pi also looks in `<agentDir>/bin`). Only `--version` of each is run.
 */
export async function toolChecks(env: NodeJS.ProcessEnv, agentDir: string): Promise<DoctorFinding[]> {
	const piBin = [join(agentDir, "bin")];
	return Promise.all([
		piCheck(env),
		binaryCheck("git", ["git"], env, [], {
			status: "warn",
			why: "worktree mode and worktree cleanup need Git",
			fix: "install Git (e.g. apt install git, brew install git)",
		}),
		binaryCheck("ripgrep", ["rg"], env, piBin, {
			status: "warn",
			why: "agents' grep tool needs it",
			fix: "install ripgrep (e.g. apt install ripgrep, brew install ripgrep)",
		}),
		binaryCheck("fd", ["fd", "fdfind"], env, piBin, {
			status: "warn",
			why: "agents' find tool needs it",
			fix: "install fd (e.g. apt install fd-find, brew install fd)",
		}),
	]);
}
