/**
 * One file's edges as they are derived: four growable columns (weights, both ends, relation codes) written in place.
 * A build derives every file's edges into one list, reused from file to file, and copies them into the graph's
 * columns (`edge-arena.ts`) before the next file: four JS arrays and a packed buffer per file were the build's
 * largest transient allocation (at 100,000 files, ~4,000,000 edges went through arrays of boxed numbers, and V8 kept
 * the pages their garbage took as resident memory). An edit's derivation, whose edges are compared and patched after
 * the next file's are derived, takes a packed copy (`packed`).
 */
import type { FileEdges } from "./model.ts";

/** Room a new list starts with; it doubles when full. */
const INITIAL_ROOM = 64;

/** See the module comment. */
export class EdgeList {
	#w = new Float64Array(INITIAL_ROOM);
	#a = new Int32Array(INITIAL_ROOM);
	#b = new Int32Array(INITIAL_ROOM);
	#r = new Uint8Array(INITIAL_ROOM);
	/** Edges written since the last `clear`. */
	length = 0;
	/** Times the columns were grown: a work count for tests (a reused list stops growing once it fits the largest file). */
	grown = 0;

	/** Forgets the edges written, keeping the room. */
	clear(): void {
		this.length = 0;
	}

	/** Appends the edge `from` → `to` of weight `weight` and relation code `code`. */
	push(from: number, to: number, weight: number, code: number): void {
		const at = this.length;
		if (at === this.#a.length) this.#grow();
		this.#w[at] = weight;
		this.#a[at] = from;
		this.#b[at] = to;
		this.#r[at] = code;
		this.length = at + 1;
	}

	/** The edges written, as views of the columns: valid until the list is written again. */
	views(): Omit<FileEdges, "anchors"> {
		const n = this.length;
		return {
			w: this.#w.subarray(0, n),
			a: this.#a.subarray(0, n),
			b: this.#b.subarray(0, n),
			r: this.#r.subarray(0, n),
		};
	}

	/**
	 * The edges written, copied into four views of one buffer of their own (weights first, for their alignment;
	 * relation bytes last): one allocation instead of four.
	 */
	packed(): Omit<FileEdges, "anchors"> {
		const n = this.length;
		const ints = n * Float64Array.BYTES_PER_ELEMENT;
		const bytes = ints + 2 * n * Int32Array.BYTES_PER_ELEMENT;
		const buffer = new ArrayBuffer(bytes + n);
		const packed = {
			w: new Float64Array(buffer, 0, n),
			a: new Int32Array(buffer, ints, n),
			b: new Int32Array(buffer, ints + n * Int32Array.BYTES_PER_ELEMENT, n),
			r: new Uint8Array(buffer, bytes, n),
		};
		packed.w.set(this.#w.subarray(0, n));
		packed.a.set(this.#a.subarray(0, n));
		packed.b.set(this.#b.subarray(0, n));
		packed.r.set(this.#r.subarray(0, n));
		return packed;
	}

	#grow(): void {
		const size = 2 * this.#a.length;
		const w = new Float64Array(size);
		const a = new Int32Array(size);
		const b = new Int32Array(size);
		const r = new Uint8Array(size);
		w.set(this.#w);
		a.set(this.#a);
		b.set(this.#b);
		r.set(this.#r);
		this.#w = w;
		this.#a = a;
		this.#b = b;
		this.#r = r;
		this.grown++;
	}
}
