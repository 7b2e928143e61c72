/**
 * The structural story of a change, what a reviewer reads first: per callable, complexity up *and* down with both
 * values, callables added, removed and renamed, how many only moved, and the import cycles the change made or broke;
 * production code apart from test code (`review/test-code.ts`), so a grown test table never hides a rewritten
 * router. Derived from a report's deltas and import changes, so a kept report tells it without the engine.
 */
import type { CallableSide } from "../review/index.ts";
import { isTestCallable } from "../review/test-code.ts";
import type { ReviewReport } from "./report.ts";

/** Entries a story list keeps at most (its count is always whole). */
export const MAX_STORY_ENTRIES = 50;

/** A callable on one side: `name` as a reviewer reads it (`Container.name`), where, and its complexity there. */
export interface StoryCallable {
	name: string;
	file: string;
	line: number;
	complexity: number;
}

/** A callable whose cyclomatic complexity changed: both values. */
export interface ComplexityChange extends StoryCallable {
	before: number;
}

/** The callable deltas of one kind of code (production or tests). */
export interface StructuralChanges {
	/** Changed callables whose complexity went up or down, the largest change first. */
	complexity: ComplexityChange[];
	complexityCount: number;
	/** Of `complexityCount`, the callables whose complexity went up (the rest went down). */
	complexityUp: number;
	added: StoryCallable[];
	addedCount: number;
	removed: StoryCallable[];
	removedCount: number;
	renamed: { from: StoryCallable; to: StoryCallable }[];
	renamedCount: number;
	/** Callables whose body changed without a change of complexity. */
	edited: number;
	/** Callables that moved: to another file, or out of their order among the file's callables. */
	moved: number;
}

/** Import cycles (their files, sorted) the change made and broke. */
export interface CycleChanges {
	added: string[][];
	broken: string[][];
}

/** The story: production changes, then test-only ones, and import cycles. */
export interface StructuralStory {
	production: StructuralChanges;
	tests: StructuralChanges;
	cycles: CycleChanges;
}

/** The story of `report`. */
export function structuralStory(report: Pick<ReviewReport, "deltas" | "imports">): StructuralStory {
	const production = emptyChanges();
	const tests = emptyChanges();
	for (const delta of report.deltas) {
		const side = delta.after ?? delta.before;
		if (side === undefined) continue;
		const changes = isTestCallable(side.file, side) ? tests : production;
		const { before, after } = delta;
		if (delta.status === "added" && after !== undefined) changes.added.push(storyCallable(after));
		else if (delta.status === "removed" && before !== undefined) changes.removed.push(storyCallable(before));
		else if (delta.status === "renamed" && before !== undefined && after !== undefined) {
			changes.renamed.push({ from: storyCallable(before), to: storyCallable(after) });
		} else if (delta.status === "moved") changes.moved++;
		else if (delta.status === "changed" && before !== undefined && after !== undefined) {
			if (before.cyclomatic === after.cyclomatic) changes.edited++;
			else changes.complexity.push({ ...storyCallable(after), before: before.cyclomatic });
		}
	}
	const cycles = report.imports?.cycles;
	return {
		production: bounded(production),
		tests: bounded(tests),
		cycles: { added: cycles?.added ?? [], broken: cycles?.broken ?? [] },
	};
}

/** Whether a part of the story has anything to say. */
export function hasChanges(changes: StructuralChanges): boolean {
	return (
		changes.complexityCount +
			changes.addedCount +
			changes.removedCount +
			changes.renamedCount +
			changes.edited +
			changes.moved >
		0
	);
}

function storyCallable(side: CallableSide): StoryCallable {
	const name = side.container === undefined ? side.name : `${side.container}.${side.name}`;
	return { name, file: side.file, line: side.line, complexity: side.cyclomatic };
}

function emptyChanges(): StructuralChanges {
	return {
		complexity: [],
		complexityCount: 0,
		complexityUp: 0,
		added: [],
		addedCount: 0,
		removed: [],
		removedCount: 0,
		renamed: [],
		renamedCount: 0,
		edited: 0,
		moved: 0,
	};
}

/** Counts whole, lists cut to `MAX_STORY_ENTRIES` (largest complexity change, then most complex, first). */
function bounded(changes: StructuralChanges): StructuralChanges {
	const swing = (c: ComplexityChange) => Math.abs(c.complexity - c.before);
	const complex = (a: StoryCallable, b: StoryCallable) => b.complexity - a.complexity;
	return {
		complexity: changes.complexity.sort((a, b) => swing(b) - swing(a)).slice(0, MAX_STORY_ENTRIES),
		complexityCount: changes.complexity.length,
		complexityUp: changes.complexity.filter((c) => c.complexity > c.before).length,
		added: changes.added.sort(complex).slice(0, MAX_STORY_ENTRIES),
		addedCount: changes.added.length,
		removed: changes.removed.sort(complex).slice(0, MAX_STORY_ENTRIES),
		removedCount: changes.removed.length,
		renamed: changes.renamed.slice(0, MAX_STORY_ENTRIES),
		renamedCount: changes.renamed.length,
		edited: changes.edited,
		moved: changes.moved,
	};
}
