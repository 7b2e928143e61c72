/** Budgeted text: sections written while they fit, shorter forms of lines, and room held for what follows. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BudgetedText, estimateTokens } from "../../src/engine/render/budget.ts";

/** A writer of exactly `chars` characters (a token is three). */
const writer = (chars: number) => new BudgetedText(chars / 3);

describe("budgeted text", () => {
	it("writes a section's lines while they fit, and no heading without a line under it", () => {
		const out = writer(30);
		assert.equal(out.addSection("H:", ["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"]), 2); // 2 + 11 + 11 = 24, a third 35
		assert.equal(out.toString(), "H:\naaaaaaaaaa\nbbbbbbbbbb");
		assert.equal(writer(10).addSection("Heading:", ["a line too long"]), 0);
		assert.equal(writer(10).toString(), "");
	});

	it("writes the shorter form of a line that does not fit, and starts the section when that fits", () => {
		const out = writer(30);
		const lines = ["aaaaaaaaaa", "bbbbbbbbbb — and its names", "cccccccccc — more"];
		assert.equal(out.addSection("H:", lines, 0, { shorter: [undefined, "bbbbbbbbbb", "cccccc"] }), 2);
		assert.equal(out.toString(), "H:\naaaaaaaaaa\nbbbbbbbbbb", "line 2 shortened; line 3's short form did not fit");
		const started = writer(12);
		assert.equal(started.addSection("H:", ["a long first line"], 0, { shorter: ["a"] }), 1);
		assert.equal(started.toString(), "H:\na");
	});

	it("keeps room held for the lines after one while it is written", () => {
		// Without the hold the first line's names would fill the budget; with it, both short forms fit.
		const lines = ["first.ts — alpha, beta", "second.ts — gamma, delta, epsilon"];
		const shorter = ["first.ts", "second.ts"];
		const held = (i: number) => (i === 0 ? "second.ts".length + 1 : 0);
		const greedy = writer(33);
		assert.equal(greedy.addSection("H:", lines, 0, { shorter }), 1);
		const kept = writer(33);
		assert.equal(kept.addSection("H:", lines, 0, { shorter, held }), 2);
		assert.equal(kept.toString(), "H:\nfirst.ts\nsecond.ts");
	});

	it("counts text outside ASCII as tokenizers split it: finer than three characters a token", () => {
		assert.equal(estimateTokens("parse"), 2);
		assert.equal(estimateTokens("数据处理"), 4, "a token a character");
		const out = new BudgetedText(6);
		assert.equal(out.add("数据处理"), true);
		assert.equal(out.add("数据"), false, "4 + 2 CJK characters and a newline cost more than 6 tokens");
		assert.ok(estimateTokens(out.toString()) <= 6);
	});
});

describe("BudgetedText.addRootHeader", () => {
	it("keeps the root's name on the first line however long it is, cut in its middle to the room", () => {
		const ascii = `/tmp/${"y".repeat(200)}/${"z".repeat(200)}/${"w".repeat(200)}/app`;
		const cjk = `/home/${"漢".repeat(250)}/app`;
		for (const root of [ascii, cjk]) {
			const out = new BudgetedText(200);
			out.addRootHeader("fovea sketch · root ", root, " · 12 files (typescript), 40 symbols");
			const [first] = out.toString().split("\n");
			assert.match(first ?? "", /^fovea sketch · root \/(tmp|home)\/.*….*\/app$/);
			assert.ok(estimateTokens(out.toString()) <= 200, String(estimateTokens(out.toString())));
		}
		const short = new BudgetedText(200);
		short.addRootHeader("fovea sketch · root ", "/src/app", " · 12 files");
		assert.equal(short.toString(), "fovea sketch · root /src/app · 12 files");
	});
});
