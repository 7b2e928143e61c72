/**
 * The import settings a code map's graph was built with, and whether they went stale: a settings file edited, or
 * the walk finding another set of them (a package or configuration added or gone). A healthy change watch that has
 * accounted for every event and named no settings file vouches for the files the walk found, so a monorepo's
 * hundreds of manifests are not stat-checked on every query; the others (an extended configuration
 * in an ignored directory, a root default not there) are checked every time.
 */

import type { RootWatch } from "../refresh/index.ts";
import { type ResolutionSettings, readResolutionSettings, settingsChanged } from "../resolve/index.ts";
import { isSettingsPath } from "../scan/index.ts";

/** One root's import settings as last read, with what its change watch said since. */
export class ImportSettings {
	readonly root: string;
	/** Where the settings files stat-checked are counted (the code map's stats). */
	readonly #work: { settingsStatted: number };
	#read: ResolutionSettings | undefined;
	/** The watch's change count up to which its events were read as paths. */
	#watchedThrough = -1;
	/** A settings file was among the paths the watch named since the last stat check. */
	#event = true;

	constructor(root: string, work: { settingsStatted: number }) {
		this.root = root;
		this.#work = work;
	}

	/** The settings as last read, if any. */
	get current(): ResolutionSettings | undefined {
		return this.#read;
	}

	/** Reads the settings for `files`, with the settings files the last walk found. */
	async read(files: ReadonlySet<string>, settingsFiles: readonly string[]): Promise<ResolutionSettings> {
		this.#event = false;
		this.#read = await readResolutionSettings(this.root, files, settingsFiles);
		return this.#read;
	}

	/** Notes the paths a watch named up to its change count `reading`. */
	watched(paths: readonly string[], reading: number): void {
		this.#watchedThrough = reading;
		if (paths.some(isSettingsPath)) this.#event = true;
	}

	/**
	 * Whether the settings changed since they were read (stat only, no read), given the settings files the last
	 * walk found and the root's change watch.
	 */
	async stale(settingsFiles: readonly string[], watch: RootWatch | undefined): Promise<boolean> {
		const read = this.#read;
		if (read === undefined) return false;
		if (settingsFiles.join("\0") !== read.settingsFiles.join("\0")) return true;
		const vouched = watch?.healthy === true && !this.#event && this.#watchedThrough === watch.changes;
		const unchanged = new Set(vouched ? read.settingsFiles : []);
		this.#work.settingsStatted += read.files.filter((file) => !unchanged.has(file)).length;
		const changed = await settingsChanged(this.root, read, unchanged);
		this.#event = false;
		return changed;
	}

	/** Forgets the settings read (an evicted map reads them again). */
	clear(): void {
		this.#read = undefined;
	}
}
