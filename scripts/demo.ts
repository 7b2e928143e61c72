// An offline Pi session through the real host: a scripted model roams through four projects while pi-fovea and
// pi-contour keep one observation domain per root. No API key, no network.
//
//   npm run demo

import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { cleanupTempDirs, type PiHost, type ScriptedToolCall, startHost, tempDir } from "../test/e2e/harness.ts";
import { gitRepo, writeFiles } from "../test/e2e/support/workspaces.ts";

const extensions = ["fovea", "contour"].map((name) =>
	fileURLToPath(new URL(`../packages/${name}/src/extension/index.ts`, import.meta.url)),
);

function project(dir: string, files: Record<string, string>, git: boolean): string {
	if (git) return gitRepo(dir, files);
	writeFiles(dir, files);
	return dir;
}

const workspace = await tempDir("pi-roaming-demo-");
const shop = project(
	join(workspace, "shop-api"),
	{ "src/server.ts": "export function listen(port: number) {}\n" },
	true,
);
const ml = project(join(workspace, "ml-pipeline"), { "train.py": "def train(epochs):\n    return epochs\n" }, true);
const docs = project(join(workspace, "docs-site"), { "package.json": "{}\n", "index.md": "# Docs\n" }, false);
const nested = project(join(workspace, "forks", "parser"), { "lib.rs": "pub fn parse() {}\n" }, true);

const say = (text: string) => process.stdout.write(`${text}\n`);
const show = (label: string, lines: string[]) => say(`${label}\n${lines.map((l) => `   ${l}`).join("\n")}\n`);
const rel = (path: string) => relative(workspace, path) || ".";
const ring = (host: PiHost, type: string) => host.customEntries<{ roots: string[] }>(type).at(-1)?.roots.map(rel) ?? [];
const command = async (host: PiHost, line: string) =>
	show(
		`> ${line}`,
		(await host.command(line)).notifications.flatMap((n) => n.message.split("\n")),
	);

say(`Workspace (an umbrella folder with four unrelated projects): ${workspace}\n`);
const host = await startHost({ cwd: workspace, extensions });
try {
	const steps: Array<[string, ScriptedToolCall]> = [
		["reads a TypeScript file", { name: "read", arguments: { path: "shop-api/src/server.ts" } }],
		["greps a Python project", { name: "grep", arguments: { pattern: "def train", path: "ml-pipeline" } }],
		["lists a folder with only a package.json", { name: "bash", arguments: { command: `cd ${docs} && ls` } }],
		["lists a repository nested in a plain folder", { name: "ls", arguments: { path: "forks/parser" } }],
		[
			"runs `cd $HOME && ls` (not literal: enrolls nothing)",
			{ name: "bash", arguments: { command: "cd $HOME && ls" } },
		],
	];
	const promptIds: string[] = [];
	for (const [what, call] of steps) {
		await host.runTools([call]);
		promptIds.push(host.lastUserEntryId() ?? "");
		say(`model ${what}: ${call.name} ${JSON.stringify(call.arguments)}`);
		show("   fovea ring:", [ring(host, "pi-fovea-workspace").join(", ") || "(empty)"]);
	}
	say("Contour observes only Git roots:");
	show("   contour ring:", [ring(host, "pi-contour-workspace").join(", ")]);

	await command(host, "/fovea roots");
	await command(host, "/contour status");

	const beforeNested = promptIds[3];
	await host.compact();
	say("After /compact a fresh snapshot is on the branch; after /reload the ring comes back from it:");
	await host.command("/reload");
	await command(host, "/fovea roots");

	if (beforeNested !== undefined) {
		await host.fork(beforeNested);
		say("A fork from the prompt that listed forks/parser restores the roots enrolled on the branch before it:");
		await command(host, "/fovea roots");
	}
	say(`Projects: ${[shop, ml, docs, nested].map(rel).join(", ")}. Nothing was sent to any network.`);
} finally {
	await host.dispose();
	await cleanupTempDirs();
}
