/**
 * What a file is to the index, by name and then by metadata: supported source (to stat, then read), a coverage gap
 * (minified by name, source in a language the engine does not parse, too large), or not code at all (data, docs,
 * media, lock files), which is left out rather than reported. Shared by the full walk and the path check.
 */
import type { Stats } from "node:fs";
import type { CoverageGap, LanguageId } from "../model/index.ts";
import { languageOf } from "../model/index.ts";
import type { ScannedFile } from "./file-metadata.ts";
import { type IgnoreLevel, isIgnored } from "./ignore-rules.ts";

/**
 * Extensions of source code in languages the engine does not parse: such files are `unsupported-language` gaps so the
 * map never looks complete when it is not. Anything else unsupported (data, docs, media, lock files) is not code.
 */
const UNSUPPORTED_CODE_EXTENSIONS = new Set([
	"c",
	"h",
	"cc",
	"cpp",
	"cxx",
	"c++",
	"hpp",
	"hh",
	"hxx",
	"m",
	"mm",
	"cs",
	"fs",
	"vb",
	"rb",
	"php",
	"swift",
	"kt",
	"kts",
	"scala",
	"sc",
	"groovy",
	"clj",
	"cljs",
	"lua",
	"pl",
	"pm",
	"r",
	"jl",
	"dart",
	"ex",
	"exs",
	"erl",
	"hrl",
	"hs",
	"ml",
	"mli",
	"elm",
	"nim",
	"zig",
	"v",
	"sol",
	"vue",
	"svelte",
	"astro",
	"sh",
	"bash",
	"zsh",
	"fish",
	"ps1",
	"bat",
	"cmd",
]);

function extensionOf(name: string): string {
	const dot = name.lastIndexOf(".");
	return dot <= 0 ? "" : name.slice(dot + 1).toLowerCase();
}

/** Whether a file name says it is minified (`app.min.js`, `x.min.mjs`): such files are gaps, never read. */
export function isMinifiedName(name: string): boolean {
	return /\.min\.[^.]+$/i.test(name);
}

/** How an unsupported file is treated: an `unsupported-language` gap when it looks like code, else not listed. */
export function isUnsupportedCode(path: string): boolean {
	const name = path.slice(path.lastIndexOf("/") + 1);
	return UNSUPPORTED_CODE_EXTENSIONS.has(extensionOf(name));
}

/** A regular file's verdict once its metadata is known. */
export type FileVerdict = { kind: "file"; file: ScannedFile } | { kind: "gap"; gap: CoverageGap };

/** What a file called `rel` is before any stat: supported (needs a stat), a gap already, or not code. */
export type NameVerdict =
	| { kind: "supported"; language: LanguageId }
	| { kind: "gap"; gap: CoverageGap }
	| { kind: "not-code" };

/**
 * The coverage gap of a symbolic link called `rel` (the walk's and the path check's verdict alike), or `undefined`
 * when it is not listed: the index never follows one (it could lead out of the root, or loop), and one named like
 * code would otherwise vanish from the map unsaid. An ignored link, or one not named like code, says nothing.
 */
export function symlinkGap(rel: string, levels: readonly IgnoreLevel[]): CoverageGap | undefined {
	if (classifyName(rel).kind === "not-code" || isIgnored(levels, rel)) return undefined;
	return { path: rel, reason: "symlink" };
}

/** What the file at root-relative `rel` is by its name alone. */
export function classifyName(rel: string): NameVerdict {
	const name = rel.slice(rel.lastIndexOf("/") + 1);
	const language = languageOf(rel);
	if (language !== undefined) {
		if (isMinifiedName(name)) return { kind: "gap", gap: { path: rel, reason: "minified" } };
		return { kind: "supported", language };
	}
	if (isUnsupportedCode(rel)) return { kind: "gap", gap: { path: rel, reason: "unsupported-language" } };
	return { kind: "not-code" };
}

/** What a supported file is once its metadata is known; `undefined` when it is not a regular file. */
export function classifyStat(
	rel: string,
	language: LanguageId,
	info: Stats,
	maxFileBytes: number,
): FileVerdict | undefined {
	if (!info.isFile()) return undefined;
	if (info.size > maxFileBytes) return { kind: "gap", gap: { path: rel, reason: "too-large" } };
	return { kind: "file", file: { path: rel, language, size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs } };
}
