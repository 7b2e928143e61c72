import { LineCounter, parseDocument } from "yaml";
import { DefinitionError } from "./errors.ts";

/** A Markdown file split into its YAML front matter and its body. */
export interface FrontMatter {
	data: unknown;
	body: string;
}

const FENCE = /^---\s*$/;

/**
 * Splits `text` into front matter (between a first line `---` and the next `---` line) and body, and parses the
 * YAML. Errors name `file` and the line within it; duplicate keys are errors, not last-one-wins.
 */
export function readFrontMatter(text: string, file: string): FrontMatter {
	const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
	if (!FENCE.test(lines[0] ?? "")) {
		throw new DefinitionError(file, "must start with YAML front matter: a line '---', the fields, then '---'");
	}
	const end = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
	if (end < 0) throw new DefinitionError(file, "the front matter has no closing '---' line");
	const source = lines.slice(1, end).join("\n");
	const lineCounter = new LineCounter();
	const doc = parseDocument(source, { lineCounter, uniqueKeys: true, prettyErrors: false });
	const problem = doc.errors[0];
	if (problem) {
		// The front matter starts on the file's second line.
		const line = lineCounter.linePos(problem.pos[0]).line + 1;
		throw new DefinitionError(`${file}:${line}`, `invalid YAML in the front matter: ${problem.message.split("\n")[0]}`);
	}
	return { data: doc.toJS({ maxAliasCount: 64 }), body: lines.slice(end + 1).join("\n") };
}
