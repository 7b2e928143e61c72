/**
 * Change coupling as an edge kind of the graph: a `coupled` edge between two file nodes that changed together in the
 * root's mined history (`history/`), with how often (`count`), how much (`weight`: each commit spreads one unit over
 * the other files it changed, so a commit of two files gives 1 and one of eleven 0.1 each, as transaction-size
 * weighting does in change-coupling mining) and, per file, how many of the window's commits changed it (`commitsOf`)
 * and how recently (`recency`: its commits decayed by age, the change-history prior of focus, `rank/recency-prior.ts`).
 *
 * Why a layer of their own: every other edge belongs to the file whose facts derive it and is patched with it; these
 * belong to the history, change only when HEAD moves, and are built from the mined commits in memory, never by
 * asking Git. They carry no heat and are no dependency: focus reads them as a prior, impact as a signal beside the
 * reach, and Contour's exposure (the plain reach) never follows them. One compressed-row layer, symmetric.
 */

/**
 * The mined history the edges are built from: commits newest first, each with the root-relative files it changed and,
 * when mined, its subject.
 */
export interface CoChangeHistory {
	head: string;
	commits: readonly { readonly files: readonly string[]; readonly subject?: string }[];
}

/**
 * The window's commits as evidence by their words (`rank/commit-messages.ts`): each commit that changed a file of the
 * graph, newest first, with its subject, the file nodes it changed and how many files it changed in all.
 */
export interface CommitRows {
	/** Commit `c`'s file nodes lie in `files[offsets[c]..offsets[c + 1])`. */
	offsets: Int32Array;
	files: Int32Array;
	/** How many files commit `c` changed, in the graph or not (its evidence is spread over them). */
	sizes: Int32Array;
	/** Commit `c`'s age in the window (0 for the newest commit). */
	ages: Int32Array;
	subjects: string[];
}

/** The coupled edges of the graph's files at one mined head (see the module comment). */
export interface CoupledEdges {
	/** The mined head, and how many commits the window holds (said in evidence: `in the last 1000 commits`). */
	head: string;
	window: number;
	/** Distinct coupled pairs of file nodes (each pair once). */
	edges: number;
	/** Row `v` lies in `[offsets[v], offsets[v + 1])`: its coupled files `targets[e]`, `counts[e]`, `weights[e]`. */
	offsets: Int32Array;
	targets: Int32Array;
	counts: Int32Array;
	weights: Float64Array;
	/** Per file node, the window's commits that changed it (the `of` of its co-changes). */
	commitsOf: Int32Array;
	/**
	 * Per file node, its commits weighed by age: 2^(−age / `RECENCY_HALF_LIFE`), the newest commit aged 0, summed. A
	 * file changed by the last commit has at least 1; one changed only 100 commits ago about 0.001.
	 */
	recency: Float64Array;
	/** The commits that changed a file of the graph, with their subjects. */
	commits: CommitRows;
}

/**
 * Commits after which a change counts half in `recency`. Bug-localization work weighs a file's past modifications by
 * age (Sisman and Kak, MSR 2012); 10 commits is days to weeks of an active project's history, short enough that the
 * work in progress stands out and long enough that a file changed a few commits ago still does.
 */
export const RECENCY_HALF_LIFE = 10;

/** A file coupled with an asked one: `count` of the asked one's `of` commits changed both, `weight` by commit size. */
export interface Coupled {
	id: number;
	count: number;
	of: number;
	weight: number;
}

/**
 * The coupled edges of the files of `fileNode` (ids below `fileCount`) in `history`. A file of a commit that is not
 * in the graph (deleted since, not a source file) counts in its commit's size but gets no edge. Cost: one step per
 * pair of files of each commit, bounded by the miner's bounds (commits, files per commit).
 */
export function buildCoupledEdges(
	history: CoChangeHistory,
	fileNode: ReadonlyMap<string, number>,
	fileCount: number,
): CoupledEdges {
	const commitsOf = new Int32Array(fileCount);
	const recency = new Float64Array(fileCount);
	const slot = new Map<number, number>();
	const pairA: number[] = [];
	const pairB: number[] = [];
	const pairCount: number[] = [];
	const pairWeight: number[] = [];
	const ids: number[] = [];
	const rows = {
		offsets: [0],
		files: [] as number[],
		sizes: [] as number[],
		ages: [] as number[],
		subjects: [] as string[],
	};
	for (const [age, commit] of history.commits.entries()) {
		ids.length = 0;
		for (const file of commit.files) {
			const id = fileNode.get(file);
			if (id !== undefined && id < fileCount) ids.push(id);
		}
		if (ids.length === 0) continue;
		rows.files.push(...ids);
		rows.offsets.push(rows.files.length);
		rows.sizes.push(commit.files.length);
		rows.ages.push(age);
		rows.subjects.push(commit.subject ?? "");
		const share = 1 / Math.max(1, commit.files.length - 1);
		const aged = 2 ** (-age / RECENCY_HALF_LIFE);
		ids.sort((x, y) => x - y);
		for (let i = 0; i < ids.length; i++) {
			const a = ids[i] as number;
			commitsOf[a] = (commitsOf[a] as number) + 1;
			recency[a] = (recency[a] as number) + aged;
			for (let j = i + 1; j < ids.length; j++) {
				const b = ids[j] as number;
				if (a === b) continue;
				const key = a * fileCount + b;
				const at = slot.get(key);
				if (at === undefined) {
					slot.set(key, pairA.length);
					pairA.push(a);
					pairB.push(b);
					pairCount.push(1);
					pairWeight.push(share);
				} else {
					pairCount[at] = (pairCount[at] as number) + 1;
					pairWeight[at] = (pairWeight[at] as number) + share;
				}
			}
		}
	}
	const offsets = new Int32Array(fileCount + 1);
	for (let p = 0; p < pairA.length; p++) {
		offsets[(pairA[p] as number) + 1] = (offsets[(pairA[p] as number) + 1] as number) + 1;
		offsets[(pairB[p] as number) + 1] = (offsets[(pairB[p] as number) + 1] as number) + 1;
	}
	for (let v = 0; v < fileCount; v++) offsets[v + 1] = (offsets[v + 1] as number) + (offsets[v] as number);
	const entries = 2 * pairA.length;
	const targets = new Int32Array(entries);
	const counts = new Int32Array(entries);
	const weights = new Float64Array(entries);
	const fill = offsets.slice(0, fileCount);
	const put = (from: number, to: number, p: number) => {
		const e = fill[from] as number;
		fill[from] = e + 1;
		targets[e] = to;
		counts[e] = pairCount[p] as number;
		weights[e] = pairWeight[p] as number;
	};
	for (let p = 0; p < pairA.length; p++) {
		put(pairA[p] as number, pairB[p] as number, p);
		put(pairB[p] as number, pairA[p] as number, p);
	}
	return {
		head: history.head,
		window: history.commits.length,
		edges: pairA.length,
		offsets,
		targets,
		counts,
		weights,
		commitsOf,
		recency,
		commits: {
			offsets: Int32Array.from(rows.offsets),
			files: Int32Array.from(rows.files),
			sizes: Int32Array.from(rows.sizes),
			ages: Int32Array.from(rows.ages),
			subjects: rows.subjects,
		},
	};
}

/** The files coupled with file node `id`, by weight, then count, then id (the most surely coupled first). */
export function coupledWith(edges: CoupledEdges, id: number): Coupled[] {
	const out: Coupled[] = [];
	const of = edges.commitsOf[id] ?? 0;
	const end = edges.offsets[id + 1] ?? 0;
	for (let e = edges.offsets[id] ?? 0; e < end; e++)
		out.push({
			id: edges.targets[e] as number,
			count: edges.counts[e] as number,
			of,
			weight: edges.weights[e] as number,
		});
	return out.sort((a, b) => b.weight - a.weight || b.count - a.count || a.id - b.id);
}
