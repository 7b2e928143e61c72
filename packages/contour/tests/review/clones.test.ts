/**
 * Clone detection on real measures: an exact clone (renamed identifiers and literals), a near clone (renamed and one
 * statement changed), and a dissimilar pair; then clone findings of a change, which skip pairs that were already
 * alike before it. Issue: "exact and near-duplicate callables (clones)".
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { analyzeChange } from "../../src/review/analyze.ts";
import type { CallableMeasure } from "../../src/review/callables.ts";
import {
	ClonePool,
	decodeShingles,
	encodeShingles,
	findClones,
	jaccard,
	NEAR_CLONE_SIMILARITY,
	shinglesOf,
	similarity,
	tokenHashes,
} from "../../src/review/clones.ts";
import { ensureMeasureLanguages, measureFile } from "../../src/review/measure.ts";

before(() => ensureMeasureLanguages(["a.ts", "a.py"]));

const TOTAL = `export function totalPrice(items: Item[], taxRate: number): number {
	let total = 0;
	for (const item of items) {
		if (item.quantity <= 0) {
			continue;
		}
		const line = item.price * item.quantity;
		total += line;
	}
	const tax = total * taxRate;
	return Math.round((total + tax) * 100) / 100;
}
`;
/** TOTAL with every identifier renamed and a literal changed: the same shape. */
const EXACT = `export function sumOrder(entries: Entry[], rate: number): number {
	let sum = 0;
	for (const entry of entries) {
		if (entry.count <= 1) {
			continue;
		}
		const amount = entry.cost * entry.count;
		sum += amount;
	}
	const extra = sum * rate;
	return Math.round((sum + extra) * 100) / 100;
}
`;
/** EXACT with one statement changed. */
const NEAR = EXACT.replace("const extra = sum * rate;", "const extra = sum * rate + shipping(entries);");
const OTHER = `export function parseFlags(argv: string[]): Map<string, string> {
	const flags = new Map<string, string>();
	let index = 0;
	while (index < argv.length) {
		const arg = argv[index];
		if (arg.startsWith("--")) {
			flags.set(arg.slice(2), argv[index + 1] ?? "");
			index += 2;
		} else {
			index++;
		}
	}
	return flags;
}
`;

function only(path: string, source: string): CallableMeasure {
	const [callable] = measureFile(path, source).callables;
	assert.ok(callable);
	return callable;
}

describe("clone fingerprints", () => {
	it("an exact clone has the same shape hash; a near clone is similar above the threshold; others are not", () => {
		const total = only("src/total.ts", TOTAL);
		const exact = only("src/exact.ts", EXACT);
		const near = only("src/near.ts", NEAR);
		const other = only("src/flags.ts", OTHER);
		assert.equal(exact.shapeHash, total.shapeHash);
		assert.notEqual(exact.bodyHash, total.bodyHash, "the body hash sees the renamed identifiers");
		assert.notEqual(near.shapeHash, total.shapeHash);
		const nearScore = similarity(total, near);
		assert.ok(nearScore >= NEAR_CLONE_SIMILARITY && nearScore < 1, `near similarity ${nearScore}`);
		assert.ok(similarity(total, other) < 0.2, `dissimilar similarity ${similarity(total, other)}`);

		const pool = [
			{ file: "src/exact.ts", callable: exact },
			{ file: "src/near.ts", callable: near },
			{ file: "src/flags.ts", callable: other },
		];
		const matches = findClones({ file: "src/total.ts", callable: total }, pool);
		assert.deepEqual(
			matches.map((m) => [m.kind, m.other.file]),
			[
				["exact", "src/exact.ts"],
				["near", "src/near.ts"],
			],
		);
	});

	it("small callables are left out of clone search", () => {
		const a = only("src/a.ts", "function a(x) { return x + 1; }");
		const b = only("src/b.ts", "function b(y) { return y + 2; }");
		assert.equal(a.shapeHash, b.shapeHash);
		assert.equal(a.shingles, undefined);
		assert.deepEqual(findClones({ file: "src/a.ts", callable: a }, [{ file: "src/b.ts", callable: b }]), []);
	});

	it("jaccard and shingles behave on small inputs", () => {
		assert.equal(jaccard([1, 2, 3], [2, 3, 4]), 0.5);
		assert.equal(jaccard([], []), 1);
		assert.equal(
			shinglesOf(tokenHashes(["a", "b"]), 0, 2).length,
			1,
			"a sequence shorter than a shingle is one shingle",
		);
		const shingles = shinglesOf(tokenHashes(["a", "b", "c", "d", "e", "f", "a", "b", "c", "d", "e"]), 0, 11);
		assert.equal(shingles.length, 7);
		assert.deepEqual(
			[...decodeShingles(encodeShingles(shingles))],
			[...shingles],
			"stored shingles decode to the same",
		);
		// The stored form is fixed (measures outlive processes): base64 of little-endian values, a view's own part only.
		const view = Uint16Array.of(9, 1, 0x0203, 9).subarray(1, 3);
		assert.equal(encodeShingles(view), Buffer.from([1, 0, 3, 2]).toString("base64"));
		assert.deepEqual([...decodeShingles(Buffer.from([4, 0, 6, 5]).toString("base64"))], [4, 0x0506]);
	});

	it("shingles of a callable inside a file's tokens are those of its own tokens, and their stored values are fixed", () => {
		const file = [
			"ID",
			"(",
			"ID",
			")",
			"{",
			"return",
			"ID",
			"+",
			"LIT",
			";",
			"}",
			"ID",
			"=>",
			"ID",
			"if",
			"(",
			"ID",
			")",
		];
		const hashes = tokenHashes(file);
		for (const [start, end] of [
			[0, 18],
			[3, 15],
			[5, 7],
			[4, 18],
		] as const) {
			assert.deepEqual(
				[...shinglesOf(hashes, start, end)],
				[...shinglesOf(tokenHashes(file.slice(start, end)), 0, end - start)],
				`tokens [${start}, ${end})`,
			);
		}
		// Measures are cached across processes under MEASURE_VERSION: the values may not change without it.
		assert.equal(encodeShingles(shinglesOf(hashes, 0, 18)), "4zulQCFVf2A1YWxnRoKxi4qS+Z02ojfPLfJ0/w==");
		assert.equal(encodeShingles(shinglesOf(hashes, 3, 15)), "4zulQH9gRoL5nTaiN88t8g==");
		assert.equal(shinglesOf(hashes, 7, 7).length, 0);
	});
});

describe("clone findings of a change", () => {
	it("a new exact clone of a file outside the change and a new near clone of both are one group with witnesses", async () => {
		const others = [measureFile("src/total.ts", TOTAL), measureFile("src/flags.ts", OTHER)];
		const review = await analyzeChange({
			files: [
				{ path: "src/exact.ts", after: EXACT },
				{ path: "src/near.ts", before: "export const x = 1;\n", after: `export const x = 1;\n${NEAR}` },
			],
			allCallables: others,
		});
		const clones = review.findings.filter((f) => f.kind.endsWith("clone"));
		// One group of three (exact.ts duplicates total.ts, near.ts is alike both): one finding naming all of them.
		assert.deepEqual(
			clones.map((f) => [f.kind, f.file, f.line]),
			[["near-clone", "src/exact.ts", 1]],
		);
		const group = clones[0];
		assert.ok(group);
		assert.ok(group.after.value >= NEAR_CLONE_SIMILARITY && group.after.value < 1);
		assert.deepEqual(
			group.witnesses.map((w) => `${w.side} ${w.file}:${w.line}`),
			["after src/exact.ts:1", "after src/total.ts:1", "after src/near.ts:2"],
		);
		assert.match(
			group.title,
			/`sumOrder` is at least \d+% alike `totalPrice` \(src\/total\.ts:1\) and `sumOrder` \(src\/near\.ts:2\) \(3 look-alike callables\)/,
		);
	});

	it("a dissimilar new function is not a clone, and a pair already alike before is not reported again", async () => {
		const review = await analyzeChange({
			files: [
				{ path: "src/flags.ts", after: OTHER },
				// EXACT was a clone of TOTAL before; its edit keeps it one.
				{ path: "src/exact.ts", before: EXACT, after: EXACT.replace("<= 1", "<= 2").replace("100", "1000") },
			],
			allCallables: [measureFile("src/total.ts", TOTAL)],
		});
		assert.deepEqual(
			review.findings.filter((f) => f.kind.endsWith("clone")),
			[],
		);
		assert.deepEqual(
			review.deltas.map((d) => [d.status, d.after?.name]),
			[
				["changed", "sumOrder"],
				["added", "parseFlags"],
			],
		);
	});

	it("copying a function within the change reports the pair once", async () => {
		const python = (name: string) =>
			[
				`def ${name}(rows, limit):`,
				"    out = []",
				"    for row in rows:",
				"        if row.size > limit and row.ok:",
				"            out.append(row.name.strip().lower())",
				"        elif row.size == limit:",
				"            out.append(row.name)",
				"    return sorted(out, key=lambda n: (len(n), n))",
				"",
			].join("\n");
		const review = await analyzeChange({
			files: [
				{ path: "pkg/a.py", after: python("pick") },
				{ path: "pkg/b.py", after: python("choose") },
			],
		});
		const clones = review.findings.filter((f) => f.kind === "exact-clone");
		assert.equal(clones.length, 1);
	});

	it("a search compares at most its budget of candidates, exact ones first, and says when it stopped short", () => {
		const total = only("src/total.ts", TOTAL);
		const copies = Array.from({ length: 6 }, (_, i) => ({ file: `src/copy${i}.ts`, callable: total }));
		const pool = new ClonePool([
			{ file: "src/near.ts", callable: only("src/near.ts", NEAR) },
			{ file: "src/flags.ts", callable: only("src/flags.ts", OTHER) },
			...copies,
		]);
		const target = { file: "src/total.ts", callable: total };
		const whole = pool.search(target);
		// Six of its shape, then the two of a size a near clone could have (one is alike).
		assert.deepEqual([whole.comparisons, whole.complete], [8, true]);
		assert.deepEqual(
			whole.matches.map((m) => [m.kind, m.other.file]),
			[...copies.map((c) => ["exact", c.file]), ["near", "src/near.ts"]],
		);
		const cut = pool.search(target, 3);
		assert.deepEqual([cut.comparisons, cut.complete], [3, false]);
		assert.deepEqual(
			cut.matches.map((m) => m.other.file),
			["src/copy0.ts", "src/copy1.ts", "src/copy2.ts"],
		);
		assert.deepEqual([pool.search(target, 7).complete, pool.search(target, 8).complete], [false, true]);
	});

	it("clone search of many look-alike callables stops at its bounds and says so as a coverage gap", async () => {
		const generated = (n: number) =>
			Array.from(
				{ length: n },
				(_, i) =>
					`export function f${i}(a: number, b: number): number { let s = a + ${i}; if (s > b) { s = s * 2 + b; } else { s = s - b * 3; } for (let k = 0; k < a; k++) { s += k; } return s; }`,
			).join("\n");
		const free = await analyzeChange({ files: [{ path: "gen/a.ts", after: generated(40) }] });
		assert.equal(free.cloneComparisons, 40 * 39, "unbounded here: each compared with every other");
		assert.deepEqual(free.gaps, []);

		const bounded = await analyzeChange({
			files: [
				{ path: "gen/a.ts", after: generated(40) },
				{ path: "gen/b.ts", after: generated(2) },
			],
			options: { clones: { maxComparisons: 100, maxComparisonsPerCallable: 10 } },
		});
		// The review's 100 are shared among its 42 callables (what one leaves goes to the rest), none over 10.
		assert.equal(bounded.cloneComparisons, 100);
		assert.deepEqual(
			bounded.gaps.map((gap) => [gap.path, gap.side, gap.reason]),
			[
				["gen/a.ts", "after", "clone-search"],
				["gen/b.ts", "after", "clone-search"],
			],
		);
		assert.match(
			bounded.gaps[0]?.detail ?? "",
			/^clone search stopped at its bound \(10 comparisons per callable, 100 per review\) for 40 of 40 new or changed callables/,
		);
		// What it did compare still gives findings: every callable found one of its copies, and the copies are one group.
		const groups = bounded.findings.filter((f) => f.kind === "exact-clone");
		assert.equal(groups.length, 1);
		assert.equal(groups[0]?.witnesses.length, 42);
	});
});
