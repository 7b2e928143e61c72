/**
 * The graph's nodes as slim objects that read what they show from the facts the index keeps resident (the graph
 * derives edges from those facts again on edits). A node that copied kind, name, lines, signature and container into
 * an object of its own held each symbol twice: at 100,000 generated files ~900,000 nodes of 72-80 bytes each. A
 * symbol's node is now its path and its fact (40 bytes); an edit that keeps a symbol's identity points its node at the
 * new fact, and one that removes it puts a `RemovedSymbolNode` in its place (a flag in every node would cost every
 * node a slot for the few an edit removes). A file's node is its path and line count.
 */
import { type SymbolFact, type SymbolKind, signatureOf } from "../model/index.ts";
import type { GraphNode } from "./model.ts";

/** A symbol's node: its file's path and its fact, read through (see the module comment). */
export class SymbolNode implements GraphNode {
	readonly path: string;
	/** The symbol's facts as its file's current facts hold them. */
	fact: SymbolFact;

	constructor(path: string, fact: SymbolFact) {
		this.path = path;
		this.fact = fact;
	}

	/** Whether an edit removed the symbol (see `GraphNode.removed`): a removed symbol's node is a `RemovedSymbolNode`. */
	get removed(): true | undefined {
		return undefined;
	}

	get kind(): SymbolKind {
		return this.fact.kind;
	}

	get name(): string {
		return this.fact.name;
	}

	get line(): number {
		return this.fact.line;
	}

	get endLine(): number {
		return this.fact.endLine;
	}

	/** The fact's signature, or one read back for a summary's symbol (`model/paged-signatures.ts`), if any. */
	get signature(): string | undefined {
		return signatureOf(this.fact);
	}

	get container(): string | undefined {
		return this.fact.container;
	}
}

/** The node of a symbol an edit removed: inert, kept so that ids stay stable (see `GraphNode.removed`). */
export class RemovedSymbolNode extends SymbolNode {
	override get removed(): true {
		return true;
	}
}

/** A file's node: its path and line count, the rest implied (named by its path, it starts at line 1). */
export class FileNode implements GraphNode {
	readonly path: string;
	/** The file's line count, as its current facts say. */
	endLine: number;

	constructor(path: string, lines: number) {
		this.path = path;
		this.endLine = lines;
	}

	get kind(): "file" {
		return "file";
	}

	get name(): string {
		return this.path;
	}

	get line(): number {
		return 1;
	}
}
