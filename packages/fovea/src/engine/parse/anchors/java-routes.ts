/**
 * Routes of Spring controllers: `@GetMapping("/x")` (and Post, Put, Patch, Delete) and `@RequestMapping(value = "/x",
 * method = RequestMethod.GET)` on a method, under the `@RequestMapping` of its class as a prefix. The annotated method
 * is the handler. Pure.
 */
import type { RouteFact } from "../../model/index.ts";
import { httpMethod, joinRoute, normalizeRoutePath } from "../../model/index.ts";
import { callArguments, type LineMap } from "./source-scan.ts";

const MAPPING = /@\s*(?:[\w.]+\.)?(Get|Post|Put|Patch|Delete|Request)Mapping\b/g;
/** Annotations and modifiers between a mapping and what it annotates. */
const PREAMBLE =
	/^(?:\s+|@\s*[\w.]+(?:\s*\((?:[^()]|\([^()]*\))*\))?|(?:public|protected|private|static|final|abstract|synchronized|default)\b)*/;
const CLASS_HEAD = /^(?:class|interface|record)\s+([A-Za-z_]\w*)/;
const METHOD_HEAD = /^[\w<>[\],.?\s]*?\b([A-Za-z_]\w*)\s*\(/;

/** The routes `source` declares. */
export function javaRoutes(source: string, lines: LineMap): RouteFact[] {
	const routes: RouteFact[] = [];
	/** Class-level prefixes by where their class starts, in source order. */
	const prefixes: { at: number; paths: string[] }[] = [];
	for (const match of source.matchAll(MAPPING)) {
		let end = (match.index as number) + match[0].length;
		let args: string[] = [];
		const open = /^\s*\(/.exec(source.slice(end, end + 20));
		if (open !== null) ({ args, end } = callArguments(source, end + open[0].length - 1));
		const after = source.slice(end, end + 1500);
		const preamble = PREAMBLE.exec(after)?.[0].length ?? 0;
		const head = after.slice(preamble);
		const paths = mappedPaths(args);
		if (CLASS_HEAD.test(head)) {
			prefixes.push({ at: end, paths });
			continue;
		}
		const handler = METHOD_HEAD.exec(head)?.[1];
		if (handler === undefined) continue;
		const kind = match[1] as string;
		const methods = kind === "Request" ? requestMethods(args) : [kind];
		const prefix = [...prefixes].reverse().find((p) => p.at < (match.index as number))?.paths ?? [""];
		const line = lines.lineAt(match.index as number);
		for (const base of prefix.length === 0 ? [""] : prefix) {
			for (const raw of paths.length === 0 ? [""] : paths) {
				const path = normalizeRoutePath(joinRoute(base, raw));
				for (const method of methods) {
					const verb = httpMethod(method);
					if (verb !== undefined && path !== undefined) routes.push({ method: verb, path, line, handler });
				}
			}
		}
	}
	return routes;
}

/** The paths of a mapping's arguments: its first positional one, or `value =` / `path =`, a string or an array. */
function mappedPaths(args: readonly string[]): string[] {
	const named = args.find((arg) => /^(?:value|path)\s*=/.test(arg))?.replace(/^\w+\s*=\s*/, "");
	const text = named ?? args.find((arg) => !/^\w+\s*=/.test(arg));
	if (text === undefined) return [];
	return [...text.matchAll(/"([^"]*)"/g)].map((m) => m[1] as string);
}

/** `method = RequestMethod.GET` or a list of them; `ANY` when the mapping names none. */
function requestMethods(args: readonly string[]): string[] {
	const text = args.find((arg) => /^method\s*=/.test(arg));
	const names = text === undefined ? [] : [...text.matchAll(/RequestMethod\s*\.\s*(\w+)/g)].map((m) => m[1] as string);
	return names.length > 0 ? names : ["ANY"];
}
