/** The explicit review request a tool receives: defaults, and a clear Error for every malformed field. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEFAULT_REVIEW_TOKENS, parseReviewRequest } from "../../src/checkpoint/review-request.ts";

describe("review requests", () => {
	it("default to a staged review within the default budget; a base alone means a branch review", () => {
		assert.deepEqual(parseReviewRequest(undefined), { target: "staged", maxTokens: DEFAULT_REVIEW_TOKENS });
		assert.deepEqual(parseReviewRequest({ base: "main", root: "/r", maxFindings: 3, maxTokens: 500 }), {
			root: "/r",
			target: "branch",
			base: "main",
			maxTokens: 500,
			maxFindings: 3,
		});
		assert.equal(parseReviewRequest({ target: "working-tree" }).target, "working-tree");
	});

	it("refuse what they cannot honour, naming the field", () => {
		const cases: [unknown, RegExp][] = [
			[[], /must be an object/],
			[{ tagret: "staged" }, /unknown review option "tagret"/],
			[{ target: "index" }, /target must be staged, working-tree or branch/],
			[{ target: "branch" }, /a branch review needs a base/],
			[{ target: "staged", base: "main" }, /a base is only for a branch review, not staged/],
			[{ root: "" }, /root must be a non-empty string/],
			[{ maxTokens: 10 }, /maxTokens must be an integer from 100 to 100000/],
			[{ maxFindings: 1.5 }, /maxFindings must be an integer/],
		];
		for (const [input, message] of cases) assert.throws(() => parseReviewRequest(input), message);
	});
});
