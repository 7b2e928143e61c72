/**
 * The names of the files that decide how a root's imports resolve, wherever they lie in it: the walk lists them
 * (`ScanResult.settingsFiles`), `resolve/settings.ts` reads them, and a change watch event on one of them means
 * the graph's import resolution may be stale.
 */
import { basenameOf } from "../model/index.ts";

/**
 * `tsconfig.json`/`jsconfig.json` (aliases), `package.json` (package names), `go.mod` and `Cargo.toml` (modules),
 * `pyproject.toml` (a Python project's import roots).
 */
export const SETTINGS_FILE_NAMES: ReadonlySet<string> = new Set([
	"tsconfig.json",
	"jsconfig.json",
	"package.json",
	"go.mod",
	"Cargo.toml",
	"pyproject.toml",
]);

/** Whether root-relative `path` names a settings file (by its name alone). */
export function isSettingsPath(path: string): boolean {
	return SETTINGS_FILE_NAMES.has(basenameOf(path));
}
