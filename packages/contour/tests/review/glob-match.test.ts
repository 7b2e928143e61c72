/**
 * Policy globs (`glob-match.ts`): the semantics a policy documents, as Node's `path.matchesGlob` answers them on
 * POSIX (each expected value below is what it answered), in time bounded by glob and path length, and bounded brace
 * expansion. A repository's own policy is untrusted: `*a*a*…b` once hung a review for minutes.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
	compileGlob,
	GlobError,
	MAX_GLOB_ALTERNATIVES,
	MAX_GLOB_CHARS,
	MAX_GLOB_EXPANDED_CHARS,
} from "../../src/review/glob-match.ts";
import { parsePolicy } from "../../src/review/policy.ts";
import { regionOf } from "../../src/review/regions.ts";

/** [path, glob, matches] as `path.posix.matchesGlob` answers them. */
const AS_NODE: [string, string, boolean][] = [
	["src/a.ts", "src/*", true],
	["src/a/b.ts", "src/*", false],
	["src/.a.ts", "src/*", false],
	["src/.a.ts", "src/.*", true],
	["src/.a.ts", "src/?a.ts", false],
	["src/.a.ts", "src/[.]a.ts", true],
	[".a.ts", "[.x]a.ts", false],
	[".b", "[!a]b", false],
	["src/a/b.ts", "src/**", true],
	["src", "src/**", false],
	["src/.x/b.ts", "src/**", false],
	["src/.x/b.ts", "src/**/b.ts", false],
	["src/.x/b.ts", "src/.x/**", true],
	["a.ts", "**", true],
	[".a.ts", "**", false],
	["c.ts", "**/c.ts", true],
	["a/b/c.ts", "**/c.ts", true],
	["a/c.ts", "a/**/c.ts", true],
	["a/x/y/z/b/c", "a/**/b/**/c", true],
	["a/b/c", "a/**/**/c", true],
	["a/b", "a/**/**", true],
	["a/b", "a/b/**", false],
	["a/b/c.ts", "a/**b/c.ts", true],
	["a/x/b/c.ts", "a/**b/c.ts", false],
	["ab", "a**b", true],
	["a/b", "a**b", false],
	["a/b.ts", "a/{b,c}.ts", true],
	["a/d.ts", "a/{b,c}.ts", false],
	["a/b/c.ts", "a/{b/c,d}.ts", true],
	["a/bx.ts", "a/{b,c{x,y}}.ts", false],
	["a/cx.ts", "a/{b,c{x,y}}.ts", true],
	["a/b.ts", "a/{b}.ts", false],
	["a/{b}.ts", "a/{b}.ts", true],
	["a/b", "a/{b,{c}}", true],
	["a/{c}", "a/{b,{c}}", true],
	["a/", "a/{,b}", true],
	["a", "a{,/b}", true],
	["a/b", "a{,/b}", true],
	["a/{b", "a/{b", true],
	["a/b}", "a/b}", true],
	["a/.b", "a/{.b,c}", true],
	["a/.b", "a/{*,c}", false],
	["a/b.ts", "a/*.{ts,js}", true],
	["a/b.ts", "a/[abc].ts", true],
	["a/d.ts", "a/[!abc].ts", true],
	["a/d.ts", "a/[^abc].ts", true],
	["a/e", "a/[a-z]", true],
	["a/E", "a/[a-z]", false],
	["a/b", "a/[b-a]", false],
	["a/-.ts", "a/[a-].ts", true],
	["a/]", "a/[]]", true],
	["a/[x", "a/[x", true],
	["a/x", "a/[x", false],
	["!a.ts", "!a.ts", true],
	["a/(b).ts", "a/(b).ts", true],
	["a/B.ts", "a/b.ts", false],
	["a/b", "a/?", true],
	["a/bb", "a/?", false],
	["a/é", "a/?", true],
	["a/b.ts", "a//b.ts", true],
	["a/b.ts", "a/./b.ts", true],
	["a/b/c", "*/b/*", true],
	["a/b.c/d", "a/*.c/*", true],
];

describe("policy globs", () => {
	it("match as Node's path.matchesGlob does, for the documented syntax", () => {
		for (const [path, glob, expected] of AS_NODE) {
			assert.equal(compileGlob(glob).matches(path), expected, `${JSON.stringify(path)} ~ ${JSON.stringify(glob)}`);
		}
	});

	it("answer a pattern that makes a backtracking matcher take exponential time", () => {
		// path.matchesGlob took 45 s on this pair with 10 stars; with 14 it ran for minutes. Under node:test a hang
		// would time the test out rather than pass.
		const hostile = compileGlob(`src/${"*a".repeat(14)}*b`);
		assert.equal(hostile.matches(`src/${"a".repeat(40)}.ts`), false);
		assert.equal(hostile.matches(`src/${"a".repeat(40)}b`), true);
		assert.equal(hostile.matches(`src/${"a".repeat(13)}b`), false, "one a too few");
		assert.equal(hostile.matches(`src/${"a".repeat(14)}b`), true);
		const deep = compileGlob(`${"**/".repeat(40)}x`);
		assert.equal(deep.matches(`${"d/".repeat(60)}y`), false);
		assert.equal(deep.matches(`${"d/".repeat(60)}x`), true);
	});

	it("refuse a glob whose braces expand too far, too long a glob, and syntax they do not support", () => {
		const refused: [string, RegExp][] = [
			["{a,b}".repeat(20), /expands to 1048576 alternatives, over the bound of 64 alternatives/],
			[`{${"{a,b}".repeat(200)},x}`, /expands to over a billion alternatives/],
			[`{${"x".repeat(40)},${"y".repeat(40)}}`.repeat(5), /expands to 6400 characters, over the bound/],
			["*".repeat(MAX_GLOB_CHARS + 1), new RegExp(`is ${MAX_GLOB_CHARS + 1} characters long`)],
			["src/@(a|b).ts", /extended glob "@\(…\)"/],
			["src/*(a).ts", /extended glob "\*\(…\)"/],
			["src/{1..3}.ts", /brace range/],
			["src/[[:alpha:]]", /POSIX character class/],
		];
		for (const [glob, message] of refused)
			assert.throws(
				() => compileGlob(glob),
				(error: unknown) => {
					assert.ok(error instanceof GlobError);
					assert.match(error.message, message);
					return true;
				},
			);
		assert.deepEqual([MAX_GLOB_ALTERNATIVES, MAX_GLOB_EXPANDED_CHARS], [64, 2048]);
		// At the bound is still a glob: 2^6 alternatives.
		assert.equal(compileGlob(`${"{a,b}".repeat(6)}`).matches("ababab"), true);
		// Unbalanced braces are literal, parsed once each.
		assert.equal(compileGlob(`${"{".repeat(500)}*`).matches(`${"{".repeat(500)}x`), true);
	});

	it("a policy with such a glob is an error naming the region and the glob", () => {
		const glob = `src/${"{a,b}".repeat(12)}`;
		assert.throws(
			() => parsePolicy(JSON.stringify({ regions: { r: glob }, forbid: [] }), "policy p.json"),
			/^Error: Contour policy p\.json: regions\["r"\]\[0\] "src\/\{a,b\}.*" expands to 4096 alternatives/,
		);
		assert.throws(
			() => parsePolicy(JSON.stringify({ forbid: [{ from: "src/@(a|b)/**", to: "x" }] })),
			/forbid\[0\]\.from "src\/@\(a\|b\)\/\*\*" uses the extended glob/,
		);
		// A forbid side naming a region is no glob, whatever its characters.
		const policy = parsePolicy(
			JSON.stringify({ regions: { "ui{": "src/ui/**" }, forbid: [{ from: "ui{", to: "db" }] }),
		);
		assert.equal(policy.forbid[0]?.from, "ui{");
	});

	it("the hostile region of a repository's own policy decides regions at once", () => {
		const policy = parsePolicy(JSON.stringify({ regions: { r: `src/${"*a".repeat(14)}*b` }, forbid: [] }));
		assert.equal(regionOf(`src/${"a".repeat(40)}.ts`, policy), "src");
		assert.equal(regionOf(`src/${"a".repeat(40)}b`, policy), "r");
	});
});
