/**
 * Text from a root (file paths, import specifiers, names) shown to the model or printed to a terminal, with the
 * characters that could act instead of read written out: a path may hold an escape sequence that recolours or
 * rewrites a terminal, a newline that forges a line of the report, or a bidirectional override that shows text in
 * another order than it is (the "Trojan Source" trick).
 */

/** C0 controls (tab and newline too: inside one line of text they are not layout), DEL, C1 controls, bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this module's purpose
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const EVERY_UNPRINTABLE = new RegExp(UNPRINTABLE.source, "g");

/**
 * `text` with each line made {@link printable} and the line breaks kept: for a message of several lines (Git's own
 * words, a usage), where a newline is layout, not a forged line.
 */
export function printableLines(text: string): string {
	return text.split("\n").map(printable).join("\n");
}

/** `line` with each unprintable character written as a `\uXXXX` escape; unchanged (the same string) when it has none. */
export function printable(line: string): string {
	if (!UNPRINTABLE.test(line)) return line;
	return line.replace(EVERY_UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
