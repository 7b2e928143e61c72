/**
 * Module import graphs of the two sides of a change, the imports the change adds, and the import cycles it creates.
 *
 * A cycle is a strongly connected component (SCC) of two or more files. An SCC of the after graph is new when no
 * SCC of the before graph contains all of its files — a cycle that merely persists, or shrinks, is not reported; one
 * that appears, grows or merges with another is. It is reported only when it touches a changed file, with one
 * concrete loop through an import the change added, each edge witnessed by the importing file and line.
 */

/** Resolved imports of one side: importing file → imported file → line of the import in the importing file. */
export type ImportEdges = ReadonlyMap<string, ReadonlyMap<string, number>>;

/** One import edge with its witness line in `from`. */
export interface ImportEdge {
	from: string;
	to: string;
	line: number;
}

/** A new cycle: its files (sorted) and one loop through a new import, as edges in order. */
export interface NewCycle {
	files: string[];
	loop: ImportEdge[];
}

/** Whether `edges` has an import from `from` to `to`. */
export function hasEdge(edges: ImportEdges, from: string, to: string): boolean {
	return edges.get(from)?.has(to) === true;
}

/** The edges of `after` that `before` does not have (a moved import line is not new), in file order. */
export function newImportEdges(before: ImportEdges, after: ImportEdges): ImportEdge[] {
	const out: ImportEdge[] = [];
	for (const from of [...after.keys()].sort()) {
		const targets = after.get(from) as ReadonlyMap<string, number>;
		for (const [to, line] of [...targets].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))) {
			if (to !== from && !hasEdge(before, from, to)) out.push({ from, to, line });
		}
	}
	return out;
}

/** Strongly connected components with two or more files (Tarjan's algorithm, iterative), each sorted. */
export function importCycles(edges: ImportEdges): string[][] {
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const onStack = new Set<string>();
	const stack: string[] = [];
	const components: string[][] = [];
	let counter = 0;
	const targetsOf = (file: string): string[] => [...(edges.get(file)?.keys() ?? [])];
	for (const start of edges.keys()) {
		if (index.has(start)) continue;
		const work: Array<{ file: string; targets: string[]; next: number }> = [];
		const enter = (file: string): void => {
			index.set(file, counter);
			low.set(file, counter);
			counter++;
			stack.push(file);
			onStack.add(file);
			work.push({ file, targets: targetsOf(file), next: 0 });
		};
		enter(start);
		while (work.length > 0) {
			const frame = work[work.length - 1] as (typeof work)[number];
			if (frame.next < frame.targets.length) {
				const target = frame.targets[frame.next++] as string;
				if (!index.has(target)) enter(target);
				else if (onStack.has(target)) {
					low.set(frame.file, Math.min(low.get(frame.file) as number, index.get(target) as number));
				}
				continue;
			}
			work.pop();
			const parent = work[work.length - 1];
			if (parent !== undefined) {
				low.set(parent.file, Math.min(low.get(parent.file) as number, low.get(frame.file) as number));
			}
			if (low.get(frame.file) === index.get(frame.file)) {
				const component: string[] = [];
				let file: string;
				do {
					file = stack.pop() as string;
					onStack.delete(file);
					component.push(file);
				} while (file !== frame.file);
				if (component.length > 1) components.push(component.sort());
			}
		}
	}
	return components;
}

/** Cycles of `after` that `before` did not have and that touch one of `changed`. */
export function newImportCycles(before: ImportEdges, after: ImportEdges, changed: ReadonlySet<string>): NewCycle[] {
	const old = importCycles(before).map((component) => new Set(component));
	const out: NewCycle[] = [];
	for (const files of importCycles(after)) {
		if (!files.some((file) => changed.has(file))) continue;
		if (old.some((component) => files.every((file) => component.has(file)))) continue;
		const loop = loopThroughNewEdge(files, before, after);
		if (loop !== undefined) out.push({ files, loop });
	}
	return out.sort((a, b) => (a.files[0] as string).localeCompare(b.files[0] as string));
}

/**
 * Cycles of `before` that `after` broke, touching one of `changed` (after paths; `before` under after paths too):
 * no cycle of `after` holds all of their files any more. A cycle that shrank is broken in part and listed whole.
 */
export function brokenImportCycles(before: ImportEdges, after: ImportEdges, changed: ReadonlySet<string>): string[][] {
	const now = importCycles(after).map((component) => new Set(component));
	return importCycles(before)
		.filter((files) => files.some((file) => changed.has(file)))
		.filter((files) => !now.some((component) => files.every((file) => component.has(file))))
		.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

/** The shortest loop inside `files` that starts with a new edge (the first in file order). */
function loopThroughNewEdge(files: string[], before: ImportEdges, after: ImportEdges): ImportEdge[] | undefined {
	const members = new Set(files);
	for (const from of files) {
		const targets = after.get(from);
		if (targets === undefined) continue;
		for (const [to, line] of [...targets].sort((a, b) => a[1] - b[1])) {
			if (!members.has(to) || hasEdge(before, from, to)) continue;
			const back = shortestPath(to, from, members, after);
			if (back !== undefined) return [{ from, to, line }, ...back];
		}
	}
	return undefined;
}

/** Breadth-first path of edges from `start` to `goal` within `members`. */
function shortestPath(start: string, goal: string, members: Set<string>, edges: ImportEdges): ImportEdge[] | undefined {
	const via = new Map<string, ImportEdge>();
	const queue = [start];
	const seen = new Set([start]);
	for (let head = 0; head < queue.length; head++) {
		const file = queue[head] as string;
		if (file === goal) break;
		for (const [to, line] of edges.get(file) ?? []) {
			if (!members.has(to) || seen.has(to)) continue;
			seen.add(to);
			via.set(to, { from: file, to, line });
			queue.push(to);
		}
	}
	if (start !== goal && !via.has(goal)) return undefined;
	const path: ImportEdge[] = [];
	for (let file = goal; file !== start; ) {
		const edge = via.get(file) as ImportEdge;
		path.unshift(edge);
		file = edge.from;
	}
	return path;
}
