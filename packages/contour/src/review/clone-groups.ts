/**
 * Clone pairs gathered into groups: N look-alike callables (a test table grown by N similar cases, a function copied
 * three times) are one finding naming every member, not one finding per member or per pair. Members are linked by
 * the new clone pairs clone search found (union–find); a group's anchor is the first changed callable that found a
 * clone, so the finding points at the change.
 */
import type { CallableMeasure } from "./callables.ts";
import type { CloneMatch } from "./clones.ts";
import type { Located } from "./deltas.ts";

/** One group of look-alike callables, as `cloneGroupFinding` reports it. */
export interface CloneGroup {
	/** The anchor first (a changed callable), then the others in the order they were found. */
	members: Located[];
	/** Every link between members is an exact clone. */
	exact: boolean;
	/** The lowest similarity of the links that joined the group (1 for exact clones). */
	similarity: number;
	/** The anchor before the change, when it existed, and how alike it was then to the partner it first matched. */
	previous?: Located;
	was?: number;
}

interface Node {
	located: Located;
	parent: string;
	order: number;
}

interface Root {
	exact: boolean;
	similarity: number;
	previous?: Located;
	was?: number;
}

/** Union–find over callables (keyed by file and key), with each group's kind and lowest similarity at its root. */
export class CloneGroups {
	readonly #nodes = new Map<string, Node>();
	readonly #roots = new Map<string, Root>();

	/** Joins `target` and the match's callable into one group. */
	link(
		target: Located,
		match: CloneMatch<CallableMeasure>,
		previous: Located | undefined,
		was: number | undefined,
	): void {
		const a = this.#find(this.#add(target));
		const b = this.#find(this.#add(match.other));
		const exact = match.kind === "exact";
		const rootA = this.#root(a, previous, was);
		if (a === b) {
			rootA.exact &&= exact;
			rootA.similarity = Math.min(rootA.similarity, match.similarity);
			return;
		}
		const rootB = this.#roots.get(b);
		// The root is the member found first, so the anchor stays the first changed callable (the first ever linked).
		const [keep, drop] = (this.#nodes.get(a) as Node).order <= (this.#nodes.get(b) as Node).order ? [a, b] : [b, a];
		const merged: Root = {
			...(keep === a ? rootA : (rootB ?? rootA)),
			exact: rootA.exact && exact && (rootB?.exact ?? true),
			similarity: Math.min(rootA.similarity, match.similarity, rootB?.similarity ?? 1),
		};
		(this.#nodes.get(drop) as Node).parent = keep;
		this.#roots.delete(drop);
		this.#roots.set(keep, merged);
	}

	/** The groups, in the order their anchors were found. */
	list(): CloneGroup[] {
		const members = new Map<string, Located[]>();
		for (const [id, node] of this.#nodes) {
			const root = this.#find(id);
			const list = members.get(root);
			if (list === undefined) members.set(root, [node.located]);
			else list.push(node.located);
		}
		const out: CloneGroup[] = [];
		for (const [root, list] of members) {
			const info = this.#roots.get(root) as Root;
			const anchor = (this.#nodes.get(root) as Node).located;
			const group: CloneGroup = {
				members: [anchor, ...list.filter((member) => member !== anchor)],
				exact: info.exact,
				similarity: info.similarity,
			};
			if (info.previous !== undefined) group.previous = info.previous;
			if (info.was !== undefined) group.was = info.was;
			out.push(group);
		}
		return out;
	}

	#add(located: Located): string {
		const id = `${located.file}\0${located.callable.key}`;
		if (!this.#nodes.has(id)) this.#nodes.set(id, { located, parent: id, order: this.#nodes.size });
		return id;
	}

	#find(id: string): string {
		let at = id;
		for (;;) {
			const node = this.#nodes.get(at) as Node;
			if (node.parent === at) return at;
			const parent = this.#nodes.get(node.parent) as Node;
			node.parent = parent.parent;
			at = node.parent;
		}
	}

	/** The root's group info, created for a callable not linked before with what its first link says. */
	#root(id: string, previous: Located | undefined, was: number | undefined): Root {
		let root = this.#roots.get(id);
		if (root === undefined) {
			root = { exact: true, similarity: 1 };
			if (previous !== undefined) root.previous = previous;
			if (was !== undefined) root.was = was;
			this.#roots.set(id, root);
		}
		return root;
	}
}
