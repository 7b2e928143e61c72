/**
 * The parts of an issue that say nothing about where its fault is, taken out before a query's words rank files:
 * an issue template's HTML comments (`<!-- Thanks for submitting an issue! … -->`, the same in every issue of a
 * repository, and not rendered, so the reporter did not write them) and a pasted listing of installed versions
 * (`xr.show_versions()`, `pip list`, `python -m requests.help`, "System Details"). A listing's words are the names of
 * the packages installed, which the one file printing such a listing also holds (`print_versions.py`, `help.py`):
 * read as prose, it ranked that file first in four of xarray's 22 issues.
 *
 * Pure string reading. A listing is a run of lines of the shape `name: value`, `name value` or `"name": "value",`
 * (JSON's braces between them), at least {@link MIN_VERSION_LINES} of whose values are versions of three parts (`1.16.2`) or
 * `None`, and those at least a third of its lines that are not braces: a config in an issue (`max-line-length =
 * 100`, `ignore-paths = […]`) has whole numbers and names, not versions, and stays; so does a table of measures (`70.992  38.5104`).
 */

/** An HTML comment, as issue templates write their instructions. */
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
/**
 * A line naming one thing and its version: `numpy: 1.16.2`, `Numpy 1.22.3`, `"version": "3.0.4",`, `- Sphinx version:
 * 3.0.0`, `pydap: None`, `aioftp      0.13.0`, `attrs==19.3.0`, `Python 3.9.10 | packaged by conda-forge …`.
 */
const VERSION_LINE =
	/^\s*(?:[-*]\s+)?["']?[A-Za-z_][\w.+-]*(?: [A-Za-z][\w.+-]*){0,2}["']?\s*(?:==|[:=]|\s)\s*["']?(?:v?\d+\.\d+\.\w[\w.+-]*|None|null|unknown|not installed)\b/;
/** A line of a listing that is not a version: `OS: Linux`, `"name": "CPython",`, `"pyOpenSSL": {`, `----- ----`. */
const OTHER_LISTING_LINE =
	/^\s*(?:[-*]\s+)?["']?[A-Za-z_][\w.+-]*(?: [A-Za-z][\w.+-]*){0,2}["']?\s*(?:[:=]|\s{2,})\s*\S.{0,120}$|^[\s{}[\],-]*$/;
/** A line of braces, brackets and commas only, or a key opening an object (`"idna": {`): structure, not an item. */
const STRUCTURE_LINE = /^[\s{}[\],]*$|^\s*["']?[\w.+-]+["']?\s*:\s*[{[]\s*$/;
/** A run is a listing with this many version lines at least. */
const MIN_VERSION_LINES = 3;
/** … and when versions are at least this share of its lines that are not structure. */
const MIN_VERSION_SHARE = 1 / 3;

/**
 * `text` without its template comments and version listings (each line of a listing left blank, line ends as `\n`);
 * see the module comment.
 */
export function withoutBoilerplate(text: string): string {
	const lf = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
	const uncommented = lf.includes("<!--") ? lf.replace(HTML_COMMENT, " ") : lf;
	const lines = uncommented.split("\n");
	if (lines.length < MIN_VERSION_LINES) return uncommented;
	let changed = false;
	for (let start = 0; start < lines.length; ) {
		if (!isListingLine(lines[start] as string)) {
			start++;
			continue;
		}
		let end = start;
		let versions = 0;
		let items = 0;
		for (; end < lines.length && isListingLine(lines[end] as string); end++) {
			const line = lines[end] as string;
			if (STRUCTURE_LINE.test(line)) continue;
			items++;
			if (VERSION_LINE.test(line)) versions++;
		}
		if (versions >= MIN_VERSION_LINES && versions >= MIN_VERSION_SHARE * items) {
			for (let k = start; k < end; k++) lines[k] = "";
			changed = true;
		}
		start = end;
	}
	return changed ? lines.join("\n") : uncommented;
}

/** Whether `line` may belong to a listing: a version, another `name: value`, structure, or a rule of dashes. */
function isListingLine(line: string): boolean {
	return line.trim() !== "" && (VERSION_LINE.test(line) || OTHER_LISTING_LINE.test(line));
}
