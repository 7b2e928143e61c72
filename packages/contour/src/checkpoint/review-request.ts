/**
 * The input of an explicit review as a tool or command receives it (`contour_review {root?, target?, base?,
 * maxTokens?, maxFindings?}`), validated: it crosses a boundary, so anything malformed is an Error naming the field,
 * never a review of something the caller did not ask for.
 */
import type { SnapshotTarget } from "../git/index.ts";

/** Text budget of a review answer when the caller gives none. */
export const DEFAULT_REVIEW_TOKENS = 2000;
/** Bounds of `maxTokens`. */
export const REVIEW_TOKEN_RANGE = { min: 100, max: 100_000 } as const;

/** A validated review request. `root` absent: the caller picks the default root (cwd's Git project, else the ring). */
export interface ReviewRequest {
	root?: string;
	target: SnapshotTarget;
	base?: string;
	maxTokens: number;
	maxFindings?: number;
}

const KEYS = ["root", "target", "base", "maxTokens", "maxFindings"];

/**
 * Validates a review request. `target` defaults to "staged", or to "branch" when a `base` is given; a base with
 * another target, or "branch" without a base, is an error.
 */
export function parseReviewRequest(input: unknown): ReviewRequest {
	const value = input ?? {};
	if (typeof value !== "object" || Array.isArray(value)) throw new Error("a review request must be an object");
	const fields = value as Record<string, unknown>;
	for (const key of Object.keys(fields))
		if (!KEYS.includes(key)) throw new Error(`unknown review option "${key}" (expected ${KEYS.join(", ")})`);
	const text = (name: string): string | undefined => {
		const field = fields[name];
		if (field === undefined) return undefined;
		if (typeof field !== "string" || field.trim() === "") throw new Error(`${name} must be a non-empty string`);
		return field;
	};
	const count = (name: string, min: number, max: number): number | undefined => {
		const field = fields[name];
		if (field === undefined) return undefined;
		if (typeof field !== "number" || !Number.isInteger(field) || field < min || field > max)
			throw new Error(`${name} must be an integer from ${min} to ${max}`);
		return field;
	};
	const root = text("root");
	const base = text("base");
	const target = text("target") ?? (base === undefined ? "staged" : "branch");
	if (target !== "staged" && target !== "working-tree" && target !== "branch")
		throw new Error(`target must be staged, working-tree or branch, got ${JSON.stringify(target)}`);
	if (target === "branch" && base === undefined)
		throw new Error("a branch review needs a base (a branch, tag or commit)");
	if (target !== "branch" && base !== undefined) throw new Error(`a base is only for a branch review, not ${target}`);
	const maxTokens = count("maxTokens", REVIEW_TOKEN_RANGE.min, REVIEW_TOKEN_RANGE.max) ?? DEFAULT_REVIEW_TOKENS;
	const maxFindings = count("maxFindings", 0, 10_000);
	return {
		...(root === undefined ? {} : { root }),
		target,
		...(base === undefined ? {} : { base }),
		maxTokens,
		...(maxFindings === undefined ? {} : { maxFindings }),
	};
}
