/**
 * Worktree changes of one repository run one at a time within this process. The runtime prepares several tasks'
 * worktrees at once; Git's own locks would then fail some of them (index and ref locks), and two writers of
 * `info/exclude` could both append the line. Other processes still meet Git's locks, which fail cleanly.
 */
const tails = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier call for the same `key` has settled, and returns its result. */
export function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
	const previous = tails.get(key) ?? Promise.resolve();
	const next = previous.then(work, work);
	const tail = next.catch(() => undefined);
	tails.set(key, tail);
	void tail.then(() => {
		if (tails.get(key) === tail) tails.delete(key);
	});
	return next;
}
