import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type ShellHintOptions, shellCwdHints } from "./shell-hints.ts";

/** One path that a successful tool result proves was accessed, and which tool field proved it. */
export interface AccessedPath {
	path: string;
	kind: "file" | "directory" | "unknown";
	via: string;
}

/** The tool event fields that enrollment reads; everything else in a Pi tool event is ignored. */
export interface ToolAccessEvent {
	toolName: string;
	input: unknown;
	isError?: boolean;
}

/** Built-in tools whose `path` argument names what they touched, and what kind of thing it is. */
const PATH_TOOLS: Record<string, { kind: AccessedPath["kind"]; defaultsToCwd: boolean }> = {
	read: { kind: "file", defaultsToCwd: false },
	edit: { kind: "file", defaultsToCwd: false },
	write: { kind: "file", defaultsToCwd: false },
	grep: { kind: "unknown", defaultsToCwd: true },
	find: { kind: "directory", defaultsToCwd: true },
	ls: { kind: "directory", defaultsToCwd: true },
};

/**
 * What a *successful* tool result proves was accessed. Pure: no filesystem, no environment beyond `home`.
 *
 * Paths come only from the structured arguments of `read`, `edit`, `write`, `grep`, `find` and `ls` (resolved the
 * way Pi resolves them: a leading `@` stripped, `~` expanded, `file://` URLs decoded, relative to `cwd`), and from
 * literal shell working-directory hints of `bash` (a `cwd` field, `cd <dir> && …`, `git -C <dir> …`). Errors,
 * other tools (`fabric_exec` included), remote URLs and anything that would need evaluation give `[]`.
 */
export function accessedPaths(
	event: ToolAccessEvent,
	cwd: string,
	home: string = homedir(),
	options: ShellHintOptions = {},
): AccessedPath[] {
	if (event === null || typeof event !== "object" || event.isError === true) return [];
	const input = event.input;
	if (input === null || typeof input !== "object" || Array.isArray(input)) return [];
	if (typeof cwd !== "string" || !isAbsolute(cwd)) return [];
	const fields = input as Record<string, unknown>;
	const tool = Object.hasOwn(PATH_TOOLS, event.toolName) ? PATH_TOOLS[event.toolName] : undefined;
	if (tool !== undefined) {
		const raw = fields.path;
		// Pi searches the cwd when grep, find or ls get no path or an empty one.
		if (raw === undefined || raw === null || (raw === "" && tool.defaultsToCwd)) {
			return tool.defaultsToCwd ? [{ path: resolve(cwd), kind: "directory", via: event.toolName }] : [];
		}
		const path = toolPath(raw, cwd, home);
		return path === undefined ? [] : [{ path, kind: tool.kind, via: event.toolName }];
	}
	if (event.toolName === "bash") return shellPaths(fields, cwd, home, options);
	return [];
}

function shellPaths(
	fields: Record<string, unknown>,
	cwd: string,
	home: string,
	options: ShellHintOptions,
): AccessedPath[] {
	const found: AccessedPath[] = [];
	let base = cwd;
	if (fields.cwd !== undefined) {
		const explicit =
			typeof fields.cwd === "string" && !/[$`*?[\]{}]/.test(fields.cwd) ? toolPath(fields.cwd, cwd, home) : undefined;
		if (explicit === undefined) return [];
		base = explicit;
		found.push({ path: explicit, kind: "directory", via: "cwd" });
	}
	if (typeof fields.command !== "string") return found;
	// A NUL cannot be in a path (bash cannot even pass one), so a hint holding one names nothing.
	for (const path of shellCwdHints(fields.command, base, home, options))
		if (!path.includes("\0")) found.push({ path, kind: "directory", via: "shell" });
	return found;
}

/** Unicode space characters that Pi's path resolution folds into a plain space. */
const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;
const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

function toolPath(raw: unknown, cwd: string, home: string): string | undefined {
	if (typeof raw !== "string" || raw.length === 0 || raw.includes("\0")) return undefined;
	let path = raw.replace(UNICODE_SPACES, " ");
	if (path.startsWith("@")) path = path.slice(1);
	if (path === "~") path = home;
	else if (path.startsWith("~/")) path = join(home, path.slice(2));
	else if (path.startsWith("file://")) {
		try {
			path = fileURLToPath(path);
		} catch {
			return undefined;
		}
	} else if (URL_SCHEME.test(path)) return undefined;
	if (path.length === 0) return undefined;
	return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}
