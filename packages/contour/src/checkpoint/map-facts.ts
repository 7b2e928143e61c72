/**
 * The review's side of the root's code map: its refresh, with the sides' parses offered to it and the review's shared
 * parse lent to it, giving the whole project's facts and import resolution; and the sink for those offers. An error
 * of the map becomes a note in the report, never a failed review.
 */
import type { CodeMap, FileFacts, RefreshOptions } from "pi-fovea/engine";
import type { ReviewWork } from "../report/report.ts";
import type { ProjectFacts } from "./import-edges.ts";

/** The code maps of roots, one per root (`ResidentMaps` in the extension and the CLI). */
export interface CodeMaps {
	use(root: string): CodeMap;
	/**
	 * Whether the root's map would be built from nothing for this review (a fresh process: the CLI). A review then
	 * reads only the slice of the project its change reaches and builds the map only for a finding's exposure.
	 * Without it (the extension, whose maps Fovea keeps warm), the map is refreshed for every review of code.
	 */
	cold?(root: string): boolean;
	/**
	 * The most text a cold review's slice may hold before the review falls back to the whole map
	 * (`MAX_SLICE_TEXT_BYTES` unless given). Only a test sets it: reaching the real bound needs a 128 MiB repository.
	 */
	readonly maxSliceTextBytes?: number;
	/**
	 * Whether a cold review may hand the files its slice will parse to Fovea's parsing threads while its own thread
	 * measures the change (`slice-prefetch.ts`): a short process on two cores (the CLI) gains from the second core.
	 */
	readonly threads?: boolean;
}

/** The root's code map brought up to date, with its facts; an error of the map becomes a note, not a failure. */
export async function projectFacts(
	maps: CodeMaps,
	root: string,
	signal: AbortSignal | undefined,
	parses: Pick<RefreshOptions, "offers" | "sharedParse" | "onProgress">,
): Promise<{ map: CodeMap; project: ProjectFacts; finish(work: ReviewWork): void } | { error: string }> {
	try {
		const map = maps.use(root);
		const index = map.index;
		const parsedBefore = index.stats.filesParsed;
		const builtBefore = map.stats.graphsBuilt;
		// The graph waits for a finding's exposure (`withExposure`): most reviews have none to ask for.
		const { snapshot, resolution: context } = await map.refreshFacts(
			signal === undefined ? parses : { signal, ...parses },
		);
		const finish = (into: ReviewWork): void => {
			into.mapFilesParsed += map.index === index ? index.stats.filesParsed - parsedBefore : map.index.stats.filesParsed;
			into.graphsBuilt += map.stats.graphsBuilt - builtBefore;
		};
		return { map, project: { files: snapshot.files, context }, finish };
	} catch (error) {
		signal?.throwIfAborted();
		return { error: error instanceof Error ? error.message : String(error) };
	}
}

/**
 * A sink for the sides' facts into the code map of `root`, and whether that map counts content terms (facts offered
 * need them only then); none when the map cannot be had (its refresh says why).
 */
export function offerTo(
	maps: CodeMaps | undefined,
	root: string,
): { offer: (facts: FileFacts) => void; contentTerms: boolean } | undefined {
	try {
		const index = maps?.use(root).index;
		return index === undefined ? undefined : { offer: (facts) => index.offer(facts), contentTerms: index.contentTerms };
	} catch {
		return undefined;
	}
}
