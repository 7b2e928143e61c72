/**
 * The optional review policy: named regions and forbidden import boundaries. Without a policy every finding is
 * advisory; with one, a new import that crosses a forbidden boundary is a policy violation (the CLI exits 1).
 *
 * ```json
 * {
 *   "regions": { "ui": ["src/ui/**"], "storage": "src/db/**" },
 *   "forbid": [{ "from": "ui", "to": "storage", "reason": "the UI goes through src/api" }]
 * }
 * ```
 *
 * - `regions` (optional): region name → one glob or a list of globs over root-relative paths. A file's region is
 *   the first region (in file order) with a matching glob; files no region claims fall back to `regions.ts`'s
 *   default (their top-level directory).
 * - `forbid` (required, may be empty): rules `{from, to, reason?}`; `from` and `to` are each a region name defined
 *   in `regions`, or a glob. A new import from a file matching `from` to a file matching `to` violates the rule.
 * - Globs (`glob-match.ts`) follow Node's `path.matchesGlob` on POSIX (`*` within a segment, `**` across segments,
 *   `{a,b}`, `?`, `[a-z]`; `*`, `?` and `**` pass over dotfiles), case-sensitively everywhere, in time bounded by
 *   the lengths of glob and path; a pattern without glob characters names a file or a directory and everything
 *   under it. A glob over the bounds of `glob-match.ts` (length, alternatives of its braces) or using syntax it
 *   does not support (extended globs, brace ranges, POSIX classes) is an error naming it.
 *
 * Anything else — unknown keys, wrong types, empty strings, absolute or `..` patterns — is a clear Error naming the
 * place, since a silently ignored rule would pass a change it should stop.
 */
import { compileGlob, GlobError, isGlobPattern } from "./glob-match.ts";

/** A named region and its globs. */
export interface PolicyRegion {
	name: string;
	globs: string[];
}

/** A forbidden import boundary. */
export interface ForbidRule {
	from: string;
	to: string;
	reason?: string;
}

/** A validated policy. */
export interface ReviewPolicy {
	regions: PolicyRegion[];
	forbid: ForbidRule[];
}

const TOP_KEYS = ["regions", "forbid"];
const RULE_KEYS = ["from", "to", "reason"];

/** Parses and validates policy JSON; `source` names the file in errors. */
export function parsePolicy(text: string, source = "policy"): ReviewPolicy {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		throw new Error(`Contour ${source} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
	}
	return validatePolicy(value, source);
}

/** Validates an already parsed policy value; throws an Error naming the first problem. */
export function validatePolicy(value: unknown, source = "policy"): ReviewPolicy {
	const fail = (where: string, problem: string): never => {
		throw new Error(`Contour ${source}: ${where} ${problem}`);
	};
	if (!isRecord(value)) return fail("the policy", "must be a JSON object with a `forbid` list");
	for (const key of Object.keys(value)) {
		if (!TOP_KEYS.includes(key)) fail(`key "${key}"`, `is not known (expected ${TOP_KEYS.join(", ")})`);
	}
	const regions: PolicyRegion[] = [];
	if (value.regions !== undefined) {
		if (!isRecord(value.regions)) fail("`regions`", "must be an object of region name → glob or list of globs");
		for (const [name, globs] of Object.entries(value.regions as Record<string, unknown>)) {
			const where = `regions["${name}"]`;
			if (name.trim() === "") fail("`regions`", "has an empty region name");
			const list = typeof globs === "string" ? [globs] : globs;
			if (!Array.isArray(list) || list.length === 0) fail(where, "must be a glob or a non-empty list of globs");
			regions.push({ name, globs: (list as unknown[]).map((glob, i) => checkGlob(glob, `${where}[${i}]`, fail)) });
		}
	}
	if (value.forbid === undefined) fail("`forbid`", "is missing (use [] for a policy without forbidden imports)");
	if (!Array.isArray(value.forbid)) fail("`forbid`", "must be a list of {from, to} rules");
	const forbid = (value.forbid as unknown[]).map((rule, i): ForbidRule => {
		const where = `forbid[${i}]`;
		if (!isRecord(rule)) return fail(where, "must be an object {from, to, reason?}");
		for (const key of Object.keys(rule)) {
			if (!RULE_KEYS.includes(key)) fail(`${where}.${key}`, `is not known (expected ${RULE_KEYS.join(", ")})`);
		}
		// A side naming a region is no glob, whatever its characters.
		const side = (value: unknown, at: string) =>
			regions.some((region) => region.name === value) ? checkName(value, at, fail) : checkGlob(value, at, fail);
		const out: ForbidRule = { from: side(rule.from, `${where}.from`), to: side(rule.to, `${where}.to`) };
		if (rule.reason !== undefined) {
			if (typeof rule.reason !== "string") fail(`${where}.reason`, "must be a string");
			out.reason = rule.reason as string;
		}
		return out;
	});
	return { regions, forbid };
}

function checkName(name: unknown, where: string, fail: (where: string, problem: string) => never): string {
	if (typeof name !== "string" || name.trim() === "")
		return fail(where, "must be a non-empty string (a glob or region name)");
	return name;
}

function checkGlob(value: unknown, where: string, fail: (where: string, problem: string) => never): string {
	const glob = checkName(value, where, fail);
	if (glob.startsWith("/") || /^[A-Za-z]:/.test(glob)) fail(where, `"${glob}" must be relative to the repository root`);
	if (glob.includes("\\")) fail(where, `"${glob}" must use / as the separator`);
	if (glob.split("/").includes("..")) fail(where, `"${glob}" must not contain ".." segments`);
	if (isGlobPattern(glob)) {
		try {
			compileGlob(glob);
		} catch (error) {
			if (!(error instanceof GlobError)) throw error;
			const shown = glob.length > 120 ? `${glob.slice(0, 119)}…` : glob;
			fail(where, `"${shown}" ${error.message}`);
		}
	}
	return glob;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
