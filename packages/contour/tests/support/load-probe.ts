// Run as a child process: records every fs and child_process call made while extension entries (or plain modules) are
// imported and their factories run against a recording ExtensionAPI, then prints a JSON report. Loading is done by Node's own
// module loader, which reads sources through the same fs functions, so only calls made from the extensions' own
// code (a stack frame under packages/*/src/) count.
import childProcess from "node:child_process";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";

const fsCalls: string[] = [];
const spawns: string[] = [];
const patch = (target: Record<string, unknown>, label: string, log: string[]) => {
	for (const key of Object.keys(target)) {
		const original = target[key];
		if (typeof original !== "function" || /^[A-Z]/.test(key)) continue;
		target[key] = function (this: unknown, ...args: unknown[]) {
			const stack = new Error().stack ?? "";
			if (/\/packages\/[a-z]+\/src\//.test(stack.split("\n").slice(2).join("\n"))) {
				log.push(`${label}.${key}(${typeof args[0] === "string" ? args[0] : ""})`);
			}
			return (original as (...a: unknown[]) => unknown).apply(this, args);
		};
	}
};

const entries = process.argv.slice(2);
const handlers: string[] = [];
const commands: string[] = [];
const pi = {
	on: (event: string) => handlers.push(event),
	registerCommand: (name: string) => commands.push(name),
	registerTool: () => {},
	registerMessageRenderer: () => {},
	registerEntryRenderer: () => {},
	appendEntry: () => {},
	events: { on: () => () => {}, emit: () => {} },
};

patch(fs as unknown as Record<string, unknown>, "fs", fsCalls);
patch(fs.promises as unknown as Record<string, unknown>, "fs.promises", fsCalls);
patch(childProcess as unknown as Record<string, unknown>, "child_process", spawns);
syncBuiltinESMExports();

const exports: string[] = [];
for (const entry of entries) {
	const mod = (await import(entry)) as { default?: unknown };
	exports.push(...Object.keys(mod));
	// An extension's factory runs too; a plain module (pi-fovea/workspace) is only imported.
	if (typeof mod.default === "function") (mod.default as (api: typeof pi) => void)(pi);
}
process.stdout.write(JSON.stringify({ fsCalls, spawns, handlers, commands, exports }));
