// An offline Pi session through the real host: a scripted model roams through four projects while pi-fovea and
// pi-contour keep one observation domain per root, asks Fovea where something lives and asks Contour what a staged
// change did to the structure; then pi-crew runs a team of two scripted child agents (real `pi` processes), one
// steered while it works, and shows its widget and the result. No API key, no network.
//
//   npm run demo

import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import {
	CREW_EXTENSION,
	crewWorld,
	team,
	until,
	widget,
	writeDefinitions,
} from "../packages/crew/tests/extension/support/crew-world.ts";
import { cleanupTempDirs, type PiHost, type ScriptedToolCall, startHost, tempDir } from "../test/e2e/harness.ts";
import { git, gitRepo, writeFiles } from "../test/e2e/support/workspaces.ts";

const extensions = ["fovea", "contour"].map((name) =>
	fileURLToPath(new URL(`../packages/${name}/src/extension/index.ts`, import.meta.url)),
);

function project(dir: string, files: Record<string, string>, isGit: boolean): string {
	if (isGit) return gitRepo(dir, files, { commit: true });
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

function firstLines(text: string | undefined, count: number): string[] {
	const lines = (text ?? "(no answer)").split("\n");
	return lines.length <= count ? lines : [...lines.slice(0, count), `… (${lines.length - count} more lines)`];
}

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

	const focus = await host.runTools([{ name: "fovea_focus", arguments: { query: "listen on a port", root: shop } }]);
	show('model asks fovea_focus "listen on a port" in shop-api:', firstLines(focus.toolResults[0]?.text, 8));

	// Someone stages a change in shop-api; the model asks Contour what it did to the structure.
	writeFiles(shop, {
		"src/server.ts": [
			"export function listen(port: number, host: string, tls: boolean): string {",
			"\tif (port < 1 || port > 65535) throw new Error('bad port');",
			"\tif (tls && host === 'localhost') return 'https://' + host + ':' + port;",
			"\telse if (tls) return 'https://' + host + ':' + port + '/secure';",
			"\tfor (const reserved of [22, 25, 53]) if (port === reserved) return 'reserved';",
			"\treturn host.length > 0 ? 'http://' + host + ':' + port : 'http://0.0.0.0:' + port;",
			"}",
			"",
		].join("\n"),
	});
	git(shop, "add", "-A");
	const review = await host.runTools([{ name: "contour_review", arguments: { root: shop, maxTokens: 500 } }]);
	show("model asks contour_review of shop-api (staged):", firstLines(review.toolResults[0]?.text, 14));

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
	say(`Projects: ${[shop, ml, docs, nested].map(rel).join(", ")}.`);
} finally {
	await host.dispose();
}

/** pi-crew: a team of two scripted child agents, the first steered while it waits at a gate, the second after it. */
async function crewDemo(): Promise<void> {
	const world = await crewWorld(await tempDir("pi-crew-demo-"));
	const ws = join(world.root, "shop");
	await writeDefinitions(ws, {
		pair: "roles:\n  - { role: w, agent: worker }\nworkflow:\n  - { id: build, role: w, instructions: DEMO-BUILD }\n  - { id: check, role: w, dependsOn: [build], instructions: DEMO-CHECK }",
	});
	await world.route("DEMO-BUILD", [world.gate("build"), "Built the login page; the steer said to keep the old CSS."]);
	await world.route("DEMO-CHECK", ["Checked the login page: it renders and the old CSS is kept."]);
	const crewHost = await startHost({ cwd: ws, extensions: [CREW_EXTENSION] });
	try {
		say("\npi-crew: the model starts the team pair (build, then check) on a goal:");
		const started = await team(crewHost, { action: "run", team: "pair", goal: "Add a login page to the shop" });
		show("   team run answers the model:", started.text.split("\n"));
		const runId = String(started.details.runId);
		await until(() => world.requests("DEMO-BUILD").length > 0, "the build agent at work");
		await until(() => widget(crewHost)?.some((l) => l.includes("build · running")), "the widget");
		show(
			"   the widget (plain lines over RPC; the TUI colours them and fits them to its width):",
			widget(crewHost) ?? [],
		);
		const steer = { action: "steer-agent", agentId: `${runId}:build`, message: "Keep the old CSS." } as const;
		show("   the model steers the working agent:", (await team(crewHost, steer)).text.split("\n"));
		await world.open("build");
		await until(async () => (await team(crewHost, { action: "status", runId })).details.status === "done", "the run");
		await until(() => widget(crewHost) === undefined, "the widget cleared");
		show(
			"   the person is told:",
			crewHost.ui.notifiedTexts.filter((t) => t.startsWith("pi-crew: run")),
		);
		await crewHost.prompt("anything new from the team?");
		const told = crewHost
			.entries()
			.filter((e) => e.type === "custom_message" && e.customType === "pi-crew-run")
			.flatMap((e) => String((e as { content?: unknown }).content).split("\n"));
		show("   the model reads on its next turn (pi-crew-run):", told);
	} finally {
		await crewHost.dispose();
	}
}

try {
	await crewDemo();
	say("Nothing was sent to any network.");
} finally {
	await cleanupTempDirs();
}
