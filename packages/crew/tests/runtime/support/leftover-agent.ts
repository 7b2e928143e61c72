/**
 * An agent that leaves processes running, for the tests of their ending (runtime and end to end): the bash call that
 * starts them, their pids as the agent wrote them, and the checks that they were ended and named.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { FauxTurn } from "../../../../../test/e2e/support/pi-cli.ts";
import { isProcessRunning } from "../../../src/runtime/index.ts";

/** What `leaveBehind` started. */
export interface LeftPids {
	loop: number;
	nohup: number;
}

/**
 * An agent's bash call that leaves two processes running after it returns: a loop in a session of its own
 * (`setsid`), appending to `out-<tag>.txt`, whose command line carries a terminal escape sequence, and a
 * `nohup sleep 300`. Their pids land in `<tag>.loop` and `<tag>.nohup` in the workspace.
 */
export function leaveBehind(tag: string): FauxTurn {
	const loop = `echo $$ > ${tag}.loop; while :; do date >> out-${tag}.txt; sleep 0.2; done`;
	const command = [
		`setsid sh -c '${loop}' "$(printf 'loop-${tag}\\033]0;pwned\\007')" >/dev/null 2>&1 &`,
		`nohup sleep 300 >/dev/null 2>&1 & echo $! > ${tag}.nohup`,
		`while [ ! -s ${tag}.loop ]; do sleep 0.05; done`,
	].join("\n");
	return { toolCalls: [{ name: "bash", arguments: { command } }] };
}

/** The pids of what `leaveBehind(tag)` started, once both are written; ended (SIGKILL) when the test ends. */
export async function leftPids(t: TestContext, ws: string, tag: string): Promise<LeftPids> {
	const files = { loop: join(ws, `${tag}.loop`), nohup: join(ws, `${tag}.nohup`) };
	for (let i = 0; i < 600 && !Object.values(files).every((f) => existsSync(f) && statSync(f).size > 0); i++) {
		await sleep(50);
	}
	const pids = {
		loop: Number(readFileSync(files.loop, "utf8").trim()),
		nohup: Number(readFileSync(files.nohup, "utf8").trim()),
	};
	t.after(() => {
		for (const pid of Object.values(pids)) {
			try {
				process.kill(pid, "SIGKILL");
			} catch {
				// Ended already, as it should be.
			}
		}
	});
	return pids;
}

export async function assertEnded(pids: LeftPids, what: string): Promise<void> {
	for (const [name, pid] of Object.entries(pids)) {
		assert.equal(await isProcessRunning(pid), false, `${what}: the ${name} process ${pid} was ended`);
	}
}

/** Asserts `text` names both processes by pid and command, with the escape sequence written out. */
export function assertNamed(text: string, pids: LeftPids): void {
	assert.match(text, new RegExp(`pid ${pids.loop} \`sh -c echo \\$\\$ > `), text);
	assert.match(text, new RegExp(`pid ${pids.nohup} \`sleep 300\``), text);
	assert.ok(text.includes("loop-"), text);
	assert.ok(text.includes("\\u001b]0;pwned\\u0007"), `the escape sequence is written out: ${text}`);
	// biome-ignore lint/suspicious/noControlCharactersInRegex: no raw escape character may reach a person
	assert.doesNotMatch(text, /[\u001b\u0007]/);
}
