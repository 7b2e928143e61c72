/**
 * Which native `grep` searches Fovea adds to: a bare identifier (`createUser`), a qualified symbol
 * (`Controller.create`, `Foo::bar`, `Foo#bar`), a repository path (`src/user/service.ts`) or a route
 * (`/api/users/:id`). A regular expression, or a search tailored with several options (glob, ignoreCase, context),
 * stays purely native: its author wants exactly what grep does.
 *
 * @module
 */

/** What a grep searched for, when it names something the code map knows. */
export interface GrepSubject {
	kind: "identifier" | "qualified" | "path" | "route";
	/** The subject as the map names it: separators of a qualified name are `.`, escapes removed. */
	text: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const QUALIFIED = /^[A-Za-z_$][\w$]*(?:(?:\.|::|#|->)[A-Za-z_$][\w$]*)+$/;
const ROUTE = /^\/[\w\-.:{}/*]*[A-Za-z][\w\-.:{}/*]*$/;
const PATH = /^[\w\-.]+(?:\/[\w\-.]+)+$/;
const FILE_NAME = /^[\w-]+\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|php|cs|c|h|cc|cpp|hpp|swift|scala|vue|svelte)$/;

/** The subject of a grep call's input, or `undefined` when the search stays purely native. */
export function grepSubject(input: unknown): GrepSubject | undefined {
	if (input === null || typeof input !== "object") return undefined;
	const args = input as Record<string, unknown>;
	if (typeof args.pattern !== "string") return undefined;
	const options = [
		typeof args.glob === "string" && args.glob !== "",
		args.ignoreCase === true,
		typeof args.context === "number" && args.context > 0,
	].filter(Boolean).length;
	if (options >= 2) return undefined;
	// A regex pattern may escape the dots and slashes of a name; nothing else a name needs is special.
	const raw = args.pattern.trim();
	const text = args.literal === true ? raw : raw.replace(/\\([./:#-])/g, "$1");
	if (text.length < 3 || text.length > 200) return undefined;
	if (ROUTE.test(text) && text.length > 1) return { kind: "route", text };
	if (PATH.test(text) || FILE_NAME.test(text)) return { kind: "path", text: text.replace(/^\.\//, "") };
	if (QUALIFIED.test(text)) return { kind: "qualified", text: text.replace(/::|#|->/g, ".") };
	if (IDENTIFIER.test(text)) return { kind: "identifier", text };
	return undefined;
}
