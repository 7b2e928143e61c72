/**
 * What reviews share across calls: the content cache (measures and imports by blob id), the report store and,
 * for processes that live for one review (the CLI), a cache on disk. A review whose snapshot and settings equal a
 * kept report's is answered from that report without reading or parsing anything; a review of partly new content
 * reads and parses only the new sides.
 */

import type { ReviewReport } from "../report/report.ts";
import { ReportStore, type ReportStoreOptions } from "../report/report-store.ts";
import type { DiskCache } from "./disk-cache.ts";
import { DEFAULT_MEASURE_CACHE_BYTES, MeasureCache } from "./measure-cache.ts";

/** Bounds of a review cache. */
export interface ReviewCacheOptions extends ReportStoreOptions {
	/** Bytes of measures and imports kept (estimated; default 64 MiB). */
	measureBytes?: number;
	/** An existing store to publish into (e.g. one the extension created before loading the review engine). */
	reports?: ReportStore;
	/** Also keep reports and measures on disk (for one-shot processes such as the CLI). */
	disk?: DiskCache;
}

/** The caches of one process (one extension instance, one CLI run). */
export class ReviewCache {
	readonly measures: MeasureCache;
	readonly reports: ReportStore;
	readonly disk: DiskCache | undefined;
	readonly #warmed = new Set<string>();

	constructor(options: ReviewCacheOptions = {}) {
		this.measures = new MeasureCache(options.measureBytes ?? DEFAULT_MEASURE_CACHE_BYTES);
		this.reports = options.reports ?? new ReportStore(options);
		this.disk = options.disk;
	}

	/** The kept report of `root` with analysis `key`: in memory, else on disk. */
	async findReport(root: string, key: string): Promise<ReviewReport | undefined> {
		return this.reports.find(root, key) ?? (await this.disk?.loadReport(root, key));
	}

	/** Loads the measures kept on disk for `root`, once per cache. */
	async warm(root: string): Promise<void> {
		if (this.disk === undefined || this.#warmed.has(root)) return;
		this.#warmed.add(root);
		await this.disk.loadMeasures(root, this.measures);
	}

	/**
	 * Writes `report` and the measures to disk, when there is a disk cache. A failed write (a full or read-only
	 * disk) loses only the cache, never the review, so it is not an error; returns whether everything was written.
	 */
	async persist(report: ReviewReport): Promise<boolean> {
		if (this.disk === undefined) return false;
		try {
			await Promise.all([this.disk.saveReport(report), this.disk.saveMeasures(report.root, this.measures)]);
			return true;
		} catch {
			return false;
		}
	}
}
