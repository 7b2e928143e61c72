/**
 * One test suite for the Git runner, run against `runGit` of pi-fovea/git and against each package's thin adapter
 * over it (contour's `git`, crew's `runCrewGit`), so the behaviour every package relies on is checked where it is
 * used: hardening, accepted exit codes, failures naming the call, a missing binary reported at once with no timer
 * left behind, the timer, the abort signal, stdin and streaming. Real Git in temp repositories; a stand-in `git`
 * script only where Git itself cannot show the case (a hang).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";

/** The options every adapter takes; `signal`, `input` and `onStdout` only where it offers them. */
export interface SuiteCall {
	okCodes?: readonly number[];
	timeoutMs?: number;
	signal?: AbortSignal;
	input?: string;
	onStdout?: (chunk: Buffer) => void;
}

/** A runner under test: its call, and which optional parts it offers. */
export interface RunnerUnderTest {
	run(cwd: string, args: readonly string[], call: SuiteCall): Promise<{ code: number; stdout: string }>;
	offers: { signal: boolean; input: boolean; stream: boolean };
}

/** Registers the suite for `name`. */
export function gitRunnerSuite(name: string, runner: RunnerUnderTest): void {
	const dirs: string[] = [];
	const temp = (prefix: string) => {
		const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
		dirs.push(dir);
		return dir;
	};
	after(() => {
		for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
	});
	const repo = () => {
		const dir = temp("git-runner-");
		execFileSync("git", ["init", "-q", dir]);
		return dir;
	};
	/** Runs `body` with PATH holding only a stand-in `git` (or nothing), restoring it after. */
	const withPath = async <T>(git: string | undefined, body: () => Promise<T>): Promise<T> => {
		const bin = temp("git-runner-bin-");
		if (git !== undefined) {
			writeFileSync(join(bin, "git"), `#!/bin/sh\n${git}\n`);
			chmodSync(join(bin, "git"), 0o755);
		}
		const saved = process.env.PATH;
		process.env.PATH = bin;
		try {
			return await body();
		} finally {
			process.env.PATH = saved;
		}
	};

	describe(`Git runner: ${name}`, () => {
		it("runs in the given directory with the hardening, ignoring an inherited GIT_DIR", async () => {
			const dir = repo();
			const elsewhere = repo();
			const saved = process.env.GIT_DIR;
			process.env.GIT_DIR = join(elsewhere, ".git");
			try {
				const top = await runner.run(dir, ["rev-parse", "--show-toplevel"], {});
				assert.equal(top.stdout.trim(), dir);
				const hooks = await runner.run(dir, ["config", "--get", "core.hooksPath"], {});
				assert.equal(hooks.stdout.trim(), "/dev/null");
				assert.equal((await runner.run(dir, ["config", "--get", "protocol.allow"], {})).stdout.trim(), "never");
			} finally {
				if (saved === undefined) delete process.env.GIT_DIR;
				else process.env.GIT_DIR = saved;
			}
		});

		it("hands Git no fsmonitor, hooks or transport protocol by config, and no lazy fetch or user protocol by environment", async () => {
			const dir = repo();
			const seen = await withPath('echo "ARGS $*"; /usr/bin/env', () => runner.run(dir, ["status"], {}));
			const args = /^ARGS (.*)$/m.exec(seen.stdout)?.[1] ?? "";
			for (const setting of ["core.fsmonitor=false", "core.hooksPath=/dev/null", "protocol.allow=never"])
				assert.ok(args.includes(`-c ${setting}`), `-c ${setting} in: ${args}`);
			const env = new Set(seen.stdout.split("\n"));
			for (const variable of ["GIT_NO_LAZY_FETCH=1", "GIT_PROTOCOL_FROM_USER=0", "GIT_TERMINAL_PROMPT=0"])
				assert.ok(env.has(variable), `${variable} in the environment of Git`);
		});

		it("an exit code is an answer only when accepted; a failure names the call, the directory and Git's message", async () => {
			const dir = repo();
			const accepted = await runner.run(dir, ["config", "--get", "no.such"], { okCodes: [0, 1] });
			assert.equal(accepted.code, 1);
			await assert.rejects(runner.run(dir, ["config", "--get", "no.such"], {}), /git config.* failed in .*exit code 1/);
			await assert.rejects(runner.run(dir, ["rev-parse", "--verify", "nothing"], {}), (error: Error) => {
				assert.ok(error.message.includes(dir), error.message);
				assert.match(error.message, /git rev-parse.*(fatal|Needed a single revision)/);
				return true;
			});
		});

		it("a binary that cannot start is said plainly, at once, and leaves no timer behind", async () => {
			const dir = repo();
			const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
			const before = timers();
			await withPath(undefined, async () => {
				await assert.rejects(runner.run(dir, ["status"], { timeoutMs: 3_600_000 }), (error: Error) => {
					assert.match(error.message, /git is not installed or not on PATH/);
					assert.doesNotMatch(error.message, /ENOENT/);
					return true;
				});
			});
			assert.equal(timers(), before, "the hour-long timer was cleared with the failure");
		});

		it("a hung Git is killed by the call's timer, and the error says so", async () => {
			const dir = repo();
			await withPath("exec /bin/sleep 30", async () => {
				await assert.rejects(runner.run(dir, ["status"], { timeoutMs: 200 }), /killed after 200 ms/);
			});
		});

		it("the abort signal ends a running call with the signal's reason", { skip: !runner.offers.signal }, async () => {
			const dir = repo();
			await withPath("exec /bin/sleep 30", async () => {
				const controller = new AbortController();
				const call = runner.run(dir, ["status"], { signal: controller.signal });
				controller.abort(new Error("stop now"));
				await assert.rejects(call, /stop now/);
				await assert.rejects(runner.run(dir, ["status"], { signal: controller.signal }), /stop now/);
			});
		});

		it("writes the input to stdin and closes it", { skip: !runner.offers.input }, async () => {
			const dir = repo();
			const out = await runner.run(dir, ["hash-object", "--stdin"], { input: "hello\n" });
			assert.equal(out.stdout.trim(), "ce013625030ba8dba906f756967f9e9ca394464a");
		});

		it("streams stdout to the reader instead of buffering it", { skip: !runner.offers.stream }, async () => {
			const dir = repo();
			const chunks: Buffer[] = [];
			const out = await runner.run(dir, ["hash-object", "--stdin"], {
				input: "hello\n",
				onStdout: (chunk) => chunks.push(chunk),
			});
			assert.equal(out.stdout, "");
			assert.equal(Buffer.concat(chunks).toString("utf8").trim(), "ce013625030ba8dba906f756967f9e9ca394464a");
		});
	});
}
