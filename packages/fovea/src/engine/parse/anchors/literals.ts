/**
 * The string literals of a file that may name what another file names too: a header name (`x-request-id`), an event
 * name (`user:created`), a config key (`database.pool_size`), a URL path (`/api/orders/42`, which a route may
 * match), or a command-line option (`--setup-show`, which an issue may name). Each is kept once, in source order, at most `MAX_LITERALS` a file. Whether a literal links files is decided
 * over the whole root (`graph/anchor-index.ts`): only a literal few files hold is a bridge. Pure, text-level: a
 * literal is a quoted run on one line without quotes, backslashes or white space.
 */
import { isPathLiteral } from "../../model/index.ts";
import { insideRanges } from "./source-scan.ts";

/** Literals kept per file at most: a data file's thousands of strings would only cost memory. */
const MAX_LITERALS = 200;

const QUOTED = /(["'`])([^"'`\\\s]{2,100})\1/g;
/**
 * A name-like literal: starts with a letter, has a separator inside (`-`, `_`, `.` or `:`), 6–64 characters of
 * letters, digits and separators. Plain words (`name`, `error`) are too common to link anything.
 */
const NAME_LIKE = /^[A-Za-z][A-Za-z0-9]*(?:[-_.:][A-Za-z0-9]+)+$/;
/** A command-line option: `--` and words joined by `-` (`--fixtures`, `--setup-show`), 5–64 characters. */
const OPTION_LIKE = /^--[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
/** A URL path: a leading `/`, then path characters only, and a letter somewhere. */
const PATH_LIKE = /^\/[\w\-.~:{}<>[\]/%@*$]*[A-Za-z][\w\-.~:{}<>[\]/%@*$]*$/;
/** File names (a code or data file's extension) are imports' and loaders' business, not a shared name. */
const FILE_NAME = /\.(?:[cm]?[jt]sx?|py|go|rs|java|json|ya?ml|toml|md|txt|html?|css|scss|svg|png|jpe?g|gif|lock|sh)$/i;

/**
 * The anchor literals of `source` (see the module comment); `comments` gives where its comments are (as
 * `commentRanges` does), asked only once a candidate is found.
 */
export function anchorLiterals(source: string, comments: () => readonly number[] = () => []): string[] {
	const kept = new Set<string>();
	for (const match of source.matchAll(QUOTED)) {
		const text = pathOfUrl(match[2] as string);
		if (kept.has(text)) continue;
		if (isPathLiteral(text) ? !PATH_LIKE.test(text) || FILE_NAME.test(text) : !isNameLike(text) && !isOption(text))
			continue;
		if (insideRanges(comments(), match.index as number)) continue;
		kept.add(text);
		if (kept.size >= MAX_LITERALS) break;
	}
	return [...kept];
}

/**
 * The path of a URL written with its base (`http://localhost/api/x` → `/api/x`) or behind an interpolated base
 * (`{settings.API_V1_STR}/users/me`, `${base}/users/${id}` → `/users/me`, `/users/${id}`); other text as it is.
 */
function pathOfUrl(text: string): string {
	const match = /^(?:\$?\{[^}]*\}|https?:\/\/[^/]+)(\/.*)$/.exec(text);
	return match === null ? text : (match[1] as string);
}

function isOption(text: string): boolean {
	return text.length >= 5 && text.length <= 64 && OPTION_LIKE.test(text);
}

function isNameLike(text: string): boolean {
	return text.length >= 6 && text.length <= 64 && NAME_LIKE.test(text) && !FILE_NAME.test(text) && /[a-z]/i.test(text);
}
