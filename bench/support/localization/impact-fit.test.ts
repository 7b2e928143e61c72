// The learned-fusion experiment's pure parts (not run by `npm test`): node --test bench/support/localization/*.test.ts
import assert from "node:assert/strict";
import { test } from "node:test";
import { ENGINE_WEIGHTS, IMPACT_FEATURES, impactFeatures } from "./impact-features.ts";
import { candidatesOf, type DumpedCase, fitCases, rankCase, searchWeights } from "./impact-fit.ts";

/** A dumped case of `query` with the given signal lists (paths best first) and gold files. */
function dumped(
	repo: string,
	lists: { reach?: string[]; coupling?: string[]; text?: string[]; upstream?: string[] },
	gold: string[],
): DumpedCase {
	const scored = (paths: string[] = []) => paths.map((path, i) => ({ path, score: 1 / (i + 1) }));
	return {
		repo: `/corpus/${repo}/repo`,
		id: "c0ffee",
		query: "src/core.ts",
		gold,
		ranked: {},
		signals: {
			reach: scored(lists.reach),
			coupling: (lists.coupling ?? []).map((path) => ({ path, score: 2, weight: 1, commits: 4 })),
			text: scored(lists.text),
			named: [],
			upstream: lists.upstream ?? [],
		},
	};
}

test("candidates are what the engine fuses: the query left out, text never brings in what the change relies on", () => {
	const c = dumped(
		"a",
		{
			reach: ["src/user.ts", "src/core.ts"],
			coupling: ["src/helper.ts"],
			text: ["src/dep.ts", "src/helper.ts"],
			upstream: ["src/dep.ts", "src/helper.ts"],
		},
		["src/user.ts"],
	);
	const paths = candidatesOf(c)
		.map((x) => x.path)
		.sort();
	// dep.ts is upstream and only text found it; helper.ts is upstream too but changed with the change.
	assert.deepEqual(paths, ["src/helper.ts", "src/user.ts"]);
	const helper = candidatesOf(c).find((x) => x.path === "src/helper.ts");
	assert.equal(helper?.text?.rank, 1, "text ranks among what it may bring in");
});

test("the engine's weights fuse by reciprocal rank: a file near the top of two signals beats one first in one", () => {
	const [c] = fitCases([
		dumped("a", { reach: ["src/a.ts", "src/b.ts"], text: ["src/c.ts", "src/b.ts"] }, ["src/b.ts"]),
	]);
	assert.ok(c !== undefined);
	assert.equal(rankCase(c, ENGINE_WEIGHTS)[0], "src/b.ts");
});

test("path features: a test named for the changed file across test roots, and the changed file's folder", () => {
	const change = { changed: "src/_pytest/cacheprovider.py", testShare: undefined, commits: 0 };
	const at = (name: string) => IMPACT_FEATURES.indexOf(name as (typeof IMPACT_FEATURES)[number]);
	const own = impactFeatures({ path: "testing/test_cacheprovider.py" }, change);
	const other = impactFeatures({ path: "testing/test_config.py" }, change);
	const sibling = impactFeatures({ path: "src/_pytest/config.py" }, change);
	assert.deepEqual([own[at("test")], own[at("ownTest")], own[at("sameFolder")]], [1, 1, 0]);
	assert.deepEqual([other[at("test")], other[at("ownTest")]], [1, 0]);
	assert.deepEqual([sibling[at("test")], sibling[at("sameFolder")]], [0, 1]);
});

test("the search moves a weight where it raises the mean measure; with maximin, never at one repository's cost", () => {
	// The reach is equally sure of all its files. On repositories a and c the gold file is text's first and the reach's
	// second; on b the reach's first and text's second. Equal credits tie, and ties fall to the path: the gold file
	// (m.ts) comes second on a and c and first on b. More weight on text wins a and c and costs b.
	const a = dumped("a", { reach: ["src/a.ts", "src/m.ts"], text: ["src/m.ts", "src/a.ts"] }, ["src/m.ts"]);
	const b = dumped("b", { reach: ["src/m.ts", "src/y.ts"], text: ["src/y.ts", "src/m.ts"] }, ["src/m.ts"]);
	const c = { ...a, repo: "/corpus/c/repo" };
	for (const one of [a, b]) for (const r of one.signals.reach) r.score = 1;
	const cases = fitCases([a, b, c]);
	const text = IMPACT_FEATURES.indexOf("text");
	const onlyText = new Set(IMPACT_FEATURES.flatMap((_, i) => (i === text ? [] : [i])));
	assert.ok((searchWeights(cases, ENGINE_WEIGHTS, onlyText)[text] ?? 0) > 1, "two repositories gain, one loses");
	assert.equal(searchWeights(cases, ENGINE_WEIGHTS, onlyText, true)[text], 1, "maximin keeps what costs b");
});
