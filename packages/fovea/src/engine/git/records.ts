/**
 * The one NUL splitter for Git's `-z` output: records end with a NUL, and the empty tail after the last one is no
 * record. Bytes in, so paths that are not UTF-8 reach their decoder intact.
 */
export function nulRecords(out: Buffer): Buffer[] {
	const records: Buffer[] = [];
	let start = 0;
	for (let at = out.indexOf(0, start); at !== -1; at = out.indexOf(0, start)) {
		records.push(out.subarray(start, at));
		start = at + 1;
	}
	if (start < out.length) records.push(out.subarray(start));
	return records;
}

/** `nulRecords` for output already decoded as text (refs, messages, UTF-8 paths a caller only compares). */
export function nulSplit(out: string): string[] {
	const records = out.split("\0");
	if (records[records.length - 1] === "") records.pop();
	return records;
}
