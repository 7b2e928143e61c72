/**
 * The `--version` answer of the `fovea`, `contour` and `crew` command-line tools: `<command> <version>`, the version
 * read from the package's own `package.json`. Every CLI answers it the same way, from its sources or its bundle (both
 * sit one folder below the package, so `../package.json` is the same file).
 */
import { readFileSync } from "node:fs";

/** `<command> <version>` from the `package.json` at `manifest`; a manifest without a version string is an error. */
export function versionText(command: string, manifest: URL): string {
	const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version?: unknown };
	if (typeof version !== "string" || version === "") throw new Error(`${manifest.pathname} names no version`);
	return `${command} ${version}`;
}
