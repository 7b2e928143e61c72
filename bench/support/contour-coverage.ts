// Does our review report everything the reference reports? Each changed file, finding and directory delta of the
// reference becomes one item that needs a counterpart in our report; the ones without are listed with the reason.
//
// How the reference's notions map to ours:
// - changed file (`changed[]`)            → a `files[]` entry with that path (or that `previousPath`, for a rename);
// - complexity ("X: decision load increased", a callable with CC > 10 whose decisions rose)
//                                          → a `complexity` finding at that callable, or a callable delta in that
//                                            file with the same name (or the same lines) whose decisions rose;
// - verbosity ("RULE: additional syntax patterns": more catch-and-rethrow or `c ? true : false` in a file)
//                                          → a `catch-rethrow` / `boolean-return` finding in that file;
// - duplication (more exact-token copies of a callable body) → an `exact-clone` / `near-clone` finding that points at
//                                            one of the copies in a changed file, or at the callable enclosing it;
// - coupling (a new import between two directories) → that import (file, line and target) among our report's added
//                                            imports (`imports.added`), or a `region-crossing` / `forbidden-import`
//                                            finding witnessing it;
// - cycle (a new or grown strongly connected import region) → an `import-cycle` finding through at least two of its
//                                            files;
// - policy (a new import an explicit boundary forbids) → a `forbidden-import` finding at that import;
// - region (a directory with changed files whose function or decision totals moved) → a callable delta in that
//   directory (or, when only source lines moved, a file there whose source lines moved).
// Whole-repository totals (SLOC, functions, decisions) are set side by side with what ours implies; the
// reference's erosion and verbosity ratios have no counterpart and are listed as such, outside `coverageMet`.
import { posix } from "node:path";
import type {
	OurCallableSide,
	OurReport,
	ReferenceEvidence,
	ReferenceFinding,
	ReferenceReport,
} from "./contour-outputs.ts";

/** One thing the reference reports, and ours for it (or why there is none). */
export interface CoverageItem {
	kind: string;
	reference: string;
	counterpart?: string;
	reason?: string;
}

/** The comparison of one pair of reports. */
export interface Coverage {
	referenceItems: number;
	covered: number;
	/** Every reference item without a counterpart, spelled out. */
	missing: CoverageItem[];
	matched: CoverageItem[];
	/** Findings the reference counted but did not print (it prints at most 32). */
	referenceFindingsHidden: number;
	/** Entries our CLI left out of its JSON to fit a limit: coverage cannot be judged on what is not printed. */
	oursOmitted: number;
	aggregates: {
		reference: { sloc: number; functions: number; decisions: number };
		oursDerived: { sloc: number; functions: number; decisions: number };
		withoutCounterpart: string[];
	};
	coverageMet: boolean;
}

const VERBOSITY_RULES: Record<string, string> = {
	"catch-rethrow": "catch-rethrow",
	"boolean-conditional": "boolean-return",
};

const dir = (path: string) => (path.includes("/") ? posix.dirname(path) : "(root)");
const label = (side: OurCallableSide) => (side.container === undefined ? side.name : `${side.container}.${side.name}`);
const at = (e: { file: string; line: number }) => `${e.file}:${e.line}`;
const within = (line: number, e: ReferenceEvidence, slack = 0) =>
	line >= e.line - slack && line <= (e.endLine ?? e.line) + slack;

/** Compares one reference report with ours (same repository state). */
export function compareCoverage(reference: ReferenceReport, ours: OurReport): Coverage {
	const items: CoverageItem[] = [];
	const ourPaths = new Set(
		ours.files.flatMap((f) => (f.previousPath === undefined ? [f.path] : [f.path, f.previousPath])),
	);
	for (const path of reference.changed) {
		items.push(
			ourPaths.has(path)
				? { kind: "changed-file", reference: path, counterpart: path }
				: { kind: "changed-file", reference: path, reason: "not in files[]" },
		);
	}
	for (const finding of reference.findings) items.push(findingItem(finding, reference, ours));
	for (const region of reference.regions) items.push(regionItem(region, ours));
	const missing = items.filter((item) => item.counterpart === undefined);
	return {
		referenceItems: items.length,
		covered: items.length - missing.length,
		missing,
		matched: items.filter((item) => item.counterpart !== undefined),
		referenceFindingsHidden: Math.max(0, reference.totalFindings - reference.findings.length),
		aggregates: aggregates(reference, ours),
		oursOmitted: ours.omitted,
		coverageMet: missing.length === 0 && reference.totalFindings <= reference.findings.length && ours.omitted === 0,
	};
}

function findingItem(finding: ReferenceFinding, reference: ReferenceReport, ours: OurReport): CoverageItem {
	const first = finding.evidence[0];
	const describe = `${finding.title} @ ${first === undefined ? "?" : at(first)} (${finding.before} → ${finding.after} ${finding.unit})`;
	const item = (counterpart: string | undefined, reason: string): CoverageItem =>
		counterpart === undefined
			? { kind: finding.category, reference: describe, reason }
			: { kind: finding.category, reference: describe, counterpart };
	if (first === undefined) return item(undefined, "the reference finding has no evidence to match");
	const findingsOf = (...kinds: string[]) => ours.findings.filter((f) => kinds.includes(f.kind));
	switch (finding.category) {
		case "complexity": {
			const name = finding.title.replace(/: decision load increased$/, "");
			const asFinding = findingsOf("complexity").find((f) => f.file === first.file && within(f.line, first, 1));
			if (asFinding !== undefined) return item(`finding ${asFinding.title} @ ${at(asFinding)}`, "");
			const candidates = ours.deltas.filter((d) => d.after !== undefined && d.after.file === first.file);
			const same = candidates.find((d) => {
				const after = d.after as OurCallableSide;
				return label(after) === name || after.name === name || within(after.line, first, 1);
			});
			if (same === undefined) return item(undefined, `no callable delta named ${name} in ${first.file}`);
			const after = same.after as OurCallableSide;
			const before = same.before?.decisions ?? 0;
			const shown = `delta ${same.status} ${label(after)} @ ${at(after)} decisions ${before} → ${after.decisions}`;
			return after.decisions > before ? item(shown, "") : item(undefined, `${shown}: no rise in decisions`);
		}
		case "verbosity": {
			const rule = finding.title.replace(/: additional syntax patterns$/, "");
			const kind = VERBOSITY_RULES[rule];
			if (kind === undefined) return item(undefined, `no mapping for the reference rule ${rule}`);
			const hit = findingsOf(kind).find((f) => f.file === first.file);
			return hit === undefined
				? item(undefined, `no ${kind} finding in ${first.file}`)
				: item(`finding ${hit.kind} @ ${at(hit)}`, "");
		}
		case "duplication": {
			const changed = new Set(reference.changed);
			const copies = finding.evidence.filter((e) => changed.has(e.file));
			// Our callables do not split out a lambda passed to a call; a clone of the callable around such a copy
			// covers it too (the callable's lines, from our deltas, contain the copy's).
			const around = (w: { file: string; line: number }, e: ReferenceEvidence) =>
				ours.deltas.some(
					(d) =>
						d.after !== undefined &&
						d.after.file === w.file &&
						d.after.line === w.line &&
						d.after.line <= e.line &&
						d.after.endLine >= (e.endLine ?? e.line),
				);
			const hit = findingsOf("exact-clone", "near-clone").find((f) =>
				[f, ...f.witnesses].some((w) =>
					copies.some((e) => e.file === w.file && (within(w.line, e, 1) || around(w, e))),
				),
			);
			return hit === undefined
				? item(undefined, `no clone finding at ${copies.map(at).join(", ") || "a changed copy"}`)
				: item(`finding ${hit.kind} ${hit.title} @ ${at(hit)}`, "");
		}
		case "coupling":
		case "policy": {
			const kinds = finding.category === "policy" ? ["forbidden-import"] : ["region-crossing", "forbidden-import"];
			const hit = findingsOf(...kinds).find((f) =>
				f.witnesses.some((w) => w.file === first.file && w.line === first.line),
			);
			const target = finding.evidence[1]?.file;
			if (hit !== undefined) return item(`finding ${hit.kind} ${hit.title}`, "");
			const listed =
				finding.category === "coupling"
					? ours.imports?.added.find(
							(e) => e.file === first.file && e.line === first.line && (target === undefined || e.target === target),
						)
					: undefined;
			if (listed !== undefined) {
				const crossing = listed.crossesRegion ? "across regions" : listed.crossesDirectory ? "across directories" : "";
				return item(`added import ${at(listed)} → ${listed.target} ${crossing}`.trim(), "");
			}
			const where = finding.category === "coupling" ? `${kinds.join("/")} finding or added import` : kinds[0];
			return item(undefined, `the new import ${at(first)} → ${target ?? first.witness ?? "?"} is in no ${where}`);
		}
		case "cycle": {
			const files = new Set<string>();
			for (const e of finding.evidence) {
				files.add(e.file);
				const target = e.witness?.split(" -> ")[1];
				if (target !== undefined) files.add(target);
			}
			const hit = findingsOf("import-cycle").find(
				(f) => new Set([f.file, ...f.witnesses.map((w) => w.file)].filter((file) => files.has(file))).size >= 2,
			);
			return hit === undefined
				? item(undefined, `no import-cycle finding through two of ${[...files].join(", ")}`)
				: item(`finding ${hit.title}`, "");
		}
		default:
			return item(undefined, `no mapping for the reference category ${finding.category}`);
	}
}

function regionItem(region: ReferenceReport["regions"][number], ours: OurReport): CoverageItem {
	const { before, after } = region;
	const moved = before.functions !== after.functions || before.decisions !== after.decisions;
	const describe = `${region.region}: functions ${before.functions} → ${after.functions}, decisions ${before.decisions} → ${after.decisions}, SLOC ${before.sloc} → ${after.sloc}`;
	if (moved) {
		const deltas = ours.deltas.filter((d) => {
			const side = d.after ?? d.before;
			return side !== undefined && dir(side.file) === region.region;
		});
		return deltas.length > 0
			? { kind: "region", reference: describe, counterpart: `${deltas.length} callable deltas in ${region.region}` }
			: { kind: "region", reference: describe, reason: `no callable delta in ${region.region}` };
	}
	const files = ours.files.filter((f) => dir(f.path) === region.region);
	const sloc = files.filter((f) => f.sourceLines.before !== f.sourceLines.after);
	if (before.sloc !== after.sloc && sloc.length === 0) {
		return { kind: "region", reference: describe, reason: `no file in ${region.region} whose source lines moved` };
	}
	return files.length > 0
		? { kind: "region", reference: describe, counterpart: `${files.length} changed files in ${region.region}` }
		: { kind: "region", reference: describe, reason: `no changed file in ${region.region}` };
}

function aggregates(reference: ReferenceReport, ours: OurReport): Coverage["aggregates"] {
	let sloc = 0;
	for (const f of ours.files) sloc += (f.sourceLines.after ?? 0) - (f.sourceLines.before ?? 0);
	let functions = 0;
	let decisions = 0;
	for (const d of ours.deltas) {
		functions += (d.after === undefined ? 0 : 1) - (d.before === undefined ? 0 : 1);
		decisions += (d.after?.decisions ?? 0) - (d.before?.decisions ?? 0);
	}
	const r = reference;
	const ratio = (name: "erosion" | "verbosity") =>
		`${name} ${r.before[name].toFixed(3)} → ${r.after[name].toFixed(3)} (whole-repository ratio; ours reports none)`;
	return {
		reference: {
			sloc: r.after.sloc - r.before.sloc,
			functions: r.after.functions - r.before.functions,
			decisions: r.after.decisions - r.before.decisions,
		},
		oursDerived: { sloc, functions, decisions },
		withoutCounterpart: [ratio("erosion"), ratio("verbosity")],
	};
}
