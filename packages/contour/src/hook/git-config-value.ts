/**
 * One value of Git's configuration, read from the config files themselves without running Git or anything a
 * repository configures: the system file (unless `GIT_CONFIG_NOSYSTEM`), the user's (`GIT_CONFIG_GLOBAL`, else
 * `$XDG_CONFIG_HOME/git/config` and `~/.gitconfig`), the repository's common `config` and, under
 * `extensions.worktreeConfig`, the worktree's `config.worktree`; the last one set wins, as in Git. `include` and
 * `includeIf` sections are not followed (a value set only through one is not seen: the README says so).
 */
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

/** Config files bigger than this are not read (a config is a few KiB; anything else is not one). */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** The files Git reads for a worktree whose git dir and common dir are given, lowest precedence first. */
export async function configFiles(gitDir: string, commonDir: string): Promise<string[]> {
	const files: string[] = [];
	if (process.env.GIT_CONFIG_NOSYSTEM === undefined || /^(0|false|no|off|)$/i.test(process.env.GIT_CONFIG_NOSYSTEM)) {
		files.push("/etc/gitconfig");
	}
	const global = process.env.GIT_CONFIG_GLOBAL;
	if (global !== undefined && global !== "") files.push(global);
	else {
		const home = process.env.HOME ?? homedir();
		const xdg = process.env.XDG_CONFIG_HOME ?? join(home, ".config");
		files.push(join(xdg, "git", "config"), join(home, ".gitconfig"));
	}
	const common = join(commonDir, "config");
	files.push(common);
	if ((await configValue([common], "extensions", "worktreeconfig"))?.match(/^(true|yes|on|1|)$/i)) {
		files.push(join(gitDir, "config.worktree"));
	}
	return files;
}

/** The last value of `section.key` (case-insensitive, no subsection) in `files`, or `undefined` when none sets it. */
export async function configValue(files: readonly string[], section: string, key: string): Promise<string | undefined> {
	let found: string | undefined;
	for (const file of files) {
		const text = await readFile(file, "utf8").catch(() => "");
		if (text.length > MAX_CONFIG_BYTES) continue;
		const value = lastValue(text, section.toLowerCase(), key.toLowerCase());
		if (value !== undefined) found = value;
	}
	return found;
}

/** The last value of `section.key` in one config file's text (a key without `=` is `true`, as in Git). */
export function lastValue(text: string, section: string, key: string): string | undefined {
	let current = "";
	let found: string | undefined;
	const lines = text.replace(/\\\r?\n/g, "").split(/\r?\n/);
	for (const raw of lines) {
		let line = raw.trim();
		const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\](.*)$/.exec(line);
		if (header !== null) {
			// A subsection (`[remote "x"]`, `[a.b]`) is not the plain section.
			current = /\s"/.test(line.slice(0, line.indexOf("]"))) ? "\0" : (header[1] ?? "").toLowerCase();
			line = (header[2] ?? "").trim();
			if (line === "") continue;
		}
		if (current !== section) continue;
		const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/.exec(line);
		if (entry === null || (entry[1] ?? "").toLowerCase() !== key) continue;
		found = entry[2] === undefined ? "true" : unquote(entry[2]);
	}
	return found;
}

/** A value as Git reads it: quotes removed, `\\"`, `\\\\`, `\\n`, `\\t` unescaped, a comment (`#`, `;`) outside quotes cut. */
function unquote(value: string): string {
	let out = "";
	let quoted = false;
	for (let i = 0; i < value.length; i++) {
		const c = value[i] as string;
		if (c === "\\") {
			const next = value[++i] ?? "";
			out += next === "n" ? "\n" : next === "t" ? "\t" : next;
		} else if (c === '"') quoted = !quoted;
		else if (!quoted && (c === "#" || c === ";")) break;
		else out += c;
	}
	return out.trim();
}
