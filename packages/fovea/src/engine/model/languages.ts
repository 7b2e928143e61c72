/**
 * Which files the extraction engine can parse, decided by file extension alone (no content sniffing, no shebangs):
 *
 * | extension                  | language     |
 * | -------------------------- | ------------ |
 * | `.ts` `.mts` `.cts`        | `typescript` |
 * | `.tsx`                     | `tsx`        |
 * | `.js` `.jsx` `.mjs` `.cjs` | `javascript` (the JavaScript grammar parses JSX) |
 * | `.py` `.pyi` `.pyw`        | `python`     |
 * | `.go`                      | `go`         |
 * | `.rs`                      | `rust`       |
 * | `.java`                    | `java`       |
 *
 * `.d.ts` files are `typescript`. Matching is case-insensitive on the extension. Anything else is `undefined`: the
 * caller records it as an `unsupported-language` coverage gap rather than pretending it is clean.
 */
import type { LanguageId } from "./facts.ts";

/** Every language the engine parses, in a stable order. */
export const LANGUAGES: readonly LanguageId[] = ["typescript", "tsx", "javascript", "python", "go", "rust", "java"];

const BY_EXTENSION: ReadonlyMap<string, LanguageId> = new Map<string, LanguageId>([
	["ts", "typescript"],
	["mts", "typescript"],
	["cts", "typescript"],
	["tsx", "tsx"],
	["js", "javascript"],
	["jsx", "javascript"],
	["mjs", "javascript"],
	["cjs", "javascript"],
	["py", "python"],
	["pyi", "python"],
	["pyw", "python"],
	["go", "go"],
	["rs", "rust"],
	["java", "java"],
]);

/** The language of `path` by its extension, or `undefined` when the engine does not parse it. */
export function languageOf(path: string): LanguageId | undefined {
	const slash = path.lastIndexOf("/");
	const dot = path.lastIndexOf(".");
	if (dot <= slash + 1) return undefined; // no extension, or a dotfile such as `.ts`
	const ext = path.slice(dot + 1);
	return BY_EXTENSION.get(ext) ?? BY_EXTENSION.get(ext.toLowerCase());
}

/** Whether `value` names a language the engine parses (for values arriving from untyped sources). */
export function isLanguageId(value: unknown): value is LanguageId {
	return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}
