/**
 * The `*` patterns that tsconfig `paths` and package.json `exports` share: a key matches exactly, or as its prefix,
 * one `*` and its suffix, the longest prefix winning; the part the `*` stood for replaces the `*` in each target.
 */

/**
 * The substituted targets of the key of `patterns` that matches `spec` (exactly, else by the longest prefix);
 * `undefined` when no key matches, so a key whose targets are none (`"./internal/*": null` in `exports`) reads
 * apart from a key that is not there.
 */
export function patternMatch(
	spec: string,
	patterns: Iterable<readonly [string, readonly string[]]>,
): string[] | undefined {
	let best: { prefix: number; capture: string; targets: readonly string[] } | undefined;
	for (const [pattern, targets] of patterns) {
		if (pattern === spec && !spec.includes("*")) return [...targets];
		const star = pattern.indexOf("*");
		if (star < 0) continue;
		const prefix = pattern.slice(0, star);
		const suffix = pattern.slice(star + 1);
		if (spec.length < prefix.length + suffix.length || !spec.startsWith(prefix) || !spec.endsWith(suffix)) continue;
		if (best !== undefined && best.prefix >= prefix.length) continue;
		best = { prefix: prefix.length, capture: spec.slice(prefix.length, spec.length - suffix.length), targets };
	}
	if (best === undefined) return undefined;
	const capture = best.capture;
	return best.targets.map((target) => target.replaceAll("*", capture));
}

/** The substituted targets of the key of `patterns` that matches `spec`; none when no key matches. */
export function patternTargets(spec: string, patterns: Iterable<readonly [string, readonly string[]]>): string[] {
	return patternMatch(spec, patterns) ?? [];
}
