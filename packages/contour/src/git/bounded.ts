/**
 * Maps `items` through `fn` with at most `limit` calls in flight, keeping the order of results: enough parallel
 * file reads to hide latency without opening thousands of descriptors at once.
 */
export async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
	const results = new Array<R>(items.length);
	let next = 0;
	const worker = async () => {
		while (next < items.length) {
			const at = next++;
			results[at] = await fn(items[at] as T);
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
	return results;
}
