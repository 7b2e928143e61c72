/**
 * The shape every graph of the engine shares: a symmetric sparse graph in compressed-row form, and how its arrays
 * grow edit by edit. Its own module because the graph's builders (`compressed-rows.ts`, `store.ts`) and the ranking
 * that diffuses heat over it (`rank/heat.ts`, `rank/focus.ts`) both need it and neither owns it.
 */

/** A symmetric sparse graph in compressed-row form; `weights` are the raw (positive) edge weights. */
export interface SparseGraph {
	size: number;
	offsets: Int32Array;
	targets: Int32Array;
	weights: Float64Array;
}

/**
 * A view of `array`'s buffer from its start with room for `length` elements, or a new array of `capacity`
 * elements holding a copy of `array` when the buffer is too small. How arrays that grow edit by edit (rows, and the
 * per-node arrays of `rank/heat.ts` and `rank/focus.ts`) keep their buffers.
 */
export function withCapacity<T extends Int32Array | Float64Array>(array: T, length: number, capacity: number): T {
	const available = (array.buffer.byteLength - array.byteOffset) / array.BYTES_PER_ELEMENT;
	if (available >= length)
		return new (array.constructor as new (b: ArrayBufferLike, o: number, l: number) => T)(
			array.buffer,
			array.byteOffset,
			available,
		);
	const grown = new (array.constructor as new (length: number) => T)(capacity);
	grown.set(array);
	return grown;
}
