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
});
