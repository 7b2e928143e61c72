// The same-folder baseline: what a developer guesses without any tool, the files next to the one changed. Pure.

/** The directory segments of a root-relative path. */
const dirSegments = (path: string) => path.split("/").slice(0, -1);

/** Lowercased name words of a path's file name without its extension (`test_app.py` → test, app). */
function nameWords(path: string): Set<string> {
	const name = path.slice(path.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "");
	return new Set(
		name
			.replace(/([a-z0-9])([A-Z])/g, "$1 $2")
			.toLowerCase()
			.split(/[^a-z0-9]+/)
			.filter((w) => w !== ""),
	);
}

/** Steps through the directory tree from `a`'s directory to `b`'s (0: same folder, 1: parent or child…). */
export function folderDistance(a: string, b: string): number {
	const da = dirSegments(a);
	const db = dirSegments(b);
	let common = 0;
	while (common < da.length && common < db.length && da[common] === db[common]) common++;
	return da.length - common + (db.length - common);
}

/**
 * `files` other than `file`, nearest folder first; within a distance, files sharing more name words with `file`
 * first (`app.py` → `test_app.py`), then by path.
 */
export function sameFolderRanking(files: Iterable<string>, file: string): string[] {
	const words = nameWords(file);
	const shared = (path: string) => [...nameWords(path)].filter((w) => words.has(w)).length;
	const scored: { path: string; distance: number; shared: number }[] = [];
	for (const path of files) {
		if (path !== file) scored.push({ path, distance: folderDistance(file, path), shared: shared(path) });
	}
	scored.sort(
		(a, b) => a.distance - b.distance || b.shared - a.shared || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
	);
	return scored.map((s) => s.path);
}
