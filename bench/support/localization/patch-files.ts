// The gold files of an issue instance from its fix: the files a unified diff (`git diff` form) changes that already
// exist before it. Pure: reads only the patch text.

/**
 * The pre-image paths of the files `patch` modifies, deletes or renames away from, in order of appearance, without
 * duplicates: a file the patch creates (`new file mode`, or `--- /dev/null`) cannot be found in the tree the
 * instance starts from, so it is no gold file. Quoted paths (Git's C-style quoting of unusual names) are unquoted.
 */
export function patchGoldFiles(patch: string): string[] {
	const gold: string[] = [];
	const sections = patch.split(/^(?=diff --git )/m).filter((s) => s.startsWith("diff --git "));
	for (const section of sections) {
		const lines = section.split("\n");
		let created = false;
		let before: string | undefined;
		for (const line of lines.slice(1)) {
			if (line.startsWith("@@")) break;
			if (line.startsWith("new file mode")) created = true;
			else if (line.startsWith("--- ")) {
				const target = line.slice(4).replace(/\t.*$/, "");
				if (target === "/dev/null") created = true;
				else before = stripPrefix(unquote(target), "a/");
			} else if (line.startsWith("rename from ")) before = unquote(line.slice("rename from ".length));
		}
		// A pure rename or mode change has no `---` line: the header names the path.
		before ??= headerPath(lines[0] as string);
		if (!created && before !== undefined && !gold.includes(before)) gold.push(before);
	}
	return gold;
}

/** The `a/` path of a `diff --git a/X b/Y` header, when X and Y are unquoted and separable. */
function headerPath(header: string): string | undefined {
	const rest = header.slice("diff --git ".length);
	if (rest.startsWith('"')) {
		const end = rest.indexOf('" ', 1);
		return end < 0 ? undefined : stripPrefix(unquote(rest.slice(0, end + 1)), "a/");
	}
	const match = /^a\/(.+?) b\/(.+)$/.exec(rest);
	return match === null ? undefined : match[1];
}

function stripPrefix(path: string, prefix: string): string {
	return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** Git's C-style quoted path (`"a/caf\303\251.py"`) as text; an unquoted path unchanged. */
function unquote(path: string): string {
	if (!(path.startsWith('"') && path.endsWith('"') && path.length >= 2)) return path;
	const bytes: number[] = [];
	const body = path.slice(1, -1);
	const escapes: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, "\\": 92, a: 7, b: 8, f: 12, v: 11 };
	for (let i = 0; i < body.length; i++) {
		const c = body[i] as string;
		if (c !== "\\") {
			for (const b of Buffer.from(c, "utf8")) bytes.push(b);
			continue;
		}
		const next = body[i + 1] ?? "";
		if (/[0-7]/.test(next)) {
			bytes.push(Number.parseInt(body.slice(i + 1, i + 4), 8));
			i += 3;
		} else {
			bytes.push(escapes[next] ?? next.charCodeAt(0));
			i += 1;
		}
	}
	return Buffer.from(bytes).toString("utf8");
}
