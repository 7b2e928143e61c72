import assert from "node:assert/strict";
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { isProcessRunning } from "../../src/runtime/index.ts";
import { RunStore } from "../../src/state/index.ts";
import { until } from "../extension/support/crew-world.ts";
import { busy, crewFixture, orphanedRun } from "./support/crew-fixture.ts";

const CONTROLLER = fileURLToPath(new URL("./support/controller.ts", import.meta.url));

interface Reply {
	id: number;
	ok: boolean;
	status?: string;
	error?: string;
}

/** A coordinator process (support/controller.ts) of session `sessionId`, taking run control requests. */
class Coordinator {
	readonly #child: ChildProcessByStdio<Writable, Readable, null>;
	readonly #waiting = new Map<number, (reply: Reply) => void>();
	readonly ready: Promise<void>;
	readonly sessionId: string;
	#next = 0;

	constructor(env: NodeJS.ProcessEnv, sessionId: string) {
		this.sessionId = sessionId;
		this.#child = spawn(process.execPath, [CONTROLLER], { env, stdio: ["pipe", "pipe", "inherit"] });
		let ready = (): void => {};
		this.ready = new Promise((resolve) => {
			ready = resolve;
		});
		createInterface({ input: this.#child.stdout }).on("line", (line) => {
			const reply = JSON.parse(line) as Reply & { ready?: number };
			if (reply.ready !== undefined) ready();
			else this.#waiting.get(reply.id)?.(reply);
		});
	}

	/** Sends `op` for run `runId` of `cwd`, forced; resolves with the answer. */
	request(op: "resume" | "cancel", cwd: string, runId: string): Promise<Reply> {
		const id = this.#next++;
		const reply = new Promise<Reply>((resolve) => this.#waiting.set(id, resolve));
		this.#child.stdin.write(`${JSON.stringify({ id, op, cwd, sessionId: this.sessionId, runId, force: true })}\n`);
		return reply;
	}

	/** Shuts its runtime down (its agents end) and waits for it to exit. */
	async close(): Promise<void> {
		if (this.#child.exitCode !== null) return;
		const exited = once(this.#child, "exit");
		this.#child.stdin.end();
		await exited;
	}
}

test("a forced cancel racing a forced resume never ends the run the resume took over; the slower one is refused", async (t) => {
	const fx = await crewFixture(t);
	await fx.script({ "RACE-TASK": [busy(120)] });
	const resumer = new Coordinator(fx.env, "resumer");
	const canceller = new Coordinator(fx.env, "canceller");
	t.after(() => Promise.all([resumer.close(), canceller.close()]));
	await Promise.all([resumer.ready, canceller.ready]);
	const store = await RunStore.open(fx.ws);
	const outcomes: string[] = [];
	// The cancel starts 0-30 ms after the resume: it passes its access check against the ended session while the
	// resume takes the run over. Before the fix most such trials cancelled the freshly resumed run.
	for (const delay of [0, 2, 5, 10, 15, 20, 25, 30]) {
		const { manifest } = await orphanedRun(fx.ws, "ended", [{ id: "work", instructions: "RACE-TASK" }]);
		const runId = manifest.runId;
		const resumed = resumer.request("resume", fx.ws, runId);
		await sleep(delay);
		const cancelled = canceller.request("cancel", fx.ws, runId);
		const [r, c] = await Promise.all([resumed, cancelled]);
		outcomes.push(`${delay} ms: resume ${r.ok ? "ok" : "refused"}, cancel ${c.ok ? "ok" : "refused"}`);
		assert.ok(!(r.ok && c.ok), `both the resume and the cancel succeeded (${outcomes.join("; ")})`);
		assert.ok(r.ok || c.ok, `one of them succeeds: ${r.error} / ${c.error}`);
		const loser = r.ok ? c : r;
		const winner = r.ok ? resumer : canceller;
		// The slower one was refused with a reason that names the run's new owner (or says it is live).
		assert.match(
			loser.error ?? "",
			new RegExp(`taken over by session ${winner.sessionId}|belongs to another live session`),
			loser.error,
		);
		const after = await store.readRun(runId);
		assert.equal(after.manifest.ownerSessionId, winner.sessionId);
		if (!r.ok) {
			assert.equal(after.manifest.status, "cancelled");
			continue;
		}
		// The resumed run is the resumer's, and its agent lives on: nothing of the cancel reached it.
		const pid = await until(async () => {
			const { manifest: m, tasks } = await store.readRun(runId);
			assert.equal(m.status, "running", "the resumed run is not cancelled");
			const agentPid = tasks[0]?.meta?.agentPid;
			return typeof agentPid === "number" ? agentPid : undefined;
		}, "the resumed agent's pid");
		assert.equal(await isProcessRunning(pid), true, "the resumed run's agent runs");
		assert.equal((await store.readRun(runId)).manifest.status, "running");
		// The resumer ends its own run, so the next trial has the machine to itself.
		assert.equal((await resumer.request("cancel", fx.ws, runId)).ok, true);
	}
	t.diagnostic(outcomes.join("; "));
});
