/**
 * Findings: what a review tells the user, each with source witnesses on both sides, the measured value before and
 * after, and a concrete question for the author. `exposure` is the modelled reach of the changed code through the
 * project graph (Fovea's heat): how far a mistake here could travel. It is exposure, not severity — a finding in
 * widely imported code is not thereby wrong, only more worth a look. The review engine leaves it unset; the
 * integrator fills it from heat. `policy` marks a violation of an explicit policy (CLI exit code 1); every other
 * finding is advisory.
 */

import type { CallableMeasure, NeedlessHit } from "./callables.ts";
import type { CloneGroup } from "./clone-groups.ts";
import type { CallablePair, Located } from "./deltas.ts";
import type { ImportEdge, NewCycle } from "./import-cycles.ts";
import type { NeedlessRule } from "./needless-code.ts";
import type { RegionCrossing, Violation } from "./regions.ts";

/** What a finding is about; also its rank order, policy violations first. */
export type FindingKind =
	| "forbidden-import"
	| "import-cycle"
	| "complexity"
	| "exact-clone"
	| "near-clone"
	| "region-crossing"
	| NeedlessRule;

/** A source location that shows the finding, on the side of the change it belongs to. */
export interface Witness {
	file: string;
	line: number;
	side: "before" | "after";
}

/** A measured value at a place: cyclomatic complexity, similarity (0–1), cycle length, import or hit count. */
export interface MeasuredValue {
	file: string;
	/** The line of the measured thing; absent for a count in a file where there was none (nothing to point at). */
	line?: number;
	value: number;
}

/** Modelled exposure from heat: how far the changed code reaches (not a severity). */
export interface Exposure {
	/** Modelled reach of the changed code (heat mass beyond the file), larger is further. */
	reach: number;
	/** The files it reaches most, most exposed first. */
	files: string[];
}

/** One review finding; `file` and `line` are where to look first (the after side when there is one). */
export interface Finding {
	kind: FindingKind;
	file: string;
	line: number;
	title: string;
	/** The measured value before the change, when the measured thing existed then. */
	before?: MeasuredValue;
	after: MeasuredValue;
	witnesses: Witness[];
	/** A concrete question for the author, naming the code and the numbers. */
	question: string;
	exposure?: Exposure;
	/** True for a violation of an explicit policy. */
	policy?: boolean;
	/** True when the finding is about test code only (test files, test tables): it ranks after production code. */
	tests?: boolean;
}

/** A finding with its keys in the documented order, so JSON output reads the same for every kind. */
function finding(parts: Finding): Finding {
	const { kind, file, line, title, before, after, witnesses, question, exposure, policy, tests } = parts;
	return {
		kind,
		file,
		line,
		title,
		...(before === undefined ? {} : { before }),
		after,
		witnesses,
		question,
		...(exposure === undefined ? {} : { exposure }),
		...(policy === undefined ? {} : { policy }),
		...(tests === undefined ? {} : { tests }),
	};
}

const KIND_ORDER: readonly FindingKind[] = [
	"forbidden-import",
	"import-cycle",
	"complexity",
	"exact-clone",
	"near-clone",
	"region-crossing",
	"catch-rethrow",
	"boolean-return",
];

/**
 * Findings in rank order: policy violations, then production code before test code, then by kind (above), wider
 * exposure first, then file and line.
 */
export function rankFindings(findings: readonly Finding[]): Finding[] {
	return [...findings].sort(
		(a, b) =>
			Number(b.policy === true) - Number(a.policy === true) ||
			Number(a.tests === true) - Number(b.tests === true) ||
			KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
			(b.exposure?.reach ?? 0) - (a.exposure?.reach ?? 0) ||
			a.file.localeCompare(b.file) ||
			a.line - b.line,
	);
}

/** `` `A.parse` `` — how findings name a callable. */
function named(callable: CallableMeasure): string {
	return `\`${callable.container === undefined ? callable.name : `${callable.container}.${callable.name}`}\``;
}

function at(located: Located, side: "before" | "after"): Witness {
	return { file: located.file, line: located.callable.line, side };
}

/** A callable whose cyclomatic complexity rose (or a new one that starts complex). */
export function complexityFinding(pair: CallablePair & { after: Located }): Finding {
	const after = pair.after;
	const name = named(after.callable);
	const value = after.callable.cyclomatic;
	const afterValue = { file: after.file, line: after.callable.line, value };
	if (pair.before === undefined) {
		return finding({
			kind: "complexity",
			file: after.file,
			line: after.callable.line,
			title: `New ${name} has cyclomatic complexity ${value}`,
			after: afterValue,
			witnesses: [at(after, "after")],
			question: `Can the new ${name} (complexity ${value}) be split so each branch is testable alone?`,
		});
	}
	const old = pair.before.callable.cyclomatic;
	return finding({
		kind: "complexity",
		file: after.file,
		line: after.callable.line,
		title: `${name} cyclomatic complexity ${old} → ${value}`,
		before: { file: pair.before.file, line: pair.before.callable.line, value: old },
		after: afterValue,
		witnesses: [at(pair.before, "before"), at(after, "after")],
		question: `Can ${name} (complexity ${old} → ${value}) be split so each branch is testable alone?`,
	});
}

/** A group of look-alike callables, one finding naming every member; `tests` when all of them are test code. */
export function cloneGroupFinding(group: CloneGroup & { tests: boolean }): Finding {
	const [anchor, ...others] = group.members as [Located, ...Located[]];
	const name = named(anchor.callable);
	const place = (member: Located) => `${named(member.callable)} (${member.file}:${member.callable.line})`;
	const listed = others.slice(0, MAX_NAMED_MEMBERS).map(place);
	if (others.length > MAX_NAMED_MEMBERS) listed.push(`${others.length - MAX_NAMED_MEMBERS} more`);
	const list = listed.length > 1 ? `${listed.slice(0, -1).join(", ")} and ${listed.at(-1)}` : (listed[0] ?? "");
	const percent = Math.round(group.similarity * 100);
	const count = group.members.length;
	const where = group.tests ? "In tests: " : "";
	const witnesses: Witness[] = group.previous === undefined ? [] : [at(group.previous, "before")];
	witnesses.push(...group.members.map((member) => at(member, "after")));
	const alike = group.exact ? "duplicates" : `is ${count > 2 ? "at least " : ""}${percent}% alike`;
	const question = group.tests
		? `These ${count} test callables repeat one shape: could a table of cases or a shared helper replace the copies?`
		: group.exact
			? `Should ${name} reuse ${listed[0]}${count > 2 ? ` (and the ${count - 2} other copies)` : ""} instead of repeating its ${anchor.callable.tokens} tokens?`
			: `${name} and ${list} are ${percent}% alike or more: is the difference intended, or can they share one implementation?`;
	const out: Finding = {
		kind: group.exact ? "exact-clone" : "near-clone",
		file: anchor.file,
		line: anchor.callable.line,
		title: `${where}${name} ${alike} ${list}${count > 2 ? ` (${count} look-alike callables)` : ""}`,
		after: { file: anchor.file, line: anchor.callable.line, value: round(group.similarity) },
		witnesses,
		question,
	};
	if (group.previous !== undefined) {
		out.before = { file: group.previous.file, line: group.previous.callable.line, value: round(group.was ?? 0) };
	}
	if (group.tests) out.tests = true;
	return finding(out);
}

/** Members a clone finding's title names before it counts the rest (its witnesses list them all). */
const MAX_NAMED_MEMBERS = 8;

function round(value: number): number {
	return Math.round(value * 100) / 100;
}

function edgeWitness(edge: ImportEdge): Witness {
	return { file: edge.from, line: edge.line, side: "after" };
}

/** A new import cycle, witnessed edge by edge. */
export function cycleFinding(cycle: NewCycle): Finding {
	const first = cycle.loop[0] as ImportEdge;
	const chain = [...cycle.loop.map((edge) => edge.from), first.from].join(" → ");
	const extra = cycle.files.length > cycle.loop.length ? ` (${cycle.files.length} files in the cycle)` : "";
	return {
		kind: "import-cycle",
		file: first.from,
		line: first.line,
		title: `New import cycle: ${chain}${extra}`,
		after: { file: first.from, line: first.line, value: cycle.files.length },
		witnesses: cycle.loop.map(edgeWitness),
		question: `Which import in ${chain} can be removed or inverted so these modules no longer depend on each other in a circle?`,
	};
}

/** New imports that make one region depend on another. */
export function crossingFinding(crossing: RegionCrossing): Finding {
	const first = crossing.edges[0] as ImportEdge;
	const pair = `\`${crossing.fromRegion}\` → \`${crossing.toRegion}\``;
	return {
		kind: "region-crossing",
		file: first.from,
		line: first.line,
		title: `New dependency ${pair}: ${first.from} imports ${first.to}${crossing.edges.length > 1 ? ` (+${crossing.edges.length - 1})` : ""}`,
		after: { file: first.from, line: first.line, value: crossing.edges.length },
		witnesses: crossing.edges.map(edgeWitness),
		question: `Should region \`${crossing.fromRegion}\` depend on \`${crossing.toRegion}\` directly (${first.from} → ${first.to}), or through an interface it already uses?`,
	};
}

/** A new import that a policy rule forbids. */
export function violationFinding({ edge, rule }: Violation): Finding {
	const because = rule.reason === undefined ? "" : ` (${rule.reason})`;
	return {
		kind: "forbidden-import",
		file: edge.from,
		line: edge.line,
		title: `Forbidden import: ${edge.from} → ${edge.to} breaks \`${rule.from}\` ↛ \`${rule.to}\`${because}`,
		after: { file: edge.from, line: edge.line, value: 1 },
		witnesses: [edgeWitness(edge)],
		question: `The policy forbids \`${rule.from}\` importing \`${rule.to}\`${because}: can ${edge.from} reach ${edge.to} through an allowed layer instead?`,
		policy: true,
	};
}

/** A new needless-code hit, with the file's count of that rule before and after. */
export function needlessFinding(
	file: string,
	hit: NeedlessHit,
	counts: { before?: MeasuredValue; after: number },
): Finding {
	const where = hit.callable === undefined ? "" : ` in \`${hit.callable}\``;
	const catchRethrow = hit.rule === "catch-rethrow";
	const out: Finding = {
		kind: hit.rule,
		file,
		line: hit.line,
		title: catchRethrow ? `Catch only rethrows${where}` : `Boolean literal returned from a condition${where}`,
		after: { file, line: hit.line, value: counts.after },
		// The hit is new, so it has no counterpart to witness on the before side; the count says what was there.
		witnesses: [{ file, line: hit.line, side: "after" }],
		question: catchRethrow
			? `\`${clip(hit.text)}\`${where} rethrows the error unchanged: remove the try/catch, or handle the error here?`
			: `Can \`${clip(hit.text)}\`${where} return the condition itself (negated or converted to a boolean if needed)?`,
	};
	if (counts.before !== undefined) out.before = counts.before;
	return finding(out);
}

function clip(text: string): string {
	return text.length <= 80 ? text : `${text.slice(0, 79)}…`;
}
