/**
 * Every file's edges in one set of columns (weights, both ends, relation codes), each file's a range of them found
 * by its file id. A buffer per file cost, beside its bytes, an `ArrayBuffer` object on V8's heap (~90 bytes) and a
 * backing-store record outside it, ~100,000 of each at 100,000 files, and the map from path to buffer; ranges in
 * shared columns cost two 32-bit numbers a file.
 *
 * An edit writes the file's new edges after the last range and leaves its old range dead; once dead entries pass
 * half of those in use, the live ranges are copied, in file order, into columns sized to them. Views handed out are
 * read before the next `set` (a graph makes each file's views as it iterates them).
 */
import type { FileEdges } from "./model.ts";

/** Columns start at this many entries, and grow by half again (at least this much) when full. */
const MIN_ENTRIES = 1024;

/** See the module comment. */
export class EdgeArena {
	#w: Float64Array;
	#a: Int32Array;
	#b: Int32Array;
	#r: Uint8Array;
	/** Entries written, live or dead. */
	#end = 0;
	/** Entries of ranges replaced since the columns were last compacted. */
	#dead = 0;
	/** Each file's first entry and entry count, by file id; a file never set has none. */
	readonly #start: Int32Array;
	readonly #count: Int32Array;
	/** Times the columns were copied to compact them or make room: a work count for tests. */
	copies = 0;

	/**
	 * Columns for `files` files with room for `expected` entries: a build that expects about what it writes neither
	 * copies the columns while it grows nor leaves much room to trim.
	 */
	constructor(files: number, expected = MIN_ENTRIES) {
		this.#start = new Int32Array(files);
		this.#count = new Int32Array(files);
		const size = Math.max(MIN_ENTRIES, expected);
		this.#w = new Float64Array(size);
		this.#a = new Int32Array(size);
		this.#b = new Int32Array(size);
		this.#r = new Uint8Array(size);
	}

	/** Entries held in the columns (live and dead) and the room they have. */
	get entries(): { live: number; dead: number; capacity: number } {
		return { live: this.#end - this.#dead, dead: this.#dead, capacity: this.#w.length };
	}

	/** Keeps `edges` as file `file`'s, in place of any it had. */
	set(file: number, edges: Omit<FileEdges, "anchors">): void {
		const n = edges.a.length;
		this.#dead += this.#count[file] as number;
		this.#count[file] = 0;
		if (this.#dead > MIN_ENTRIES && this.#dead > (this.#end - this.#dead) / 2) this.#compact(n);
		else if (this.#end + n > this.#w.length) this.#grow(this.#end + n);
		const at = this.#end;
		this.#w.set(edges.w, at);
		this.#a.set(edges.a, at);
		this.#b.set(edges.b, at);
		this.#r.set(edges.r, at);
		this.#start[file] = at;
		this.#count[file] = n;
		this.#end = at + n;
	}

	/** File `file`'s edges, as views of the columns. */
	get(file: number): Omit<FileEdges, "anchors"> {
		const from = this.#start[file] as number;
		const to = from + (this.#count[file] as number);
		return {
			w: this.#w.subarray(from, to),
			a: this.#a.subarray(from, to),
			b: this.#b.subarray(from, to),
			r: this.#r.subarray(from, to),
		};
	}

	/**
	 * Columns holding just their live entries when more than an eighth of them is room or dead (the build's last
	 * step: no room is kept for edits not made, and a close estimate is not copied for a few entries).
	 */
	trim(): void {
		const live = this.#end - this.#dead;
		if (this.#w.length - live > live >> 3) this.#compact(0, 0);
	}

	/** Copies the live ranges in file order into columns with room for `extra` more entries and `spare` besides. */
	#compact(extra: number, spare = Math.max(MIN_ENTRIES, (this.#end - this.#dead + extra) >> 3)): void {
		const live = this.#end - this.#dead;
		const size = live + extra + spare;
		const w = new Float64Array(size);
		const a = new Int32Array(size);
		const b = new Int32Array(size);
		const r = new Uint8Array(size);
		let at = 0;
		for (let file = 0; file < this.#start.length; file++) {
			const n = this.#count[file] as number;
			if (n === 0) continue;
			const from = this.#start[file] as number;
			w.set(this.#w.subarray(from, from + n), at);
			a.set(this.#a.subarray(from, from + n), at);
			b.set(this.#b.subarray(from, from + n), at);
			r.set(this.#r.subarray(from, from + n), at);
			this.#start[file] = at;
			at += n;
		}
		this.#w = w;
		this.#a = a;
		this.#b = b;
		this.#r = r;
		this.#end = at;
		this.#dead = 0;
		this.copies++;
	}

	/** Columns with room for `needed` entries, the entries kept in place (dead ones too). */
	#grow(needed: number): void {
		const size = Math.max(needed, this.#w.length + Math.max(MIN_ENTRIES, this.#w.length >> 1));
		const w = new Float64Array(size);
		const a = new Int32Array(size);
		const b = new Int32Array(size);
		const r = new Uint8Array(size);
		w.set(this.#w.subarray(0, this.#end));
		a.set(this.#a.subarray(0, this.#end));
		b.set(this.#b.subarray(0, this.#end));
		r.set(this.#r.subarray(0, this.#end));
		this.#w = w;
		this.#a = a;
		this.#b = b;
		this.#r = r;
		this.copies++;
	}
}
