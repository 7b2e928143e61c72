/**
 * A focus query's seed mass per node, with a bit per node that marks where it was given any: normalizing, scaling,
 * counting and listing the seeds then read the marked nodes (found a 32-bit word at a time) instead of every node of
 * the graph, and the next query clears only those. At 100,000 files a graph has ~1M nodes and a query seeds ~100,000
 * of them: eight passes over 8 MB each query become passes over what the query seeded and a 120 KB bit set.
 *
 * Every pass visits the marked nodes in ascending id order, as a pass over the whole vector would, so sums and the
 * seeds' order (which the bounded diffusion's ties depend on) are the same to the bit.
 */
import { withHeadroom } from "./heat.ts";

/** Seed mass by node id, with the nodes given any marked; see the module comment. Reused query after query. */
export class SeedVector {
	#values = new Float64Array(0);
	#marks = new Uint32Array(0);
	#ids = new Int32Array(0);
	/** How many of `#ids` list the marks as they are, or -1 once a node was marked since they were listed. */
	#listed = -1;
	#size = 0;
	/** Nodes read by the passes so far (marked nodes each pass visits), for tests: never the graph's size a pass. */
	nodesRead = 0;

	/** A cleared vector for a graph of `n` nodes: the nodes the last query marked are zeroed, and their marks. */
	reset(n: number): Float64Array {
		if (this.#values.length < n) {
			const room = withHeadroom(n);
			this.#values = new Float64Array(room);
			this.#marks = new Uint32Array(Math.ceil(room / 32));
		} else {
			const marked = this.marked();
			zeroAt(this.#values, marked);
			this.#marks.fill(0);
		}
		this.#listed = -1;
		this.#size = n;
		return this.#values.subarray(0, n);
	}

	/** Nodes of the graph of the last `reset`. */
	get size(): number {
		return this.#size;
	}

	/** Adds `mass` to node `id`'s seed and marks it. */
	add(id: number, mass: number): void {
		this.#values[id] = (this.#values[id] as number) + mass;
		this.#mark(id);
	}

	/** Adds `mass` to the seed of each node of `ids`, marking them. */
	addEach(ids: ArrayLike<number>, mass: number): void {
		for (let k = 0; k < ids.length; k++) this.add(ids[k] as number, mass);
	}

	/** Sets node `id`'s seed to `value` and marks it. */
	set(id: number, value: number): void {
		this.#values[id] = value;
		this.#mark(id);
	}

	#mark(id: number): void {
		const word = this.#marks[id >>> 5] as number;
		const bit = 1 << (id & 31);
		if ((word & bit) !== 0) return;
		this.#marks[id >>> 5] = word | bit;
		this.#listed = -1;
	}

	/**
	 * The marked nodes in ascending order (a reused list, valid until a node is marked or `nonzero` is called). Only their seeds can be nonzero;
	 * a marked seed may be zero (given no mass).
	 */
	marked(): Int32Array {
		if (this.#listed < 0) this.#listed = listMarked(this.#marks, this.#ids);
		if (this.#listed < 0) {
			this.#ids = new Int32Array(withHeadroom(countMarked(this.#marks)));
			this.#listed = listMarked(this.#marks, this.#ids);
		}
		return this.#ids.subarray(0, this.#listed);
	}

	/** Scales the seeds to sum to 1; returns how many are positive (0 when there is no seed mass). */
	normalize(): number {
		const ids = this.marked();
		this.nodesRead += 2 * ids.length;
		const total = sumAt(this.#values, ids);
		if (total === 0) return 0;
		return divideAt(this.#values, ids, total);
	}

	/**
	 * Blends the files' text scores into their seeds: file `id` (below `text.length`) keeps `nameShare` of its seed and
	 * gains `1 - nameShare` of its share of the text (`text[id] / total`). Symbols are `scaleFrom`'s.
	 */
	addTextShare(text: Float64Array, nameShare: number, total: number): void {
		blendText(this, this.#values, text, nameShare, total);
	}

	/** Multiplies the seeds of the nodes from id `from` on by `factor`. */
	scaleFrom(from: number, factor: number): void {
		const ids = this.marked();
		this.nodesRead += ids.length;
		scaleAt(this.#values, ids, from, factor);
	}

	/** How many seeds are positive. */
	countPositive(): number {
		const ids = this.marked();
		this.nodesRead += ids.length;
		return positiveAt(this.#values, ids);
	}

	/** The nodes with a nonzero seed, ascending (a list valid until the next call of any method). */
	nonzero(): Int32Array {
		const ids = this.marked();
		this.nodesRead += ids.length;
		const length = keepNonzero(this.#values, ids);
		// The marks stay; the list of them no longer holds them all.
		if (length < ids.length) this.#listed = -1;
		return ids.subarray(0, length);
	}
}

// Each pass is a function of its own with nothing after its loop (see `ranking.ts`).

function listMarked(marks: Uint32Array, out: Int32Array): number {
	let length = 0;
	for (let w = 0; w < marks.length; w++) {
		let word = marks[w] as number;
		while (word !== 0) {
			const low = word & -word;
			if (length === out.length) return -1;
			out[length++] = (w << 5) + 31 - Math.clz32(low);
			word ^= low;
		}
	}
	return length;
}

function countMarked(marks: Uint32Array): number {
	let count = 0;
	for (let w = 0; w < marks.length; w++) {
		let word = marks[w] as number;
		while (word !== 0) {
			word &= word - 1;
			count++;
		}
	}
	return count;
}

function blendText(seeds: SeedVector, values: Float64Array, text: Float64Array, nameShare: number, total: number) {
	for (let id = 0; id < text.length; id++) {
		const blended = nameShare * (values[id] as number) + ((1 - nameShare) * (text[id] as number)) / total;
		if (blended !== 0) seeds.set(id, blended);
		else values[id] = 0;
	}
}

function zeroAt(values: Float64Array, ids: Int32Array): void {
	for (let k = 0; k < ids.length; k++) values[ids[k] as number] = 0;
}

function sumAt(values: Float64Array, ids: Int32Array): number {
	let total = 0;
	for (let k = 0; k < ids.length; k++) total += values[ids[k] as number] as number;
	return total;
}

function divideAt(values: Float64Array, ids: Int32Array, total: number): number {
	let positive = 0;
	for (let k = 0; k < ids.length; k++) {
		const id = ids[k] as number;
		const value = values[id] as number;
		if (value > 0) positive++;
		values[id] = value / total;
	}
	return positive;
}

function scaleAt(values: Float64Array, ids: Int32Array, from: number, factor: number): void {
	for (let k = 0; k < ids.length; k++) {
		const id = ids[k] as number;
		if (id >= from) values[id] = factor * (values[id] as number);
	}
}

function positiveAt(values: Float64Array, ids: Int32Array): number {
	let positive = 0;
	for (let k = 0; k < ids.length; k++) if ((values[ids[k] as number] as number) > 0) positive++;
	return positive;
}

/** Keeps the ids whose value is nonzero at the front of `ids`, in order; returns how many. */
function keepNonzero(values: Float64Array, ids: Int32Array): number {
	let length = 0;
	for (let k = 0; k < ids.length; k++) {
		const id = ids[k] as number;
		if ((values[id] as number) !== 0) ids[length++] = id;
	}
	return length;
}
