// Renders a tmux pane captured with its colours (`tmux capture-pane -p -e`, as the TUI tests write with
// PI_TUI_PANES / PI_CREW_TUI_PANE) to a PNG for a README: the ANSI colours become Pango markup that ImageMagick draws
// in a monospace font on a dark background. A documentation tool, run by hand:
//   node scripts/pane-png.ts pane.ansi out.png [--from TEXT] [--drop TEXT]... [--replace FROM=TO]...
// --from starts at the first line holding TEXT, --drop leaves out lines holding TEXT, --replace rewrites text (a temp
// path as a person's would read); runs of blank lines become one.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const BASIC = ["#1e1e1e", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5"];
const BRIGHT = ["#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"];

/** The 256-colour palette entry `n` as `#rrggbb`. */
function palette(n: number): string {
	if (n < 8) return BASIC[n] as string;
	if (n < 16) return BRIGHT[n - 8] as string;
	if (n >= 232) {
		const v = 8 + (n - 232) * 10;
		return hex(v, v, v);
	}
	const i = n - 16;
	const level = (c: number) => (c === 0 ? 0 : 55 + c * 40);
	return hex(level(Math.floor(i / 36)), level(Math.floor(i / 6) % 6), level(i % 6));
}

function hex(r: number, g: number, b: number): string {
	return `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}

interface Style {
	fg?: string;
	bg?: string;
	bold?: boolean;
	dim?: boolean;
	italic?: boolean;
	underline?: boolean;
}

/** Applies the SGR parameters `codes` to `style`. */
function sgr(style: Style, codes: number[]): Style {
	const next = { ...style };
	for (let i = 0; i < codes.length; i++) {
		const c = codes[i] as number;
		if (c === 0) for (const key of Object.keys(next)) delete next[key as keyof Style];
		else if (c === 1) next.bold = true;
		else if (c === 2) next.dim = true;
		else if (c === 3) next.italic = true;
		else if (c === 4) next.underline = true;
		else if (c === 22) next.bold = next.dim = false;
		else if (c === 23) next.italic = false;
		else if (c === 24) next.underline = false;
		else if (c === 39) delete next.fg;
		else if (c === 49) delete next.bg;
		else if (c >= 30 && c <= 37) next.fg = BASIC[c - 30];
		else if (c >= 90 && c <= 97) next.fg = BRIGHT[c - 90];
		else if (c >= 40 && c <= 47) next.bg = BASIC[c - 40];
		else if (c >= 100 && c <= 107) next.bg = BRIGHT[c - 100];
		else if (c === 38 || c === 48) {
			const color =
				codes[i + 1] === 5 ? palette(codes[i + 2] ?? 7) : hex(codes[i + 2] ?? 0, codes[i + 3] ?? 0, codes[i + 4] ?? 0);
			i += codes[i + 1] === 5 ? 2 : 4;
			if (c === 38) next.fg = color;
			else next.bg = color;
		}
	}
	return next;
}

function escapeMarkup(text: string): string {
	return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function span(style: Style, text: string): string {
	const attrs = [
		`foreground="${style.fg ?? "#d4d4d4"}"`,
		...(style.bg ? [`background="${style.bg}"`] : []),
		...(style.bold ? ['weight="bold"'] : []),
		...(style.dim ? ['alpha="65%"'] : []),
		...(style.italic ? ['style="italic"'] : []),
		...(style.underline ? ['underline="single"'] : []),
	];
	return `<span ${attrs.join(" ")}>${escapeMarkup(text)}</span>`;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequences are what it reads
const SGR_SPLIT = /(\u001b\[[0-9;]*m)/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequences are what it reads
const SGR = /^\u001b\[([0-9;]*)m$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequences are what it reads
const ANY_ESCAPE = /\u001b\[[0-9;?]*[A-Za-z]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: blank lines may hold colour codes only
const BLANK_RUN = /(\n[ \t]*(\u001b\[[0-9;]*m)*[ \t]*){3,}/g;

/** The ANSI text as Pango markup. */
export function paneMarkup(ansi: string): string {
	let style: Style = {};
	let out = "";
	for (const part of ansi.split(SGR_SPLIT)) {
		const match = SGR.exec(part);
		if (match) style = sgr(style, (match[1] || "0").split(";").map(Number));
		else if (part !== "") out += span(style, part.replace(ANY_ESCAPE, ""));
	}
	return out;
}

const [input, output, ...rest] = process.argv.slice(2);
if (input === undefined || output === undefined) {
	console.error("usage: node scripts/pane-png.ts pane.ansi out.png [--replace FROM=TO]...");
	process.exit(2);
}
let text = readFileSync(input, "utf8").trimEnd();
const plain = (line: string) => line.replace(ANY_ESCAPE, "");
for (let i = 0; i < rest.length; i++) {
	const [flag, value = ""] = [rest[i], rest[++i]];
	const lines = text.split("\n");
	if (flag === "--replace") {
		const [from = "", to = ""] = value.split("=");
		text = text.replaceAll(from, to);
	} else if (flag === "--from") {
		text = lines
			.slice(
				Math.max(
					0,
					lines.findIndex((line) => plain(line).includes(value)),
				),
			)
			.join("\n");
	} else if (flag === "--drop") {
		text = lines.filter((line) => !plain(line).includes(value)).join("\n");
	}
}
text = text.replace(BLANK_RUN, "\n\n");
const markup = `<span font_family="DejaVu Sans Mono" size="11000">${paneMarkup(text)}</span>`;
execFileSync("convert", [
	"-background",
	"#1e1e1e",
	"-bordercolor",
	"#1e1e1e",
	"-border",
	"12",
	`pango:${markup}`,
	output,
]);
