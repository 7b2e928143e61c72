/**
 * A cold review whose slice would hold more text than its bound (`MAX_SLICE_TEXT_BYTES`, lowered here through
 * `CodeMaps.maxSliceTextBytes`) is made over the whole code map instead: the same report as the slice's, with the
 * whole map built and no file parsed for a slice.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { ReviewCache } from "../../src/checkpoint/review-cache.ts";
import { reviewRoot } from "../../src/checkpoint/review-root.ts";
import type { ReviewReport } from "../../src/report/report.ts";
import { cleanup, git, repo, write } from "../git/support.ts";
import { heldMaps } from "./held-maps.ts";

after(cleanup);

/** Files the change neither touches nor reaches: only a whole map parses them. */
const PILE = 12;

/** The project after the change: b now imports a, a new cycle (a finding, so exposure is asked for). */
const AFTER: Record<string, string> = {
	"src/a.ts": 'import { b } from "./b";\n\nexport function a(): number {\n\treturn b() + 1;\n}\n',
	"src/b.ts": 'import { a } from "./a";\n\nexport function b(): number {\n\treturn a() > 9 ? 2 : 3;\n}\n',
	"src/c.ts": 'import { a } from "./a";\n\nexport const c = a();\n',
	...Object.fromEntries(Array.from({ length: PILE }, (_, i) => [`pile/p${i}.ts`, `export const p${i} = ${i};\n`])),
};

/** Bytes of text the slice of the changed project holds: every listed file's. */
const TEXT_BYTES = Object.values(AFTER).reduce((sum, text) => sum + Buffer.byteLength(text), 0);

function changed(): string {
	const dir = repo({ ...AFTER, "src/b.ts": "export function b(): number {\n\treturn 2;\n}\n" }, { commit: true });
	write(dir, { "src/b.ts": AFTER["src/b.ts"] as string });
	git(dir, "add", "-A");
	return dir;
}

function review(dir: string, maxSliceTextBytes?: number): Promise<ReviewReport> {
	return reviewRoot({
		root: dir,
		cache: new ReviewCache(),
		origin: { kind: "cli" },
		maps: heldMaps(maxSliceTextBytes === undefined ? { cold: true } : { cold: true, maxSliceTextBytes }),
	});
}

/** What a review reports about the project, without what identifies the run or counts its work. */
function reported(report: ReviewReport) {
	const { findings, imports, deltas, notes, exposureNote } = report;
	return { findings, imports, deltas, notes, exposureNote };
}

describe("a cold review past its slice's text bound", () => {
	it("falls back to the whole map, with the slice's report", async () => {
		const dir = changed();
		const sliced = await review(dir);
		const atBound = await review(dir, TEXT_BYTES);
		const past = await review(dir, TEXT_BYTES - 1);
		assert.deepEqual(
			sliced.findings.map((f) => f.kind),
			["import-cycle"],
			JSON.stringify(sliced.findings.map((f) => f.title)),
		);
		assert.ok(sliced.work.sliceFilesParsed > 0, "the default bound holds this project: it is sliced");
		assert.equal(atBound.work.sliceFilesParsed, sliced.work.sliceFilesParsed, "text exactly at the bound is sliced");
		assert.deepEqual(reported(atBound), reported(sliced));
		assert.equal(past.work.sliceFilesParsed, 0, "one byte past the bound, no slice is parsed");
		assert.equal(
			past.work.mapFilesParsed,
			PILE + 3,
			"the whole map is built before the review, parsing every file (no staged side is offered to it)",
		);
		assert.ok(sliced.work.mapFilesParsed < PILE + 3, "the sliced review's map (for exposure) takes offered facts");
		assert.deepEqual(reported(past), reported(sliced));
	});
});
