/**
 * The node-sized steps of a focus query after the diffusion, and the bounded selection of the best nodes. Each loop is
 * a small function of its own: V8 optimizes each whole after a few calls. Inside `focus` they ran as loops replaced on
 * the stack, and the rest of `focus` fell back to the interpreter on every call (too little type feedback), which
 * boxed every number it computed (~4 MB of garbage a query at 10,000 files). The same holds within a step: code that
 * V8 compiles while a loop runs (on-stack replacement) has no feedback for what follows the loop and is thrown away on
 * reaching it, and that code was entered again on the first query after every edit of the graph (a deopt
 * each time, seen with `--trace-deopt`). So a step with two passes is two functions, and nothing follows a loop.
 */
import { degreeOf } from "./heat.ts";

/** One ranked node with its evidence. */
export interface RankedNode {
	id: number;
	score: number;
	/** The node's own lexical seed mass (0 for nodes reached only through the graph). */
	seed: number;
}

/** The sum of `values`. */
export function sumOf(values: Float64Array): number {
	let total = 0;
	for (let i = 0; i < values.length; i++) total += values[i] as number;
	return total;
}

/**
 * A node's score: its heat at the three timescales blended by their `weights`, over the square root of its degree
 * (read from its `scale`: `heat.ts`), for the `touched` nodes (the heats are by place in that list; the other nodes have no heat: their score stays as
 * it is, zero). The heats and weights are read through locals, not looked up per node.
 */
export function blendHeats(
	score: Float64Array,
	[h0, h1, h2]: readonly [Float64Array, Float64Array, Float64Array],
	[w0, w1, w2]: readonly [number, number, number],
	scale: Float64Array,
	touched: Int32Array,
): void {
	for (let k = 0; k < touched.length; k++) {
		const i = touched[k] as number;
		const h = w0 * (h0[k] as number) + w1 * (h1[k] as number) + w2 * (h2[k] as number);
		score[i] = h / Math.sqrt(1 + degreeOf(scale[i] as number));
	}
}

/**
 * A file's score: its own plus that of its hottest symbol (a maximum, not a sum, so a file does not win merely by
 * holding many symbols). `fileScore` (zeroed, one entry per file) first gathers the maxima over the `touched` nodes,
 * the only symbols with a score.
 */
export function scoreFiles(
	fileScore: Float64Array,
	score: Float64Array,
	fileOf: Int32Array,
	fileCount: number,
	touched: Int32Array,
): void {
	hottestSymbols(fileScore, score, fileOf, fileCount, touched);
	addOwnScores(fileScore, score, fileCount);
}

function hottestSymbols(
	fileScore: Float64Array,
	score: Float64Array,
	fileOf: Int32Array,
	fileCount: number,
	touched: Int32Array,
): void {
	for (let k = 0; k < touched.length; k++) {
		const id = touched[k] as number;
		if (id < fileCount) continue;
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

/**
 * Adds to each named file's score `bonus` times how strongly it is named (in (0, 1]) times the best file's score, in
 * place: a named file moves up by a share of the ranking's own scale, whether or not text scores were blended in.
 */
export function addNamedBonus(fileScore: Float64Array, named: ReadonlyMap<number, number>, bonus: number): void {
	const best = maxOf(fileScore);
	const unit = best > 0 ? best : 1;
	for (const [id, strength] of named) {
		if (id < fileScore.length) fileScore[id] = (fileScore[id] as number) + bonus * strength * unit;
	}
}

/** The largest value, or 0 when none is positive. */
function maxOf(values: Float64Array): number {
	let largest = 0;
	for (let i = 0; i < values.length; i++) if ((values[i] as number) > largest) largest = values[i] as number;
	return largest;
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
	selectBest(heap, score, from, to, limit, accept);
	return rankedBest(heap, score, seeds);
}

/** The ids of `heap` as ranked nodes, best first (ties by lower id). */
function rankedBest(heap: number[], score: Float64Array, seeds: Float64Array): RankedNode[] {
	return heap
		.sort((a, b) => (score[b] as number) - (score[a] as number) || a - b)
		.map((id) => ({ id, score: score[id] as number, seed: seeds[id] as number }));
}

/**
 * Fills `heap` (a min-heap by `worse`) with the best `limit` accepted ids of [from, to). Its own function, with the
 * heap's steps in functions of their own, and no closure of its own: as part of `topK` the loop only ever ran as code
 * replaced on the stack, entered anew on every call after a stretch in the interpreter, which boxed each score it
 * read (~1 MB of garbage a query at 10,000 files, most of a warm query's allocation).
 */
function selectBest(
	heap: number[],
	score: Float64Array,
	from: number,
	to: number,
	limit: number,
	accept: (id: number) => boolean,
): void {
	for (let id = from; id < to; id++) offer(heap, score, id, limit, accept);
}

/** Puts `id` in the heap if it scores above zero, is accepted and beats the heap's worst once the heap is full. */
function offer(heap: number[], score: Float64Array, id: number, limit: number, accept: (id: number) => boolean): void {
	if (!((score[id] as number) > 1e-12)) return;
	if (heap.length === limit && !worse(score, heap[0] as number, id)) return;
	if (!accept(id)) return;
	if (heap.length < limit) siftUp(heap, score, id);
	else siftDown(heap, score, id);
}

/**
 * What `topK` picks in [from, to) when `score` is zero there outside `listed` (each id once) and `extra` (ids whose
 * score was set after the listing, any of them possibly listed too): it reads those ids alone. A focus's symbol
 * scores are set only at the nodes its diffusion reached and at the routes it promotes, a region of at most the
 * heat budget in a graph of ~1M nodes at 100,000 files, so it need not pass over every node. `stats.read` counts the
 * ids read.
 */
export function topKAmong(
	score: Float64Array,
	listed: Int32Array,
	extra: readonly number[],
	from: number,
	to: number,
	limit: number,
	seeds: Float64Array,
	accept: (id: number) => boolean = () => true,
	stats?: { read: number },
): RankedNode[] {
	if (limit <= 0) return [];
	const heap: number[] = [];
	selectListed(heap, score, listed, from, to, limit, accept);
	selectExtra(heap, score, extra, from, to, limit, accept);
	if (stats) stats.read += listed.length + extra.length;
	return rankedBest(heap, score, seeds);
}

function selectListed(
	heap: number[],
	score: Float64Array,
	listed: Int32Array,
	from: number,
	to: number,
	limit: number,
	accept: (id: number) => boolean,
): void {
	for (let k = 0; k < listed.length; k++) {
		const id = listed[k] as number;
		if (id >= from && id < to) offer(heap, score, id, limit, accept);
	}
}

/**
 * Offers the `extra` ids not in the heap already. One listed before and left out stays out: its score is the same
 * and the heap's worst only rose since.
 */
function selectExtra(
	heap: number[],
	score: Float64Array,
	extra: readonly number[],
	from: number,
	to: number,
	limit: number,
	accept: (id: number) => boolean,
): void {
	for (const id of extra) if (id >= from && id < to && !heap.includes(id)) offer(heap, score, id, limit, accept);
}

/** Whether node `a` ranks below node `b`: a lower score, or the same score and a later id. */
function worse(score: Float64Array, a: number, b: number): boolean {
	const sa = score[a] as number;
	const sb = score[b] as number;
	return sa < sb || (sa === sb && a > b);
}

/** Adds `id` to a heap that is not full. */
function siftUp(heap: number[], score: Float64Array, id: number): void {
	let i = heap.length;
	heap.push(id);
	while (i > 0) {
		const parent = (i - 1) >> 1;
		const above = heap[parent] as number;
		if (!worse(score, id, above)) break;
		heap[i] = above;
		i = parent;
	}
	heap[i] = id;
}

/** Puts `id` in place of the heap's worst entry. */
function siftDown(heap: number[], score: Float64Array, id: number): void {
	let i = 0;
	for (;;) {
		const left = 2 * i + 1;
		const right = left + 1;
		let least = i;
		let leastId = id;
		if (left < heap.length && worse(score, heap[left] as number, leastId)) {
			least = left;
			leastId = heap[left] as number;
		}
		if (right < heap.length && worse(score, heap[right] as number, leastId)) {
			least = right;
			leastId = heap[right] as number;
		}
		if (least === i) break;
		heap[i] = leastId;
		i = least;
	}
	heap[i] = id;
}
