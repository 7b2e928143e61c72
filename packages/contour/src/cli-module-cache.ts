/**
 * The CLI runs its TypeScript sources directly, and Node strips their types again in every process: about half a
 * second of each `contour` run went to it, more than a review of an unchanged root takes. This keeps the stripped
 * JavaScript of each source on disk, keyed by a hash of the source bytes and the Node version, and hands it to
 * Node's loader on the next run, so a source is stripped once per version of it.
 *
 * Content-addressed, so an edited source is simply a new entry; a miss, an unreadable entry or a failed write falls
 * back to Node's own loading. The directory must be the user's own and private (mode 0700): its entries are code
 * the CLI runs. Imports only Node built-ins: it has to be in place before the rest of the CLI loads.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import type { LoadHookContext } from "node:module";
// By namespace, not by name: the bundled CLI carries this module too, and Node 20 (which this kind of machine ships,
// and which runs the bundle) has neither export, so a named import would stop the bundle from loading at all.
import * as nodeModule from "node:module";
import { join } from "node:path";

/** Bump when the form of an entry changes. */
const ENTRY_VERSION = 1;

/** Counts of one process, for tests. */
export interface ModuleCacheStats {
	hits: number;
	stripped: number;
}

/**
 * Serves the CLI's `.ts` modules from stripped copies kept in `dir` (created private if missing). Returns the
 * process's counts, or undefined when `dir` cannot be used (not a private directory of this user): then Node loads
 * every module itself, as without the cache.
 */
export function cacheStrippedModules(dir: string): ModuleCacheStats | undefined {
	const { registerHooks } = nodeModule;
	if (typeof registerHooks !== "function" || !privateDirectory(dir)) return undefined;
	const stats: ModuleCacheStats = { hits: 0, stripped: 0 };
	const salt = `${ENTRY_VERSION}\0${process.version}\0`;
	registerHooks({
		load(url: string, context: LoadHookContext, nextLoad) {
			const loaded = nextLoad(url, context);
			if (loaded.format !== "module-typescript" || loaded.source === undefined || loaded.source === null) return loaded;
			const source = typeof loaded.source === "string" ? loaded.source : new TextDecoder().decode(loaded.source);
			const entry = join(dir, `${createHash("sha256").update(salt).update(source).digest("hex")}.js`);
			let code = readEntry(entry);
			if (code === undefined) {
				code = strip(source);
				if (code === undefined) return loaded;
				writeEntry(entry, code);
				stats.stripped++;
			} else stats.hits++;
			return { format: "module", source: code, shortCircuit: true };
		},
	});
	return stats;
}

/** Whether `dir` is (now) a directory owned by this user that no one else may write. */
function privateDirectory(dir: string): boolean {
	try {
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		const info = statSync(dir);
		const owner = process.getuid?.();
		return info.isDirectory() && (owner === undefined || info.uid === owner) && (info.mode & 0o022) === 0;
	} catch {
		return false;
	}
}

function readEntry(path: string): string | undefined {
	try {
		return readFileSync(path, "utf8");
	} catch {
		return undefined;
	}
}

/** Written under a temporary name and renamed, so a concurrent run never reads half an entry. */
function writeEntry(path: string, code: string): void {
	const temporary = `${path}.${process.pid}.tmp`;
	try {
		writeFileSync(temporary, code, { mode: 0o600 });
		renameSync(temporary, path);
	} catch {
		// An unwritable cache costs the next run a strip, nothing else.
	}
}

/**
 * Node's own type stripping, as its loader does it, without the one-time notice that the function is experimental
 * (the CLI's output is its report). `undefined` when the source has syntax the stripper refuses: Node's loader then
 * reports it as it would without the cache.
 */
function strip(source: string): string | undefined {
	const emitWarning = process.emitWarning;
	process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
		const type = typeof rest[0] === "string" ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
		if (type === "ExperimentalWarning" && String(warning).includes("stripTypeScriptTypes")) return;
		(emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
	}) as typeof process.emitWarning;
	try {
		return nodeModule.stripTypeScriptTypes(source, { mode: "strip" });
	} catch {
		return undefined;
	} finally {
		process.emitWarning = emitWarning;
	}
}
