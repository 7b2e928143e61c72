/**
 * The arguments of `/contour review` as a review request: `--staged`, `--working-tree`, `--base REF`,
 * `--max-tokens N`, `--max-findings N` and at most one root. Anything else is an Error naming it.
 */
export function reviewArguments(args: string): Record<string, unknown> {
	const words = args.split(/\s+/).filter((word) => word.length > 0);
	const request: Record<string, unknown> = {};
	const value = (flag: string, at: number): string => {
		const next = words[at + 1];
		if (next === undefined || next.startsWith("--")) throw new Error(`${flag} needs a value`);
		return next;
	};
	const integer = (flag: string, text: string): number => {
		if (!/^\d+$/.test(text)) throw new Error(`${flag} must be a whole number, not ${JSON.stringify(text)}`);
		return Number(text);
	};
	for (let i = 0; i < words.length; i++) {
		const word = words[i] as string;
		if (word === "--staged") request.target = "staged";
		else if (word === "--working-tree") request.target = "working-tree";
		else if (word === "--base") request.base = value(word, i++);
		else if (word === "--max-tokens") request.maxTokens = integer(word, value(word, i++));
		else if (word === "--max-findings") request.maxFindings = integer(word, value(word, i++));
		else if (word.startsWith("--")) {
			throw new Error(
				`unknown option ${word} (use --staged, --working-tree, --base REF, --max-tokens N, --max-findings N)`,
			);
		} else if (request.root !== undefined)
			throw new Error(`one root at most (got ${String(request.root)} and ${word})`);
		else request.root = word;
	}
	return request;
}
