/**
 * Which changed files a review leaves out as coverage gaps, by Fovea's own classification (`pi-fovea/engine`), so the
 * two tools agree: a minified file (`app.min.js`, or content of very long lines), generated code (a generator's
 * header comment, or a build-output directory such as `dist/`), vendored dependencies (`node_modules/`, `vendor/`,
 * `.venv/`…) and files over the size limit are gaps in both, never a review of a bundle's "cyclomatic complexity 45001".
 *
 * Path rules are kept apart from content rules: a measure is cached by blob id, and the same bytes may sit at a
 * vendored path and a source path, so only the content's verdict may live in the cached measure.
 */
import { classifyName, contentGap, skippedDirGap } from "pi-fovea/engine";

/** Why a file is not reviewed by its path, or `undefined` when it is. */
export interface ClassGap {
	reason: "minified" | "generated" | "vendored";
	detail: string;
}

/** The gap a root-relative `path` is by its name and directories, as Fovea's walk would leave it out. */
export function pathGap(path: string): ClassGap | undefined {
	const verdict = classifyName(path);
	if (verdict.kind === "gap" && verdict.gap.reason === "minified") {
		return { reason: "minified", detail: "minified by its name (Fovea skips it too)" };
	}
	for (const dir of path.split("/").slice(0, -1)) {
		const skipped = skippedDirGap(dir);
		if (skipped === "silent")
			return { reason: "vendored", detail: `under ${dir}/, a dependency directory (Fovea skips it too)` };
		if (skipped === "generated-dir") {
			return { reason: "generated", detail: `under ${dir}/, a build-output directory (Fovea skips it too)` };
		}
	}
	return undefined;
}

/** The gap `bytes` are by their content (minified or generated, as Fovea reads them), or `undefined`. */
export function contentClassGap(bytes: Uint8Array): ClassGap | undefined {
	const gap = contentGap(bytes);
	if (gap === "minified")
		return { reason: "minified", detail: "minified content: very long lines (Fovea skips it too)" };
	if (gap === "generated") {
		return { reason: "generated", detail: "generated: its header says so (Fovea skips it too)" };
	}
	return undefined;
}
