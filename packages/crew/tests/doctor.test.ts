// `crew doctor` and `/team doctor` on a prepared broken workspace (a real Git repository): a definition with a bad
// budget, a damaged run, an interrupted run, a run whose coordinator died while it said running, a task worktree
// whose folder is gone, a runs folder writable by everyone, ripgrep and fd missing from PATH, and a Pi CLI that does
// not exist. Each is reported with its fix, and nothing the repository configures (an fsmonitor, a hook) runs.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import {
	chmodSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	realpathSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { cleanupTempDirs, startHost } from "../../../test/e2e/harness.ts";
import { PI_CLI } from "../../../test/e2e/support/pi-cli.ts";
import { commandText, git, gitRepo } from "../../../test/e2e/support/workspaces.ts";
import type { DoctorFinding } from "../src/doctor/finding.ts";
import { RunStore } from "../src/state/index.ts";
import { createTaskWorktree } from "../src/worktree/index.ts";
import { CREW_CLI, CREW_EXTENSION } from "./extension/support/crew-world.ts";
import { deadPid, orphanedRun } from "./runtime/support/crew-fixture.ts";

let base: string;
let ws: string;
let marker: string;
const ids: Record<string, string> = {};

function crew(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }> {
	return new Promise((done) => {
		execFile(process.execPath, [CREW_CLI, ...args], { cwd: ws, env, encoding: "utf8" }, (error, out, err) => {
			done({ code: error ? Number(error.code) : 0, out, err });
		});
	});
}

/** A PATH holding only Node and Git (so ripgrep and fd are missing), and an agent directory without Pi's bin. */
function bareEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
	const bin = join(base, "bin");
	if (!existsSync(bin)) {
		mkdirSync(bin);
		symlinkSync(process.execPath, join(bin, "node"));
		const gitPath = (process.env.PATH ?? "")
			.split(":")
			.map((dir) => join(dir, "git"))
			.find((file) => existsSync(file));
		if (gitPath) symlinkSync(gitPath, join(bin, "git"));
	}
	return { HOME: base, PATH: bin, PI_CODING_AGENT_DIR: join(base, "agent"), ...extra };
}

before(async () => {
	base = realpathSync(mkdtempSync(join(tmpdir(), "crew-doctor-")));
	ws = gitRepo(join(base, "repo"), { "a.ts": "export const a = 1;\n" }, { commit: true });
	marker = join(base, "repository-program-ran");
	// Programs the repository configures: none may run.
	const program = join(base, "planted.sh");
	writeFileSync(program, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
	git(ws, "config", "core.fsmonitor", program);
	git(ws, "config", "core.hooksPath", join(base, "hooks"));
	mkdirSync(join(base, "hooks"));
	for (const hook of ["post-checkout", "reference-transaction", "pre-commit"]) {
		writeFileSync(join(base, "hooks", hook), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
	}
	mkdirSync(join(ws, ".pi", "crew", "agents"), { recursive: true });
	writeFileSync(
		join(ws, ".pi", "crew", "agents", "spender.md"),
		"---\nname: spender\ndescription: Spends.\nbudget: { turns: 0 }\n---\nYou spend.\n",
	);
	const store = await RunStore.open(ws);
	const damaged = await store.createRun({
		ownerSessionId: "s-damaged",
		team: "t",
		goal: "g",
		workspaceMode: "single",
		tasks: [{ id: "a", role: "w", agent: "worker" }],
	});
	ids.damaged = damaged.manifest.runId;
	writeFileSync(store.files(ids.damaged).tasks, "{ half");
	ids.interrupted = (await orphanedRun(ws, "s-gone", [{ id: "only", instructions: "x" }])).manifest.runId;
	const stale = await store.createRun({
		ownerSessionId: "s-dead",
		ownerPid: await deadPid(),
		team: "t",
		goal: "g",
		workspaceMode: "worktree",
		tasks: [{ id: "b", role: "w", agent: "worker" }],
	});
	ids.stale = stale.manifest.runId;
	await store.updateManifest(ids.stale, { status: "running" });
	const tree = await createTaskWorktree({ cwd: ws, runId: ids.stale, taskId: "b" });
	rmSync(tree.path, { recursive: true, force: true });
	ids.tree = tree.path;
	chmodSync(dirname(store.files(ids.stale).dir), 0o777);
	rmSync(marker, { force: true });
});

after(async () => {
	rmSync(base, { recursive: true, force: true });
	await cleanupTempDirs();
});

describe("crew doctor", () => {
	it("reports each problem of a broken workspace with its fix, and runs nothing the repository configures", async () => {
		const { code, out, err } = await crew(["doctor", "--json"], bareEnv({ PI_CREW_PI_CLI: PI_CLI }));
		assert.equal(code, 1, err);
		const { findings } = JSON.parse(out) as { findings: DoctorFinding[] };
		const find = (check: string, pattern: RegExp) => {
			const found = findings.find((f) => f.check === check && pattern.test(f.message));
			assert.ok(found, `${check} ${pattern}: ${JSON.stringify(findings, null, 1)}`);
			return found;
		};
		assert.equal(find("pi", /\d+\.\d+/).status, "ok");
		assert.equal(find("git", /git version/).status, "ok");
		assert.match(find("ripgrep", /rg not found on PATH/).fix ?? "", /install ripgrep/);
		assert.match(find("fd", /fd or fdfind not found/).fix ?? "", /install fd/);
		const definition = find("definitions", /spender\.md: field "budget\.turns": expected an integer from 1/);
		assert.equal(definition.status, "error");
		assert.match(definition.fix ?? "", /spender\.md/);
		assert.match(
			find("runs", new RegExp(`run ${ids.damaged} is damaged: .*tasks\\.json`)).fix ?? "",
			/remove the folder/,
		);
		assert.match(find("runs", new RegExp(`run ${ids.interrupted} .* is interrupted`)).fix ?? "", /\/team resume/);
		assert.match(find("runs", new RegExp(`run ${ids.stale} .* its coordinator .* is gone`)).fix ?? "", /\/team cancel/);
		assert.match(find("worktrees", new RegExp(`stale worktree registration ${ids.tree}`)).fix ?? "", /\/team cleanup/);
		assert.match(find("state", /runs is writable by every user \(mode 777\)/).fix ?? "", /chmod o-w/);
		assert.equal(existsSync(marker), false, "no program the repository configures ran");

		const text = await crew(["doctor"], bareEnv({ PI_CREW_PI_CLI: join(base, "no-such-pi.js") }));
		assert.equal(text.code, 1);
		assert.match(text.out, /! pi: sub-agents cannot start: .*no-such-pi\.js --version failed/);
		assert.match(text.out, /\n {4}fix: check that .*no-such-pi\.js is Pi's CLI/);
		assert.match(text.out, /crew doctor: \d+ error\(s\), \d+ warning\(s\)\.$/m);
	});

	it("answers /team doctor in Pi with the same findings", async () => {
		const host = await startHost({ cwd: ws, extensions: [CREW_EXTENSION] });
		try {
			const text = await commandText(host, "/team doctor");
			assert.match(text, /! definitions: .*spender\.md: field "budget\.turns"/);
			assert.match(text, new RegExp(`~ runs: run ${ids.interrupted} .* is interrupted\\n {4}fix: /team resume`));
		} finally {
			await host.dispose();
		}
		assert.equal(existsSync(marker), false);
	});
});
