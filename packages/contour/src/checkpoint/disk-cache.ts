/**
 * A review cache on disk, for processes that live for one review (the CLI): the reports of the latest analyses of
 * each root, and the measures and imports of content seen there, so a second run on an unchanged root answers from
 * its report without parsing, and a run after a one-file edit parses only that file's new side.
 *
 * Layout under the cache directory (`contourCacheDir()`), one directory per root named by a hash of its path:
 * `<root-hash>/reports/<analysis key>.json` (the newest `REPORTS_ON_DISK` kept) and `<root-hash>/measures.json`
 * (the `MEASURES_ON_DISK` most recently used entries). Files are written atomically (`write-file-atomic`), so a reader never
 * sees half a file; anything unreadable or of another version is a miss, never an error. Nothing is
 * written inside the reviewed root.
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, stat, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { freezeReport, type ReportDraft, type ReviewReport } from "../report/report.ts";
import { contourCacheDir } from "./cache-dir.ts";
import type { MeasureCache } from "./measure-cache.ts";

/** Reports kept on disk per root. */
export const REPORTS_ON_DISK = 8;
/** Measure and import entries kept on disk per root. */
export const MEASURES_ON_DISK = 4096;
const FORMAT = 1;

export { contourCacheDir } from "./cache-dir.ts";

/** Reports and measures of reviewed roots, on disk. */
export class DiskCache {
	readonly dir: string;

	constructor(dir: string = contourCacheDir()) {
		this.dir = dir;
	}

	/** The kept report of `root` with analysis `key`, frozen, or undefined. */
	async loadReport(root: string, key: string): Promise<ReviewReport | undefined> {
		if (!/^[0-9a-f]{64}$/.test(key)) return undefined;
		const data = await readJson(join(this.#rootDir(root), "reports", `${key}.json`));
		if (!isRecord(data) || data.format !== FORMAT || !isRecord(data.report)) return undefined;
		const report = data.report as unknown as ReportDraft;
		if (report.key !== key || report.root !== root || !Array.isArray(report.findings) || !Array.isArray(report.files))
			return undefined;
		return freezeReport(report);
	}

	/** Keeps `report`, dropping the root's oldest reports beyond `REPORTS_ON_DISK`. */
	async saveReport(report: ReviewReport): Promise<void> {
		const dir = join(this.#rootDir(report.root), "reports");
		await writeAtomic(join(dir, `${report.key}.json`), JSON.stringify({ format: FORMAT, report }));
		const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith(".json"));
		if (names.length <= REPORTS_ON_DISK) return;
		const dated = await Promise.all(
			names.map(async (name) => ({ name, time: (await stat(join(dir, name)).catch(() => undefined))?.mtimeMs ?? 0 })),
		);
		dated.sort((a, b) => b.time - a.time);
		await Promise.all(dated.slice(REPORTS_ON_DISK).map(({ name }) => unlink(join(dir, name)).catch(() => {})));
	}

	/** Adds the root's kept measures and imports to `cache`; returns how many. */
	async loadMeasures(root: string, cache: MeasureCache): Promise<number> {
		const data = await readJson(join(this.#rootDir(root), "measures.json"));
		if (!isRecord(data) || data.format !== FORMAT || !Array.isArray(data.entries)) return 0;
		const entries = data.entries.filter(
			(entry): entry is [string, unknown] => Array.isArray(entry) && entry.length === 2 && typeof entry[0] === "string",
		);
		return cache.restore(entries);
	}

	/** Keeps the most recently used entries of `cache` for `root`. */
	async saveMeasures(root: string, cache: MeasureCache): Promise<void> {
		const entries = cache.export(MEASURES_ON_DISK);
		await writeAtomic(join(this.#rootDir(root), "measures.json"), JSON.stringify({ format: FORMAT, entries }));
	}

	#rootDir(root: string): string {
		return join(this.dir, createHash("sha256").update(root).digest("hex").slice(0, 24));
	}
}

async function readJson(path: string): Promise<unknown> {
	const text = await readFile(path, "utf8").catch(() => undefined);
	if (text === undefined) return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** Writes a whole file under a temporary name and renames it into place, making its directory first. */
async function writeAtomic(path: string, text: string): Promise<void> {
	await mkdir(dirname(path), { recursive: true });
	await writeFileAtomic(path, text, { mode: 0o600 });
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
