/**
 * The part of a Python file's text that can hold its imports, for import reach's text prefilter (`import-reach.ts`).
 * Python imports only through `import` and `from … import` statements (Fovea's extractor reads nothing else), so a
 * file can import a module only if one of those statements names it. A module named like a common word (`ctx`,
 * `helpers`, `config`) is written all over a project's code as a variable or an attribute; matched against the
 * whole text, every such file would be parsed as a possible importer and found not to import it.
 *
 * The text kept is a superset of every import statement: from each `import` or `from` keyword (wherever it stands,
 * so a statement after `;` or `:` or in code a parser recovers from counts too) to the end of its line, continued
 * over lines that end in a backslash and, once a parenthesis opens, up to the parenthesis that closes it (a
 * parenthesized list of names spans lines). Docstrings and comments that say "import" or "from" are kept too: they
 * only cost a parse.
 */

const KEYWORD = /\b(?:import|from)\b/g;

/** The import statements of the Python source `text` (with whatever else shares their lines), one per line. */
export function pythonImportText(text: string): string {
	const parts: string[] = [];
	let covered = 0; // text before this offset is kept already
	KEYWORD.lastIndex = 0;
	for (let match = KEYWORD.exec(text); match !== null; match = KEYWORD.exec(text)) {
		const start = Math.max(match.index, covered);
		const end = statementEnd(text, match.index);
		if (end > start) parts.push(text.slice(start, end));
		covered = Math.max(covered, end);
		KEYWORD.lastIndex = Math.max(KEYWORD.lastIndex, end);
	}
	return parts.join("\n");
}

/** Where the statement whose keyword stands at `from` ends at the latest: see the module comment. */
function statementEnd(text: string, from: number): number {
	let depth = 0;
	for (let i = from; i < text.length; i++) {
		const char = text[i];
		if (char === "(") depth++;
		else if (char === ")") depth = Math.max(0, depth - 1);
		else if (char === "\n" && depth === 0 && !continued(text, i)) return i;
	}
	return text.length;
}

/** Whether the line ending at the newline at `at` ends in a backslash (a line continuation). */
function continued(text: string, at: number): boolean {
	let i = at - 1;
	if (text[i] === "\r") i--;
	return text[i] === "\\";
}
