/**
 * The node-sized steps of a focus query after the diffusion, and the bounded selection of the best nodes. Each loop is
 * a small function of its own: V8 optimizes each whole after a few calls. Inside `focus` they ran as loops replaced on
 * the stack, and the rest of `focus` fell back to the interpreter on every call (too little type feedback), which
 * boxed every number it computed (~4 MB of garbage a query at 10,000 files). The same holds within a step: code that
 * V8 compiles while a loop runs (on-stack replacement) has no feedback for what follows the loop and is thrown away on
 * reaching it, and that code was entered again on the first query after every edit of the graph (a deopt
 * each time, seen with `--trace-deopt`). So a step with two passes is two functions, and nothing follows a loop.
 */
import type { GraphNode } from "./graph.ts";

/** One ranked node with its evidence. */
export interface RankedNode {
	id: number;
	score: number;
	/** The node's own lexical seed mass (0 for nodes reached only through the graph). */
	seed: number;
}

/** Scales `seeds` to sum to 1, in place; returns how many are positive (0 when there is no seed mass). */
export function normalizeSeeds(seeds: Float64Array): number {
	const total = sumOf(seeds);
	if (total === 0) return 0;
	let seeded = 0;
	for (let i = 0; i < seeds.length; i++) {
		const value = seeds[i] as number;
		if (value > 0) seeded++;
		seeds[i] = value / total;
	}
	return seeded;
}

function sumOf(values: Float64Array): number {
	let total = 0;
	for (let i = 0; i < values.length; i++) total += values[i] as number;
	return total;
}

/**
 * A node's score: its heat at the three timescales blended by their `weights`, over the square root of its degree.
 * The heats and weights are read through locals, not looked up per node.
 */
export function blendHeats(
	score: Float64Array,
	[h0, h1, h2]: readonly [Float64Array, Float64Array, Float64Array],
	[w0, w1, w2]: readonly [number, number, number],
	degree: Float64Array,
): void {
	for (let i = 0; i < score.length; i++) {
		const h = w0 * (h0[i] as number) + w1 * (h1[i] as number) + w2 * (h2[i] as number);
		score[i] = h / Math.sqrt(1 + (degree[i] as number));
	}
}

/**
 * A file's score: its own plus that of its hottest symbol (a maximum, not a sum, so a file does not win merely by
 * holding many symbols). `fileScore` (zeroed, one entry per file) first gathers the maxima.
 */
export function scoreFiles(
	fileScore: Float64Array,
	score: Float64Array,
	fileOf: Int32Array,
	fileCount: number,
	nodeCount: number,
): void {
	hottestSymbols(fileScore, score, fileOf, fileCount, nodeCount);
	addOwnScores(fileScore, score, fileCount);
}

function hottestSymbols(
	fileScore: Float64Array,
	score: Float64Array,
	fileOf: Int32Array,
	fileCount: number,
	nodeCount: number,
): void {
	for (let id = fileCount; id < nodeCount; id++) {
		const fileId = fileOf[id] as number;
		if (fileId >= 0 && (score[id] as number) > (fileScore[fileId] as number)) fileScore[fileId] = score[id] as number;
	}
}

function addOwnScores(fileScore: Float64Array, score: Float64Array, fileCount: number): void {
	for (let id = 0; id < fileCount; id++) fileScore[id] = (score[id] as number) + (fileScore[id] as number);
}

/**
 * Blends the files' text scores into their heat scores, in place: `share` of a file's rank is its text score relative
 * to the best (`bestText`), the rest its heat score relative to the hottest file's.
 */
export function blendTextRank(fileScore: Float64Array, text: Float64Array, bestText: number, share: number): void {
	const hottest = maxOf(fileScore);
	for (let id = 0; id < fileScore.length; id++) {
		const heat = hottest > 0 ? (fileScore[id] as number) / hottest : 0;
		fileScore[id] = (share * (text[id] as number)) / bestText + (1 - share) * heat;
	}
}

/** The largest value, or 0 when none is positive. */
function maxOf(values: Float64Array): number {
	let largest = 0;
	for (let i = 0; i < values.length; i++) if ((values[i] as number) > largest) largest = values[i] as number;
	return largest;
}

/** The paths of the files and symbols with seed mass. */
export function seededPaths(seeds: Float64Array, nodes: readonly GraphNode[]): Set<string> {
	const paths = new Set<string>();
	for (let id = 0; id < seeds.length; id++) if ((seeds[id] as number) > 0) paths.add((nodes[id] as GraphNode).path);
	return paths;
}

/**
 * The best `limit` nodes with ids in [from, to), best first; `score` is indexed by node id. A bounded min-heap keeps
 * the selection linear in the number of nodes instead of sorting every warm node.
 */
export function topK(
	score: Float64Array,
	from: number,
	to: number,
	limit: number,
	seeds: Float64Array,
	accept: (id: number) => boolean = () => true,
): RankedNode[] {
	if (limit <= 0) return [];
	const heap: number[] = [];
	const worse = (a: number, b: number) =>
		(score[a] as number) < (score[b] as number) || ((score[a] as number) === (score[b] as number) && a > b);
	for (let id = from; id < to; id++) {
		const s = score[id] as number;
		if (!(s > 1e-12)) continue;
		if (heap.length === limit && !worse(heap[0] as number, id)) continue;
		if (!accept(id)) continue;
		if (heap.length < limit) {
			heap.push(id);
			for (let i = heap.length - 1; i > 0; ) {
				const parent = (i - 1) >> 1;
				if (!worse(heap[i] as number, heap[parent] as number)) break;
				[heap[i], heap[parent]] = [heap[parent] as number, heap[i] as number];
				i = parent;
			}
		} else {
			heap[0] = id;
			for (let i = 0; ; ) {
				const left = 2 * i + 1;
				const right = left + 1;
				let least = i;
				if (left < heap.length && worse(heap[left] as number, heap[least] as number)) least = left;
				if (right < heap.length && worse(heap[right] as number, heap[least] as number)) least = right;
				if (least === i) break;
				[heap[i], heap[least]] = [heap[least] as number, heap[i] as number];
				i = least;
			}
		}
	}
	return heap
		.sort((a, b) => (score[b] as number) - (score[a] as number) || a - b)
		.map((id) => ({ id, score: score[id] as number, seed: seeds[id] as number }));
}
