/**
 * `engine/render/coverage.ts`: the coverage lines every rendering ends with. Whatever the room, the count of unmapped
 * and best-effort files is the last thing to go, and nothing is ever longer than the room it was given.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { CoverageGap } from "../../src/engine/model/facts.ts";
import type { PartialFile } from "../../src/engine/model/partial-coverage.ts";
import { coverageFooter, coverageLine, LIMIT_REACHED } from "../../src/engine/render/coverage.ts";

const GAPS: CoverageGap[] = [
	{ path: "assets/a.ts", reason: "binary" },
	{ path: "assets/b.ts", reason: "binary" },
	{ path: "assets/c.ts", reason: "binary" },
	{ path: "big.ts", reason: "too-large" },
];
const PARTIAL: PartialFile[] = [
	{ path: "src/broken.ts", reason: "parse-errors" },
	{ path: "src/latin.py", reason: "parse-errors" },
	{ path: "src/latin.py", reason: "not-utf8" },
];

describe("coverageLine", () => {
	it("names each reason with a count and two examples; a file with two reasons counts once", () => {
		assert.equal(
			coverageLine("Not mapped", GAPS),
			"Not mapped: 4 files: 3 binary (assets/a.ts, assets/b.ts, …); 1 too-large (big.ts).",
		);
		assert.equal(
			coverageLine("Mapped best effort", PARTIAL),
			"Mapped best effort: 2 files: 2 parse-errors (src/broken.ts, src/latin.py); 1 not-utf8 (src/latin.py).",
		);
		assert.equal(
			coverageLine("Mapped best effort", PARTIAL.slice(0, 1)),
			"Mapped best effort: 1 file: 1 parse-errors (src/broken.ts).",
		);
		assert.equal(coverageLine("Not mapped", []), "");
	});

	it("counts directories the walk did not enter apart from files", () => {
		const dirs = [
			{ path: "src/build/", reason: "generated-dir" },
			{ path: "out/", reason: "generated-dir" },
		];
		assert.equal(
			coverageLine("Not mapped", [...GAPS, ...dirs]),
			"Not mapped: 4 files and 2 directories: 3 binary (assets/a.ts, assets/b.ts, …); 1 too-large (big.ts); 2 generated-dir (src/build/, out/).",
		);
		assert.equal(coverageLine("Not mapped", dirs.slice(1)), "Not mapped: 1 directory: 1 generated-dir (out/).");
	});

	it("drops examples, then reasons, then everything, never exceeding the room", () => {
		const full = coverageLine("Not mapped", GAPS);
		assert.equal(coverageLine("Not mapped", GAPS, full.length - 1), "Not mapped: 4 files: 3 binary; 1 too-large.");
		assert.equal(coverageLine("Not mapped", GAPS, 30), "Not mapped: 4 files.");
		assert.equal(coverageLine("Not mapped", GAPS, 10), "");
	});
});

describe("coverageFooter", () => {
	it("says first that a walk stopped at its limit, when there is room", () => {
		assert.equal(coverageFooter([], [], Number.POSITIVE_INFINITY, true), LIMIT_REACHED);
		assert.equal(
			coverageFooter(GAPS, PARTIAL, Number.POSITIVE_INFINITY, true),
			`${LIMIT_REACHED}\n${coverageFooter(GAPS, PARTIAL)}`,
		);
		const room = LIMIT_REACHED.length + 1 + 30;
		const footer = coverageFooter(GAPS, PARTIAL, room, true);
		assert.ok(footer.startsWith(LIMIT_REACHED) && footer.length <= room, footer);
		assert.equal(coverageFooter(GAPS, [], 10, true), "", "no room, nothing");
	});

	it("puts the gaps first and the best-effort files in the room left", () => {
		assert.equal(
			coverageFooter(GAPS, PARTIAL),
			`${coverageLine("Not mapped", GAPS)}\n${coverageLine("Mapped best effort", PARTIAL)}`,
		);
		assert.equal(coverageFooter([], PARTIAL), coverageLine("Mapped best effort", PARTIAL));
		assert.equal(coverageFooter(GAPS, []), coverageLine("Not mapped", GAPS));
		assert.equal(coverageFooter([], []), "");
		const notMapped = coverageLine("Not mapped", GAPS);
		assert.equal(
			coverageFooter(GAPS, PARTIAL, notMapped.length + 1 + 30),
			`${notMapped}\nMapped best effort: 2 files.`,
		);
	});

	it("fits any room it is given", () => {
		fc.assert(
			fc.property(fc.integer({ min: 0, max: 300 }), fc.boolean(), fc.boolean(), (room, withGaps, withPartial) => {
				const footer = coverageFooter(withGaps ? GAPS : [], withPartial ? PARTIAL : [], room);
				assert.ok(footer.length <= room, `${footer.length} > ${room}`);
				// The counts go last: whenever a count's shortest line fits, it is there; when both fit, both are.
				const gapsCount = "Not mapped: 4 files.";
				const partialCount = "Mapped best effort: 2 files.";
				if (withGaps && room >= gapsCount.length) assert.match(footer, /^Not mapped: 4 files/);
				if (withPartial && room >= (withGaps ? gapsCount.length + 1 : 0) + partialCount.length) {
					assert.match(footer, /^Mapped best effort: 2 files/m);
				}
			}),
		);
	});
});
