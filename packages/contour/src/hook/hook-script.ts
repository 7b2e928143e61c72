/**
 * The pre-commit hook Contour writes: a POSIX shell script that runs a hook it replaced first (chained), then the
 * staged review with the Node and `contour` entry that installed it (absolute paths: a commit may run without the
 * user's PATH, and Contour needs Node 22), printing the report on stderr. Advisory, it never stops a commit; blocking,
 * it stops one when the review exits 1 (the repository's explicit policy is violated) or cannot run.
 */

/** How the hook treats a review's verdict. */
export type HookMode = "advisory" | "blocking";

/** The line that marks a hook Contour wrote: only such a hook is ever replaced or removed. */
export const HOOK_MARKER = "# contour-hook: written by `contour hook install` (pi-contour)";
/** The name a replaced hook is kept under, beside the hook, and run first. */
export const CHAINED_NAME = "pre-commit.contour-chained";

/** What a hook Contour wrote records. */
export interface HookRecord {
	mode: HookMode;
	node: string;
	cli: string;
}

/** The hook's text for `record`. */
export function hookScript(record: HookRecord): string {
	return `#!/bin/sh
${HOOK_MARKER}; \`contour hook uninstall\` removes it.
NODE=${shellQuote(record.node)}
CLI=${shellQuote(record.cli)}
MODE=${record.mode}
hooks=$(dirname -- "$0")
if [ -x "$hooks/${CHAINED_NAME}" ]; then
	"$hooks/${CHAINED_NAME}" "$@" || exit $?
fi
if [ ! -x "$NODE" ] || [ ! -f "$CLI" ]; then
	echo "contour hook: cannot review this commit: $NODE or $CLI, recorded by contour hook install, is gone; run contour hook install again, or contour hook uninstall" >&2
	[ "$MODE" = blocking ] && exit 1
	exit 0
fi
# Git stages the commit in the index file it names here (a lock or temporary index for commit -a or commit <path>).
if [ -n "\${GIT_INDEX_FILE:-}" ]; then
	"$NODE" "$CLI" review --staged --index-file "$GIT_INDEX_FILE" >&2
else
	"$NODE" "$CLI" review --staged >&2
fi
code=$?
[ "$MODE" = blocking ] || exit 0
[ $code -eq 0 ] && exit 0
if [ $code -eq 1 ]; then
	echo "contour hook: this commit violates the repository's contour policy (above); fix it, or commit with --no-verify" >&2
else
	echo "contour hook: the review could not run (exit $code); commit with --no-verify to skip it" >&2
fi
exit 1
`;
}

/** The record of a hook's text when Contour wrote it, else `undefined`. */
export function readHookRecord(text: string): HookRecord | undefined {
	if (!text.includes(HOOK_MARKER)) return undefined;
	const node = /^NODE='((?:[^']|'\\'')*)'$/m.exec(text)?.[1];
	const cli = /^CLI='((?:[^']|'\\'')*)'$/m.exec(text)?.[1];
	const mode = /^MODE=(advisory|blocking)$/m.exec(text)?.[1] as HookMode | undefined;
	if (node === undefined || cli === undefined || mode === undefined) return undefined;
	return { mode, node: node.replaceAll("'\\''", "'"), cli: cli.replaceAll("'\\''", "'") };
}

/** `text` as one single-quoted shell word. */
function shellQuote(text: string): string {
	return `'${text.replaceAll("'", "'\\''")}'`;
}
