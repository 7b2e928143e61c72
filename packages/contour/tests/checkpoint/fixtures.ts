/**
 * Sources for the checkpoint tests: one simple and one branchy function per language (eleven `if`s: cyclomatic
 * complexity 12, over the threshold of 10), a pair of near clones, and a function to copy between files.
 */
import { realpathSync } from "node:fs";
import { ReviewCache } from "../../src/checkpoint/review-cache.ts";

const BRANCHES = 11;
const cases = (line: (i: number) => string) => Array.from({ length: BRANCHES }, (_, i) => line(i)).join("\n");

/** Simple and branchy versions of a function `route` in each language, at a path of that language. */
export const LANGUAGES = {
	python: {
		path: "pkg/router.py",
		simple: "def route(x):\n    return x\n",
		branchy: `def route(x):\n${cases((i) => `    if x == ${i}:\n        return ${i * 2}`)}\n    return x\n`,
	},
	go: {
		path: "router/router.go",
		simple: "package router\n\nfunc Route(x int) int {\n\treturn x\n}\n",
		branchy: `package router\n\nfunc Route(x int) int {\n${cases((i) => `\tif x == ${i} {\n\t\treturn ${i * 2}\n\t}`)}\n\treturn x\n}\n`,
	},
	rust: {
		path: "src/router.rs",
		simple: "pub fn route(x: i32) -> i32 {\n    x\n}\n",
		branchy: `pub fn route(x: i32) -> i32 {\n${cases((i) => `    if x == ${i} {\n        return ${i * 2};\n    }`)}\n    x\n}\n`,
	},
	java: {
		path: "src/main/java/app/Router.java",
		simple: "package app;\n\nclass Router {\n  int route(int x) {\n    return x;\n  }\n}\n",
		branchy: `package app;\n\nclass Router {\n  int route(int x) {\n${cases((i) => `    if (x == ${i}) return ${i * 2};`)}\n    return x;\n  }\n}\n`,
	},
	typescript: {
		path: "src/router.ts",
		simple: "export function route(x: number): number {\n\treturn x;\n}\n",
		branchy: `export function route(x: number): number {\n${cases((i) => `\tif (x === ${i}) return ${i * 2};`)}\n\treturn x;\n}\n`,
	},
} as const;

/** A function of ~60 normalized tokens. */
export const TOTAL = `export function totalPrice(items: Item[], taxRate: number): number {
	let total = 0;
	for (const item of items) {
		if (item.quantity <= 0) {
			continue;
		}
		const line = item.price * item.quantity;
		total += line;
	}
	const tax = total * taxRate;
	return Math.round((total + tax) * 100) / 100;
}
`;

/** TOTAL renamed, with one statement changed: a near clone. */
export const NEAR_TOTAL = `export function sumOrder(entries: Entry[], rate: number): number {
	let sum = 0;
	for (const entry of entries) {
		if (entry.count <= 1) {
			continue;
		}
		const amount = entry.cost * entry.count;
		sum += amount;
	}
	const extra = sum * rate + shipping(entries);
	return Math.round((sum + extra) * 100) / 100;
}
`;

/** A fresh cache (reports and measures) per test, so counts do not depend on test order. */
export function freshCache(): ReviewCache {
	return new ReviewCache();
}

/** The canonical form of a temp path. */
export function canonical(path: string): string {
	return realpathSync(path);
}

/** A function of a dozen lines that calls five helpers; `name` and the helpers' names vary per use. */
export function encoder(name: string, calls = ["toHex", "keccak", "concat", "padLeft", "formatTopic"]): string {
	const [a, b, c, d, e] = calls;
	return `export function ${name}(values: readonly string[], indexed: boolean, size: number): string[] {
	const topics: string[] = [];
	for (const value of values) {
		if (value.length === 0) {
			topics.push(${a}(0));
			continue;
		}
		const hashed = indexed ? ${b}(value) : ${c}([value, String(size)]);
		topics.push(${d}(hashed, size * 2));
	}
	return topics.map((topic) => ${e}(topic, size));
}
`;
}

/**
 * A Python project whose `app/service.py` a change gives a new function of nine lines: its neighbours hold functions
 * of the same span, one imported through the module path `lib.helpers`, one an importer of the changed file, and
 * `extra` files beside them; `pile` files nothing names. Returns the files at the base and the changed file.
 */
export function moduleNeighbours(
	pile: number,
	extra: Record<string, string> = {},
): { files: Record<string, string>; change: Record<string, string> } {
	const files: Record<string, string> = {
		"app/service.py": "from lib.helpers import pad\n\n\ndef serve(x):\n    return pad(x)\n",
		"lib/__init__.py": "",
		// Another directory, named only by the module path `lib.helpers`: a neighbour through the import graph.
		"lib/helpers.py": `def pad(x):\n    return x\n\n\n${pricing("weigh", "- 1")}`,
		// An importer, parsed while the slice looks for what reaches the change, before clone search orders it.
		"checks/check_service.py": `from app.service import serve\n\n\n${pricing("check", "* 2")}`,
		...extra,
	};
	for (let i = 0; i < pile; i++) files[`pile/p${String(i).padStart(2, "0")}.py`] = `P${i} = ${i}\n`;
	const change = {
		"app/service.py": `from lib.helpers import pad\n\n\ndef serve(x):\n    return pad(x)\n\n\n${pricing("price", "+ 1")}`,
	};
	return { files, change };
}

/** A Python function of nine lines named `name`, one statement of which ends in `step`. */
export function pricing(name: string, step: string): string {
	return `def ${name}(items, rate):\n    total = 0\n    for item in items:\n        if item.count <= 0:\n            continue\n        total += item.price * item.count ${step}\n    tax = total * rate\n    return round((total + tax) * 100) / 100\n`;
}
