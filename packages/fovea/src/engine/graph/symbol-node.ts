/**
 * A symbol's node in the graph: its file's path and the symbol's own facts, read through rather than copied. The
 * index keeps every file's facts resident (the graph derives edges from them again on edits), so a node that copied
 * kind, name, lines, signature and container into an object of its own held each symbol twice: at 100,000 generated
 * files ~900,000 nodes of 72-80 bytes each. A node is now two slots beside the fact it reads (40 bytes); an edit that
 * keeps a symbol's identity points its node at the new fact, and one that removes it puts a `RemovedSymbolNode` in its
 * place (a flag in every node would cost every node a slot for the few an edit removes).
 */
import type { SymbolFact, SymbolKind } from "../model/index.ts";
import type { GraphNode } from "./model.ts";

/** See the module comment. */
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

	get signature(): string {
		return this.fact.signature;
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
