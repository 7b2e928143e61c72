/**
 * A review cache on disk, for processes that live for one review (the CLI): the reports of the latest analyses of
 * each root, and the measures and imports of content seen there, so a second run on an unchanged root answers from
 * its report without parsing, and a run after a one-file edit parses only that file's new side.
 *
 * Layout under the cache directory (`contourCacheDir()`), one directory per root named by a hash of its path:
 * `<root-hash>/reports/<analysis key>.json` (the newest `REPORTS_ON_DISK` kept), written atomically
 * (pi-fovea's `writeAtomic`) so a reader never sees half a file, and `<root-hash>/measures.log`: a header line, then one
 * entry per line, `<key>\t<JSON>`, oldest first. A run appends only the entries it added (rewriting the whole
 * file cost a one-file review more than its parse), and the log is compacted to the `MEASURES_ON_DISK` most recently
 * used entries, atomically, once it holds twice as many lines. Anything unreadable, torn or of another version is a
 * miss, never an error. Nothing is written inside the reviewed root.
 */
import { createHash } from "node:crypto";
import { appendFile, mkdir, readdir, readFile, realpath, stat, unlink } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { writeAtomic as writeFileAtomic } from "pi-fovea/atomic-write";
import { isInside } from "pi-fovea/cache-location";
import { freezeReport, type ReportDraft, type ReviewReport } from "../report/report.ts";
import { contourCacheDir } from "./cache-dir.ts";
import type { MeasureCache } from "./measure-cache.ts";

/** Reports kept on disk per root. */
export const REPORTS_ON_DISK = 8;
/** Measure and import entries kept on disk per root. */
export const MEASURES_ON_DISK = 4096;
const FORMAT = 1;
/** The first line of a measures log of the current form. */
const MEASURES_HEADER = "contour measures 2";
const MEASURES_FILE = "measures.log";

export { contourCacheDir } from "./cache-dir.ts";

/** Reports and measures of reviewed roots, on disk. */
export class DiskCache {
	readonly dir: string;
	/** Lines in each root's measures log as this process last saw it; absent when there is no valid log. */
	readonly #logLines = new Map<string, number>();

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

	/** The kept reports of `root`, newest first; a damaged or foreign file among them is left out, as `loadReport` would. */
	async listReports(root: string): Promise<ReviewReport[]> {
		const names = await readdir(join(this.#rootDir(root), "reports")).catch(() => [] as string[]);
		const keys = names.flatMap((name) => (/^[0-9a-f]{64}\.json$/.test(name) ? [name.slice(0, -".json".length)] : []));
		const reports = await Promise.all(keys.map((key) => this.loadReport(root, key)));
		return reports
			.filter((report): report is ReviewReport => report !== undefined)
			.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
	}

	/**
	 * Keeps `report`, dropping the root's oldest reports beyond `REPORTS_ON_DISK`. Nothing is kept for a root that
	 * holds the cache directory itself (a home directory under Git): a review never writes inside its root.
	 */
	async saveReport(report: ReviewReport): Promise<void> {
		if (await this.#insideRoot(report.root)) return;
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
		const text = await readFile(join(this.#rootDir(root), MEASURES_FILE), "utf8").catch(() => undefined);
		if (text === undefined) return 0;
		const lines = text.split("\n");
		if (lines[0] !== MEASURES_HEADER) return 0;
		this.#logLines.set(root, lines.length - 1);
		const entries: [string, string][] = [];
		for (let i = 1; i < lines.length; i++) {
			const line = lines[i] as string;
			const tab = line.indexOf("\t");
			// A torn last line (a writer that died mid-append) has no end: its JSON fails when used, or it has no tab.
			if (tab > 0) entries.push([line.slice(0, tab), line.slice(tab + 1)]);
		}
		return cache.restore(entries);
	}

	/**
	 * Appends the entries `cache` added since it was loaded or last saved; compacts the log to the most recently
	 * used `MEASURES_ON_DISK` entries when it would hold twice as many lines, or starts it when there is none.
	 */
	async saveMeasures(root: string, cache: MeasureCache): Promise<void> {
		const added = cache.takeAdded();
		if (added.length === 0 || (await this.#insideRoot(root))) return;
		const path = join(this.#rootDir(root), MEASURES_FILE);
		const lines = this.#logLines.get(root);
		if (lines !== undefined && lines + added.length <= 2 * MEASURES_ON_DISK) {
			await appendFile(path, entryLines(added), { mode: 0o600 });
			this.#logLines.set(root, lines + added.length);
			return;
		}
		const kept = cache.export(MEASURES_ON_DISK).reverse();
		await writeAtomic(path, `${MEASURES_HEADER}\n${entryLines(kept)}`);
		this.#logLines.set(root, kept.length);
	}

	/** Whether this cache's directory lies inside `root` (canonical), as written or through links. */
	async #insideRoot(root: string): Promise<boolean> {
		if (isInside(root, resolve(this.dir))) return true;
		const real = await realpath(this.dir).catch(() => undefined);
		return real !== undefined && isInside(root, real);
	}

	#rootDir(root: string): string {
		return join(this.dir, createHash("sha256").update(root).digest("hex").slice(0, 24));
	}
}

/** Entries as log lines, each ending in a newline. */
function entryLines(entries: readonly (readonly [string, string])[]): string {
	let text = "";
	for (const [key, json] of entries) text += `${key}\t${json}\n`;
	return text;
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

/**
 * Writes a whole file under a temporary name and renames it into place, making its directory first: Fovea's atomic
 * write, since both are caches with the same needs (private to the user, no fsync: a lost file is recomputed).
 */
async function writeAtomic(path: string, text: string): Promise<void> {
	await mkdir(dirname(path), { recursive: true });
	await writeFileAtomic(path, text);
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
