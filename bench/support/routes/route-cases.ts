// The labelled cases of the route-query benchmark, derived mechanically from a tree's code and independent of the
// engine's route extractors (so the benchmark does not grade the extractors by themselves): each route declaration a
// simple per-line pattern finds is a query `METHOD path` as written, and its gold is the file defining the handler —
// the file of a named handler's definition when one is found, else the declaring file (a handler written inline, or
// a decorated or annotated function). Test code is left out: a query names the application's routes.

/** One route query and the files a right answer names first. */
export interface RouteCase {
	id: string;
	query: string;
	gold: string[];
}

/** A declaration pattern: the method (group 1), the path (group 2), and the rest of the line (group 3) if any. */
interface Declaration {
	pattern: RegExp;
	/** The method when group 1 does not name it (Flask's `route` is GET unless `methods=` says otherwise). */
	method(found: string, line: string): string;
	/** Whether the handler is the next definition (decorators, annotations) rather than a named argument. */
	decorated: boolean;
}

const DECLARATIONS: Record<string, Declaration> = {
	js: {
		pattern: /\b\w+\.(get|post|put|patch|delete)\(\s*['"`](\/[^'"`]*)['"`]\s*,(.*)$/,
		method: (m) => m.toUpperCase(),
		decorated: false,
	},
	py: {
		pattern: /^\s*@\w+\.(route|get|post|put|patch|delete)\(\s*['"]([^'"]+)['"](.*)$/,
		method: (m, line) =>
			m === "route" ? (/methods\s*=\s*\[\s*['"](\w+)/.exec(line)?.[1] ?? "GET").toUpperCase() : m.toUpperCase(),
		decorated: true,
	},
	go: {
		pattern: /\.(GET|POST|PUT|PATCH|DELETE|Get|Post|Put|Patch|Delete)\(\s*"(\/[^"]*)"\s*,(.*)$/,
		method: (m) => m.toUpperCase(),
		decorated: false,
	},
	java: {
		pattern: /@(Get|Post|Put|Patch|Delete)Mapping\(\s*(?:value\s*=\s*|path\s*=\s*)?"([^"]*)"()/,
		method: (m) => m.toUpperCase(),
		decorated: true,
	},
};

const EXTENSION: Record<string, keyof typeof DECLARATIONS> = {
	js: "js",
	mjs: "js",
	cjs: "js",
	ts: "js",
	jsx: "js",
	tsx: "js",
	py: "py",
	go: "go",
	java: "java",
};

/** Test code by path: test directories and test file names of the four languages. */
export function isTestFile(path: string): boolean {
	return (
		/(?:^|\/)(?:tests?|__tests__|spec|testdata)\//.test(path) ||
		/(?:\.test|\.spec)\.[cm]?[jt]sx?$|_test\.go$|(?:^|\/)test_[^/]*\.py$|Tests?\.java$/.test(path)
	);
}

/** Where a named handler `name` is defined in `content`, by the definition forms of the four languages. */
function defines(content: string, name: string): boolean {
	const n = name.replace(/[$]/g, "\\$");
	return new RegExp(
		`(?:function\\s+${n}\\b|\\b(?:const|let|var)\\s+${n}\\s*=|exports\\.${n}\\s*=|^\\s*${n}\\s*[:(]|def\\s+${n}\\(|func\\s+(?:\\([^)]*\\)\\s*)?${n}\\()`,
		"m",
	).test(content);
}

/** The route cases of one tree: `files` maps each indexed path to its content. */
export function routeCases(files: ReadonlyMap<string, string>): RouteCase[] {
	const byQuery = new Map<string, Set<string>>();
	for (const [path, content] of files) {
		const kind = EXTENSION[path.slice(path.lastIndexOf(".") + 1)];
		if (kind === undefined || isTestFile(path)) continue;
		const declaration = DECLARATIONS[kind] as Declaration;
		for (const line of content.split("\n")) {
			const match = declaration.pattern.exec(line);
			if (match === null) continue;
			const routePath = match[2] as string;
			if (!/[A-Za-z]/.test(routePath) || /\s/.test(routePath)) continue;
			const query = `${declaration.method(match[1] as string, line)} ${routePath}`;
			const gold = byQuery.get(query) ?? new Set<string>();
			byQuery.set(query, gold);
			const handler = declaration.decorated ? undefined : /([\w$]+)\s*\)\s*;?\s*$/.exec(match[3] ?? "")?.[1];
			const definedIn =
				handler === undefined || /^(?:req|res|c|ctx|next|w|r)$/.test(handler)
					? []
					: [...files].filter(([other, text]) => !isTestFile(other) && defines(text, handler)).map(([p]) => p);
			if (definedIn.length > 0 && definedIn.length <= 3) for (const p of definedIn) gold.add(p);
			else gold.add(path);
		}
	}
	return [...byQuery]
		.map(([query, gold]) => ({ id: query, query, gold: [...gold].sort() }))
		.sort((a, b) => (a.id < b.id ? -1 : 1));
}
