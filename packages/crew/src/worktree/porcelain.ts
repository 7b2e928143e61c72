/**
 * Parsers for Git's machine output that worktree mode reads. Pure: text in, plain data out.
 */

/** One entry of `git worktree list --porcelain -z`. */
export interface WorktreeRecord {
	path: string;
	/** The checked-out commit; null for a bare entry or an unborn branch. */
	head: string | null;
	/** The full ref (`refs/heads/…`); null when detached or bare. */
	branch: string | null;
	bare: boolean;
	detached: boolean;
	locked: boolean;
	lockReason: string;
	prunable: boolean;
	prunableReason: string;
}

/** Parses `git worktree list --porcelain -z`: attribute records, each entry ended by an empty record. */
export function parseWorktreeList(out: string): WorktreeRecord[] {
	const entries: WorktreeRecord[] = [];
	let current: WorktreeRecord | undefined;
	for (const record of out.split("\0")) {
		if (record === "") {
			if (current) entries.push(current);
			current = undefined;
			continue;
		}
		const space = record.indexOf(" ");
		const key = space === -1 ? record : record.slice(0, space);
		const value = space === -1 ? "" : record.slice(space + 1);
		if (key === "worktree") {
			if (current) entries.push(current);
			current = {
				path: value,
				head: null,
				branch: null,
				bare: false,
				detached: false,
				locked: false,
				lockReason: "",
				prunable: false,
				prunableReason: "",
			};
		} else if (current) {
			if (key === "HEAD") current.head = /^0+$/.test(value) ? null : value;
			else if (key === "branch") current.branch = value;
			else if (key === "bare") current.bare = true;
			else if (key === "detached") current.detached = true;
			else if (key === "locked") Object.assign(current, { locked: true, lockReason: value });
			else if (key === "prunable") Object.assign(current, { prunable: true, prunableReason: value });
		}
	}
	if (current) entries.push(current);
	return entries;
}

/** What `git merge-tree --write-tree -z --name-only` said. */
export interface MergeTreeOutput {
	tree: string;
	/** Paths with conflicts, each once. */
	conflicts: string[];
	/** Git's one-line messages about the merge (`CONFLICT (content): Merge conflict in f`, `Auto-merging f`). */
	messages: string[];
}

/**
 * Parses `git merge-tree --write-tree -z --name-only` output: the tree id, the conflicted paths, an empty record,
 * then informational messages, each as a path count, that many paths, a type and the message.
 */
export function parseMergeTree(out: string): MergeTreeOutput {
	const records = out.split("\0");
	const tree = records[0] ?? "";
	let i = 1;
	const conflicts: string[] = [];
	while (i < records.length && records[i] !== "") conflicts.push(records[i++] as string);
	i++;
	const messages: string[] = [];
	while (i < records.length) {
		const count = Number(records[i]);
		if (!Number.isInteger(count) || count < 0) break;
		i += 1 + count + 1;
		const message = records[i++];
		if (message !== undefined && message !== "") messages.push(message.trim());
	}
	return { tree, conflicts, messages };
}
