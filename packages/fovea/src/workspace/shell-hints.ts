import { isAbsolute, join, resolve } from "node:path";

/**
 * Literal working-directory hints in a shell command that *succeeded*: `cd <dir> && …` and `git -C <dir> …`.
 *
 * Nothing is evaluated. A hint is only taken where success of the whole command proves it: the command must be a
 * plain `&&` chain, so `cd a; x`, `cd a || x`, background jobs and subshells give nothing. A word with a variable,
 * substitution, glob, brace or history expansion is not literal; after a non-literal `cd` (or `pushd`, `eval`,
 * `source`, …) the working directory is unknown and the scan stops. Tilde prefixes (`~`, `~/x`) are literal given
 * `home`. Returns absolute, lexically normalized directories in command order.
 */
export function shellCwdHints(command: string, cwd: string, home: string, options: ShellHintOptions = {}): string[] {
	const lexed = lex(command);
	if (lexed === undefined) return [];
	const hints: string[] = [];
	let dir = cwd;
	for (const segment of lexed) {
		if (segment.piped) {
			if (segment.words.some((w) => CWD_CHANGERS.has(w.text) || !w.literal)) return hints;
			continue;
		}
		if (segment.words.some((w) => /^CDPATH=/.test(w.text))) return hints;
		const words = dropAssignments(segment.words);
		const head = words[0];
		if (head === undefined) continue;
		if (!head.literal || CWD_CHANGERS.has(head.text)) {
			if (head.literal && head.text === "cd") {
				const target = cdTarget(words.slice(1));
				if (target === undefined || (options.cdpath && !/^(\/|\.\.?(\/|$)|~)/.test(target.text))) return hints;
				dir = resolveWord(target, dir, home);
				hints.push(dir);
				continue;
			}
			return hints;
		}
		if (head.text === "git") {
			const target = gitDirectory(words.slice(1), dir, home);
			if (target !== undefined) hints.push(target);
		}
	}
	return hints;
}

/** What the shell inherits that changes how `cd` resolves. */
export interface ShellHintOptions {
	/**
	 * The `CDPATH` the shell inherits. When it is set, `cd name` may land in any of its directories, so only
	 * targets that are absolute or start with `.`/`..` (which `cd` resolves without it) remain literal.
	 */
	cdpath?: string | undefined;
}

/**
 * Builtins and keywords after which the shell's directory, or what a later `cd` means, can no longer be known
 * without evaluation: they change directory themselves, run strings as code (`eval`, `trap`), prefix a `cd` that
 * still runs in this shell (`time`), or change shell state that `cd` reads (`export CDPATH`, `shopt -s cdable_vars`).
 */
const CWD_CHANGERS = new Set([
	"cd",
	"pushd",
	"popd",
	"eval",
	"source",
	".",
	"builtin",
	"command",
	"exec",
	"alias",
	"time",
	"coproc",
	"trap",
	"shopt",
	"set",
	"export",
	"declare",
	"typeset",
	"local",
	"readonly",
	"unset",
	"enable",
	"function",
]);

/** Git options that consume the following word. */
const GIT_OPTIONS_WITH_VALUE = new Set([
	"-c",
	"--git-dir",
	"--work-tree",
	"--namespace",
	"--config-env",
	"--exec-path",
]);

interface Word {
	text: string;
	literal: boolean;
	/** An unquoted `~` or `~/…` prefix, which the shell replaces with the home directory. */
	tilde: boolean;
}

interface Segment {
	words: Word[];
	piped: boolean;
}

function dropAssignments(words: Word[]): Word[] {
	let i = 0;
	while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]?.text ?? "")) i++;
	return words.slice(i);
}

function cdTarget(args: Word[]): Word | undefined {
	const rest = args.filter(
		(w, i) => !(w.literal && (w.text === "-P" || w.text === "-L" || (w.text === "--" && i === 0))),
	);
	const [target] = rest;
	if (rest.length !== 1 || target === undefined || !target.literal || target.text === "-" || target.text === "") {
		return undefined;
	}
	return target;
}

function gitDirectory(args: Word[], cwd: string, home: string): string | undefined {
	let dir: string | undefined;
	for (let i = 0; i < args.length; i++) {
		const arg = args[i];
		if (arg === undefined || !arg.literal) return undefined;
		if (arg.text === "-C") {
			const value = args[++i];
			if (value === undefined || !value.literal || value.text === "") return undefined;
			dir = resolveWord(value, dir ?? cwd, home);
		} else if (GIT_OPTIONS_WITH_VALUE.has(arg.text)) {
			// The value must be literal too: `-c $OPT` could split into `-c a=b -C elsewhere`.
			if (args[++i]?.literal !== true) return undefined;
		} else if (!arg.text.startsWith("-")) {
			break;
		}
	}
	return dir;
}

function resolveWord(word: Word, cwd: string, home: string): string {
	const text = !word.tilde ? word.text : word.text === "~" ? home : join(home, word.text.slice(2));
	return isAbsolute(text) ? resolve(text) : resolve(cwd, text);
}

const SEPARATOR_ERRORS = new Set([";", "||", "&", "\n", "(", ")"]);

/**
 * Splits a command into `&&`-joined segments of words, or `undefined` when the command is anything but a plain
 * `&&` chain (a trailing `;` or newline is allowed). Words remember whether they were free of expansions.
 */
function lex(command: string): Segment[] | undefined {
	const segments: Segment[] = [{ words: [], piped: false }];
	let i = 0;
	let pendingSeparator: string | undefined;
	const current = () => segments[segments.length - 1] as Segment;
	while (i < command.length) {
		const c = command[i] as string;
		if (c === " " || c === "\t") {
			i++;
			continue;
		}
		if (c === "\\" && command[i + 1] === "\n") {
			i += 2;
			continue;
		}
		if (c === "#") {
			const end = command.indexOf("\n", i);
			i = end < 0 ? command.length : end;
			continue;
		}
		const op = operatorAt(command, i);
		if (op !== undefined) {
			i += op.length;
			if (pendingSeparator !== undefined) return undefined;
			if (op === "&&") {
				if (current().words.length === 0) return undefined;
				segments.push({ words: [], piped: false });
			} else if (op === "|") {
				current().piped = true;
			} else if (op.startsWith("<") || op.startsWith(">") || op.startsWith("&>")) {
				const target = readWord(command, skipBlanks(command, i));
				if (target === undefined) return undefined;
				i = target.end;
			} else if (SEPARATOR_ERRORS.has(op)) {
				pendingSeparator = op;
			}
			continue;
		}
		if (pendingSeparator !== undefined) return undefined;
		const word = readWord(command, i);
		if (word === undefined) return undefined;
		i = word.end;
		const next = command[i];
		if (/^\d+$/.test(word.text) && (next === "<" || next === ">")) continue;
		current().words.push({ text: word.text, literal: word.literal, tilde: word.tilde });
	}
	if (pendingSeparator !== undefined && pendingSeparator !== ";" && pendingSeparator !== "\n") return undefined;
	if (current().words.length === 0 && segments.length > 1) return undefined;
	return segments;
}

const OPERATORS = ["&&", "||", "&>>", "&>", ">>", ">&", "<&", ">|", "<<", ";", "|", "&", "\n", "(", ")", "<", ">"];

function operatorAt(s: string, i: number): string | undefined {
	for (const op of OPERATORS) if (s.startsWith(op, i)) return op;
	return undefined;
}

function skipBlanks(s: string, i: number): number {
	while (s[i] === " " || s[i] === "\t") i++;
	return i;
}

/** Characters that make an unquoted word an expansion rather than a literal. */
const EXPANDING = new Set(["$", "`", "*", "?", "[", "]", "{", "}", "!"]);

function readWord(s: string, start: number): (Word & { end: number }) | undefined {
	let text = "";
	let literal = true;
	let i = start;
	while (i < s.length) {
		const c = s[i] as string;
		if (" \t\n;&|()<>".includes(c)) break;
		if (c === "'") {
			const close = s.indexOf("'", i + 1);
			if (close < 0) return undefined;
			text += s.slice(i + 1, close);
			i = close + 1;
		} else if (c === '"') {
			let j = i + 1;
			while (j < s.length && s[j] !== '"') {
				const d = s[j] as string;
				if (d === "$" || d === "`" || d === "\\" || d === "!") literal = false;
				j += d === "\\" ? 2 : 1;
			}
			if (j >= s.length) return undefined;
			text += s.slice(i + 1, j);
			i = j + 1;
		} else if (c === "\\") {
			if (i + 1 >= s.length) return undefined;
			text += s[i + 1];
			i += 2;
		} else {
			if (EXPANDING.has(c) || (c === "~" && i !== start)) literal = false;
			text += c;
			i++;
		}
	}
	if (i === start) return undefined;
	// `~` and `~/…` expand to the home directory; `~user`, `~+` and `~-` need evaluation; a quoted or escaped
	// character after the `~` (`~'/p'`, `~\/p`) leaves it a literal `~`.
	const tilde = s[start] === "~" && (i === start + 1 || s[start + 1] === "/");
	if (s[start] === "~" && !tilde && !"'\"\\".includes(s[start + 1] ?? "")) literal = false;
	return { text, literal, tilde, end: i };
}
