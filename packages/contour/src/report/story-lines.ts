/**
 * The structural story as text lines: a heading, then complexity up and down (`` `parse` 12 → 9 (src/p.ts:40) ``),
 * callables added, removed and renamed, what only moved or was edited without a change of complexity, and import
 * cycles made and broken. Nothing when there is nothing to tell.
 */
import type { CycleChanges, StoryCallable, StructuralChanges } from "./structural-story.ts";

/** Entries one line names before it counts the rest. */
const NAMED_PER_LINE = 10;

/** The lines of one part of the story under `heading`; none when it has nothing. */
export function storyLines(heading: string, changes: StructuralChanges, cycles: CycleChanges): string[] {
	const lines: string[] = [];
	const list = <T>(label: string, items: readonly T[], count: number, show: (item: T) => string): void => {
		if (count === 0) return;
		const named = items.slice(0, NAMED_PER_LINE).map(show);
		const more = count > named.length ? `, +${count - named.length} more` : "";
		lines.push(`  ${label} (${count}): ${named.join(", ")}${more}`);
	};
	const up = changes.complexity.filter((c) => c.complexity > c.before);
	const down = changes.complexity.filter((c) => c.complexity < c.before);
	list("complexity up", up, changes.complexityUp, (c) => `\`${c.name}\` ${c.before} → ${c.complexity} (${where(c)})`);
	list(
		"complexity down",
		down,
		changes.complexityCount - changes.complexityUp,
		(c) => `\`${c.name}\` ${c.before} → ${c.complexity} (${where(c)})`,
	);
	list("added", changes.added, changes.addedCount, (c) => `\`${c.name}\` (${where(c)}, complexity ${c.complexity})`);
	list(
		"removed",
		changes.removed,
		changes.removedCount,
		(c) => `\`${c.name}\` (${where(c)}, complexity ${c.complexity})`,
	);
	list(
		"renamed",
		changes.renamed,
		changes.renamedCount,
		(r) => `\`${r.from.name}\` → \`${r.to.name}\` (${where(r.to)})`,
	);
	const quiet = [
		...(changes.edited > 0 ? [`${changes.edited} edited without a change of complexity`] : []),
		...(changes.moved > 0 ? [`${changes.moved} moved`] : []),
	];
	if (quiet.length > 0) lines.push(`  other callables: ${quiet.join(", ")}`);
	const loops = (files: readonly string[]) => files.join(" ↔ ");
	if (cycles.added.length > 0) lines.push(`  import cycles made: ${cycles.added.map(loops).join("; ")}`);
	if (cycles.broken.length > 0) lines.push(`  import cycles broken: ${cycles.broken.map(loops).join("; ")}`);
	return lines.length === 0 ? [] : [`${heading}:`, ...lines];
}

function where(c: StoryCallable): string {
	return `${c.file}:${c.line}`;
}
