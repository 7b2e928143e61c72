// The drift message's shared budget (seed: "Shared sync context is spent on relevant messages … Root labels and
// retirement notices count toward that budget"): drift that does not fit waits, and the message says so.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Drift } from "../src/engine/observe/baseline.ts";
import { driftMessage, type PendingDrift } from "../src/engine/observe/drift-message.ts";
import { estimateTokens } from "../src/engine/render/budget.ts";

const drift = (name: string): Drift => ({
	path: `src/${name}.ts`,
	kind: "changed",
	details: [`+ function ${name}Later (line 4)`],
	authored: false,
});

describe("driftMessage", () => {
	it("a drift line after the first keeps room for the line that says more is coming, at any label length", () => {
		const names = ["alpha", "bravo", "charlie", "delta"];
		for (const label of ["/r", `/${"long-root-label/".repeat(12)}many`]) {
			for (let budget = 40; budget <= 200; budget += 3) {
				const root: PendingDrift = { root: label, state: { pending: names.map(drift) } };
				const message = driftMessage([root], [], budget);
				if (message === undefined) {
					assert.equal(root.state.pending.length, names.length, "nothing told, nothing lost");
					continue;
				}
				assert.ok(estimateTokens(`${message}\n`) <= budget, `within ${budget}`);
				const left = root.state.pending.length;
				const toldLines = message.split("\n").filter((line) => line.includes("not by this session")).length;
				assert.ok(toldLines >= 1, "a message that tells anything tells at least one drift");
				// The first drift goes whenever it fits (progress first); every later one keeps room for the notice.
				if (left > 0 && toldLines > 1) {
					assert.match(message, new RegExp(`… ${left} more, told in a later message$`), `${budget}`);
				}
				if (left === 0) assert.doesNotMatch(message, /more, told in a later message/);
			}
		}
	});

	it("quiet roots cost nothing: 31 of them beside the root with drift leave its message whole", () => {
		const names = ["alpha", "bravo", "charlie"];
		const busy = (): PendingDrift => ({ root: "/work/busy", state: { pending: names.map(drift) } });
		const quiet = Array.from(
			{ length: 31 },
			(_, i): PendingDrift => ({ root: `/work/quiet-${i}`, state: { pending: [] } }),
		);
		const budget = 120;
		const alone = driftMessage([busy()], [], budget);
		assert.ok(alone !== undefined && !alone.includes("more, told in a later message"), "the budget holds it all");
		for (const roots of [
			[...quiet, busy()],
			[busy(), ...quiet],
		]) {
			const message = driftMessage(roots, [], budget);
			assert.equal(message, alone, "the same message, not a share divided by 32 roots");
			assert.doesNotMatch(message ?? "", /quiet-/, "no label for a root with nothing to tell");
		}
	});

	it("root labels and retirement notices are paid from the same budget; a notice that does not fit waits", () => {
		const notices = [
			"Fovea: /work/old-one left the ring (the least recently used of 32).",
			"Fovea: /work/old-two left the ring.",
		];
		const root: PendingDrift = { root: "/work/busy", state: { pending: [drift("alpha")] } };
		const whole = driftMessage([{ ...root, state: { pending: [drift("alpha")] } }], [...notices], 400) ?? "";
		const needed = estimateTokens(`${whole}\n`);
		const waiting = [...notices];
		const message = driftMessage([root], waiting, needed - 1) ?? "";
		assert.ok(
			estimateTokens(`${message}\n`) <= needed - 1,
			"labels, drift and notices together stay within the budget",
		);
		assert.match(message, /In \/work\/busy:/);
		assert.deepEqual(waiting, [notices[1]], "the notice that did not fit is kept for the next message");
		assert.equal(
			driftMessage([], waiting, 400),
			`Fovea: files changed since you last looked (meaningful changes only):\n${notices[1]}`,
		);
		assert.deepEqual(waiting, []);
	});
});
