/**
 * What reviews share across calls: the content cache (measures and imports by blob id) and the report store. A
 * review whose snapshot and settings equal a kept report's is answered from that report without reading or
 * parsing anything; a review of partly new content reads and parses only the new sides.
 */
import { ReportStore, type ReportStoreOptions } from "../report/report-store.ts";
import { DEFAULT_MEASURE_CACHE_BYTES, MeasureCache } from "./measure-cache.ts";

/** Bounds of a review cache. */
export interface ReviewCacheOptions extends ReportStoreOptions {
	/** Bytes of measures and imports kept (estimated; default 64 MiB). */
	measureBytes?: number;
	/** An existing store to publish into (e.g. one the extension created before loading the review engine). */
	reports?: ReportStore;
}

/** The caches of one process (one extension instance, one CLI run). */
export class ReviewCache {
	readonly measures: MeasureCache;
	readonly reports: ReportStore;

	constructor(options: ReviewCacheOptions = {}) {
		this.measures = new MeasureCache(options.measureBytes ?? DEFAULT_MEASURE_CACHE_BYTES);
		this.reports = options.reports ?? new ReportStore(options);
	}
}
