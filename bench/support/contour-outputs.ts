// The JSON the two review CLIs print, read back into the few fields the side-by-side benchmark compares. Output from
// another process crosses a boundary: every field used is checked, and a mismatch is an Error naming the tool and the
// path of the bad field.

/** A source location the reference cites as evidence (`endLine` for callables and pattern hits). */
export interface ReferenceEvidence {
	file: string;
	line: number;
	endLine?: number;
	relation?: string;
	witness?: string;
}

/** One reference finding: complexity, verbosity, duplication, coupling, cycle or policy. */
export interface ReferenceFinding {
	category: string;
	title: string;
	evidence: ReferenceEvidence[];
	before: number;
	after: number;
	unit: string;
}

/** Structural totals of a side, for the whole repository or one directory. */
export interface ReferenceTotals {
	sloc: number;
	functions: number;
	decisions: number;
	erosion: number;
	verbosity: number;
}

/** The reference's `review --json` (pi-contour 0.4.4), the fields compared. */
export interface ReferenceReport {
	root: string;
	target: string;
	/** Supported source files whose content differs between HEAD and the target. */
	changed: string[];
	before: ReferenceTotals;
	after: ReferenceTotals;
	/** Totals of each directory holding a changed file. */
	regions: { region: string; before: ReferenceTotals; after: ReferenceTotals }[];
	/** At most `--max-findings` (≤ 32) of them; `totalFindings` counts all. */
	findings: ReferenceFinding[];
	totalFindings: number;
	gaps: number;
}

/** One side of a callable in our report. */
export interface OurCallableSide {
	file: string;
	name: string;
	container?: string;
	line: number;
	endLine: number;
	decisions: number;
	cyclomatic: number;
	sourceLines: number;
}

/** An import edge our report lists as added or removed. */
export interface OurImport {
	file: string;
	line: number;
	target: string;
	crossesDirectory: boolean;
	crossesRegion: boolean;
}

/** Our `contour review --json`, the fields compared. */
export interface OurReport {
	root: string;
	target: string;
	files: { path: string; previousPath?: string; status: string; sourceLines: { before?: number; after?: number } }[];
	deltas: { status: string; before?: OurCallableSide; after?: OurCallableSide }[];
	findings: { kind: string; file: string; line: number; title: string; witnesses: { file: string; line: number }[] }[];
	/** The import edges the change added and removed (absent from reports of versions without them). */
	imports?: { added: OurImport[]; removed: OurImport[]; addedCount: number; removedCount: number };
	gaps: number;
	/** Entries the CLI left out of its lists to fit a limit (`omitted`), all lists together. */
	omitted: number;
	/** Work counts, kept as printed (parses, blobs read, …) when the CLI reports them. */
	work?: Record<string, number>;
}

type Json = Record<string, unknown>;

class Reader {
	readonly tool: string;
	constructor(tool: string) {
		this.tool = tool;
	}
	fail(path: string, what: string): never {
		throw new Error(`${this.tool} output: ${path} ${what}`);
	}
	object(value: unknown, path: string): Json {
		if (typeof value !== "object" || value === null || Array.isArray(value)) this.fail(path, "is not an object");
		return value as Json;
	}
	array(value: unknown, path: string): unknown[] {
		if (!Array.isArray(value)) this.fail(path, "is not an array");
		return value;
	}
	string(value: unknown, path: string): string {
		if (typeof value !== "string") this.fail(path, "is not a string");
		return value;
	}
	number(value: unknown, path: string): number {
		if (typeof value !== "number" || !Number.isFinite(value)) this.fail(path, "is not a finite number");
		return value;
	}
	boolean(value: unknown, path: string): boolean {
		if (typeof value !== "boolean") this.fail(path, "is not a boolean");
		return value;
	}
	optionalNumber(value: unknown, path: string): number | undefined {
		return value === undefined || value === null ? undefined : this.number(value, path);
	}
	optionalString(value: unknown, path: string): string | undefined {
		return value === undefined || value === null ? undefined : this.string(value, path);
	}
}

function parseJson(tool: string, stdout: string): Json {
	let value: unknown;
	try {
		value = JSON.parse(stdout);
	} catch (error) {
		throw new Error(`${tool} output is not JSON (${(error as Error).message}): ${stdout.slice(0, 200)}`);
	}
	return new Reader(tool).object(value, "(top level)");
}

/** Reads the reference CLI's `review --json` output. */
export function parseReferenceReport(stdout: string): ReferenceReport {
	const r = new Reader("pi-contour 0.4.4");
	const top = parseJson(r.tool, stdout);
	const totals = (value: unknown, path: string): ReferenceTotals => {
		const t = r.object(value, path);
		return {
			sloc: r.number(t.sloc, `${path}.sloc`),
			functions: r.number(t.functions, `${path}.functions`),
			decisions: r.number(t.decisions, `${path}.decisions`),
			erosion: r.number(t.erosion, `${path}.erosion`),
			verbosity: r.number(t.verbosity, `${path}.verbosity`),
		};
	};
	const coverage = r.object(top.coverage, "coverage");
	return {
		root: r.string(top.root, "root"),
		target: r.string(top.target, "target"),
		changed: r.array(top.changed, "changed").map((p, i) => r.string(p, `changed[${i}]`)),
		before: totals(top.before, "before"),
		after: totals(top.after, "after"),
		regions: r.array(top.regions, "regions").map((value, i) => {
			const g = r.object(value, `regions[${i}]`);
			return {
				region: r.string(g.region, `regions[${i}].region`),
				before: totals(g.before, `regions[${i}].before`),
				after: totals(g.after, `regions[${i}].after`),
			};
		}),
		findings: r.array(top.findings, "findings").map((value, i) => {
			const at = `findings[${i}]`;
			const f = r.object(value, at);
			return {
				category: r.string(f.category, `${at}.category`),
				title: r.string(f.title, `${at}.title`),
				evidence: r.array(f.evidence, `${at}.evidence`).map((e, j) => {
					const ev = r.object(e, `${at}.evidence[${j}]`);
					const endLine = r.optionalNumber(ev.endLine, `${at}.evidence[${j}].endLine`);
					const relation = r.optionalString(ev.relation, `${at}.evidence[${j}].relation`);
					const witness = r.optionalString(ev.witness, `${at}.evidence[${j}].witness`);
					return {
						file: r.string(ev.file, `${at}.evidence[${j}].file`),
						line: r.number(ev.line, `${at}.evidence[${j}].line`),
						...(endLine === undefined ? {} : { endLine }),
						...(relation === undefined ? {} : { relation }),
						...(witness === undefined ? {} : { witness }),
					};
				}),
				before: r.number(f.before, `${at}.before`),
				after: r.number(f.after, `${at}.after`),
				unit: r.string(f.unit, `${at}.unit`),
			};
		}),
		totalFindings: r.number(top.totalFindings, "totalFindings"),
		gaps: r.array(coverage.before, "coverage.before").length + r.array(coverage.after, "coverage.after").length,
	};
}

/** Reads our CLI's `review --json` output. */
export function parseOurReport(stdout: string): OurReport {
	const r = new Reader("contour (ours)");
	const top = parseJson(r.tool, stdout);
	const side = (value: unknown, path: string): OurCallableSide | undefined => {
		if (value === undefined || value === null) return undefined;
		const s = r.object(value, path);
		const container = r.optionalString(s.container, `${path}.container`);
		return {
			file: r.string(s.file, `${path}.file`),
			name: r.string(s.name, `${path}.name`),
			...(container === undefined ? {} : { container }),
			line: r.number(s.line, `${path}.line`),
			endLine: r.number(s.endLine, `${path}.endLine`),
			decisions: r.number(s.decisions, `${path}.decisions`),
			cyclomatic: r.number(s.cyclomatic, `${path}.cyclomatic`),
			sourceLines: r.number(s.sourceLines, `${path}.sourceLines`),
		};
	};
	const work: Record<string, number> = {};
	if (top.work !== undefined && top.work !== null) {
		for (const [key, value] of Object.entries(r.object(top.work, "work"))) {
			if (typeof value === "number") work[key] = value;
		}
	}
	const edge = (value: unknown, path: string): OurImport => {
		const e = r.object(value, path);
		return {
			file: r.string(e.file, `${path}.file`),
			line: r.number(e.line, `${path}.line`),
			target: r.string(e.target, `${path}.target`),
			crossesDirectory: r.boolean(e.crossesDirectory, `${path}.crossesDirectory`),
			crossesRegion: r.boolean(e.crossesRegion, `${path}.crossesRegion`),
		};
	};
	let imports: OurReport["imports"];
	if (top.imports !== undefined && top.imports !== null) {
		const i = r.object(top.imports, "imports");
		imports = {
			added: r.array(i.added, "imports.added").map((e, j) => edge(e, `imports.added[${j}]`)),
			removed: r.array(i.removed, "imports.removed").map((e, j) => edge(e, `imports.removed[${j}]`)),
			addedCount: r.number(i.addedCount, "imports.addedCount"),
			removedCount: r.number(i.removedCount, "imports.removedCount"),
		};
	}
	let omitted = 0;
	if (top.omitted !== undefined && top.omitted !== null) {
		for (const [key, value] of Object.entries(r.object(top.omitted, "omitted")))
			omitted += r.number(value, `omitted.${key}`);
	}
	return {
		root: r.string(top.root, "root"),
		target: r.string(top.target, "target"),
		files: r.array(top.files, "files").map((value, i) => {
			const f = r.object(value, `files[${i}]`);
			const previousPath = r.optionalString(f.previousPath, `files[${i}].previousPath`);
			const lines = f.sourceLines === undefined ? {} : r.object(f.sourceLines, `files[${i}].sourceLines`);
			const before = r.optionalNumber(lines.before, `files[${i}].sourceLines.before`);
			const after = r.optionalNumber(lines.after, `files[${i}].sourceLines.after`);
			return {
				path: r.string(f.path, `files[${i}].path`),
				...(previousPath === undefined ? {} : { previousPath }),
				status: r.string(f.status, `files[${i}].status`),
				sourceLines: { ...(before === undefined ? {} : { before }), ...(after === undefined ? {} : { after }) },
			};
		}),
		deltas: r.array(top.deltas, "deltas").map((value, i) => {
			const d = r.object(value, `deltas[${i}]`);
			const before = side(d.before, `deltas[${i}].before`);
			const after = side(d.after, `deltas[${i}].after`);
			return {
				status: r.string(d.status, `deltas[${i}].status`),
				...(before === undefined ? {} : { before }),
				...(after === undefined ? {} : { after }),
			};
		}),
		findings: r.array(top.findings, "findings").map((value, i) => {
			const at = `findings[${i}]`;
			const f = r.object(value, at);
			return {
				kind: r.string(f.kind, `${at}.kind`),
				file: r.string(f.file, `${at}.file`),
				line: r.number(f.line, `${at}.line`),
				title: r.string(f.title, `${at}.title`),
				witnesses: r.array(f.witnesses, `${at}.witnesses`).map((w, j) => {
					const wo = r.object(w, `${at}.witnesses[${j}]`);
					return {
						file: r.string(wo.file, `${at}.witnesses[${j}].file`),
						line: r.number(wo.line, `${at}.witnesses[${j}].line`),
					};
				}),
			};
		}),
		...(imports === undefined ? {} : { imports }),
		gaps: top.gaps === undefined ? 0 : r.array(top.gaps, "gaps").length,
		omitted,
		...(Object.keys(work).length === 0 ? {} : { work }),
	};
}
