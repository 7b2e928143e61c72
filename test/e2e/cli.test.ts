/**
 * The extensions in the real `pi` CLI, loaded the two ways users load them:
 * - from a checkout: `pi -e ./packages/fovea -e ./packages/contour`;
 * - installed from packed tarballs: `npm pack --workspace …` then
 *   `pi install npm:pi-<name>@file:/abs/path/pi-<name>-0.1.0.tgz`.
 *
 * Both spawn real `pi --mode rpc` processes with a scripted model (`fixtures/faux-model-extension.ts`, whose
 * contract the first test pins through `pi -p`), an isolated agent directory and offline mode, in a temp cwd holding
 * two Git repositories. The scripted model reads a file in repo A and lists repo B; `/fovea roots` and
 * `/contour status` must then list B, A (most recent first), and the session file must hold the rings as
 * `pi-fovea-workspace` / `pi-contour-workspace` custom entries.
 */
import assert from "node:assert/strict";
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { cp, mkdir, symlink } from "node:fs/promises";
import { basename, join } from "node:path";
import { after, describe, it } from "node:test";
import { cleanupTempDirs, tempDir } from "./harness.ts";
import {
	CLI_TEST_SETTINGS,
	customEntryData,
	FAUX_MODEL_ARGS,
	FAUX_MODEL_EXTENSION,
	PiRpc,
	piEnv,
	REPO_ROOT,
	readSessionFile,
	run,
	runPi,
	toolExecutions,
	writeAgentSettings,
	writeFauxScript,
} from "./support/pi-cli.ts";
import { CONTOUR_ENTRY, FOVEA_ENTRY, gitRepo, listedRoots } from "./support/workspaces.ts";

const TEST_TIMEOUT_MS = 60_000;
const FOVEA_PACKAGE = join(REPO_ROOT, "packages", "fovea");
const CONTOUR_PACKAGE = join(REPO_ROOT, "packages", "contour");

after(async () => {
	await cleanupTempDirs();
});

interface Fixture {
	/** Session cwd: a plain directory (no project marker) holding both repositories. */
	cwd: string;
	repoA: string;
	repoB: string;
	agentDir: string;
	sessionDir: string;
	script: string;
}

async function fixture(): Promise<Fixture> {
	const base = await tempDir("pi-cli-");
	const cwd = join(base, "work");
	const repoA = gitRepo(join(cwd, "repo-a"), { "README.md": "# repo A\n", "src/a.ts": "export const a = 1;\n" });
	const repoB = gitRepo(join(cwd, "repo-b"), { "README.md": "# repo B\n", "lib/b.ts": "export const b = 2;\n" });
	const agentDir = join(base, "agent");
	const sessionDir = join(base, "sessions");
	await mkdir(agentDir, { recursive: true });
	await mkdir(sessionDir, { recursive: true });
	await writeAgentSettings(agentDir);
	const script = await writeFauxScript(join(base, "script.json"), [
		{ toolCalls: [{ name: "read", arguments: { path: join(repoA, "src", "a.ts") } }] },
		{ toolCalls: [{ name: "ls", arguments: { path: repoB } }] },
		{ text: "read repo A, listed repo B" },
	]);
	return { cwd, repoA, repoB, agentDir, sessionDir, script };
}

/** `pi --mode rpc` in the fixture cwd with the scripted model, `--tools +ls`, plus `extensionArgs`. */
function startPi(fx: Fixture, extensionArgs: readonly string[]): PiRpc {
	return PiRpc.start({
		cwd: fx.cwd,
		env: piEnv(fx.agentDir, { PI_FAUX_SCRIPT: fx.script }),
		args: [
			...FAUX_MODEL_ARGS,
			"--session-dir",
			fx.sessionDir,
			"--tools",
			"+ls",
			"-e",
			FAUX_MODEL_EXTENSION,
			...extensionArgs,
		],
	});
}

/** The text of the single notification an extension command produced. */
async function commandText(pi: PiRpc, command: string): Promise<string> {
	const exchange = await pi.prompt(command);
	assert.equal((exchange.response.data as { disposition?: string }).disposition, "handled", `${command} is handled`);
	const texts = exchange.notifications.map((notification) => notification.message);
	assert.equal(texts.length, 1, `${command}: one notification, got ${JSON.stringify(texts)}`);
	return texts[0] as string;
}

/**
 * A copy of the checkout as `npm pack` sees it: the root manifest, the pack script, `packages/*` without `node_modules`, and the
 * workspace links npm install makes (`node_modules/<name>` → `../packages/<dir>`).
 */
async function stageCheckout(): Promise<string> {
	const stage = await tempDir("pi-cli-stage-");
	await cp(join(REPO_ROOT, "package.json"), join(stage, "package.json"));
	// The packages' prepack copies pi-fovea in with the repository's script.
	await cp(join(REPO_ROOT, "scripts", "bundle-fovea.mjs"), join(stage, "scripts", "bundle-fovea.mjs"));
	await cp(join(REPO_ROOT, "packages"), join(stage, "packages"), {
		recursive: true,
		// Not `node_modules`, nor the bundles `cli-bundles.test.ts` builds (and removes) inside the packages meanwhile:
		// copying one that vanished mid-copy failed this test.
		filter: (source) => basename(source) !== "node_modules" && !basename(source).startsWith(".test-dist-"),
	});
	await mkdir(join(stage, "node_modules"));
	await symlink(join("..", "packages", "fovea"), join(stage, "node_modules", "pi-fovea"));
	await symlink(join("..", "packages", "contour"), join(stage, "node_modules", "pi-contour"));
	return stage;
}

function sessionFiles(dir: string): string[] {
	return readdirSync(dir, { recursive: true, encoding: "utf8" })
		.filter((name) => name.endsWith(".jsonl"))
		.map((name) => join(dir, name));
}

/**
 * The roaming scenario through RPC: scripted read in repo A and ls of repo B, then `/fovea roots` and
 * `/contour status`; after an orderly shutdown, the session file holds both rings. `from` names the directories
 * the `/fovea` and `/contour` commands must be loaded from.
 */
async function roamAndCheck(fx: Fixture, pi: PiRpc, from: { fovea: string; contour: string }): Promise<void> {
	const state = (await pi.request({ type: "get_state" })) as {
		model?: { provider: string; id: string };
		sessionFile?: string;
	};
	assert.deepEqual(
		{ provider: state.model?.provider, id: state.model?.id },
		{ provider: "pi-faux", id: "scripted" },
		"the scripted model is selected",
	);

	const commands = (await pi.request({ type: "get_commands" })) as {
		commands: { name: string; sourceInfo?: { path?: string } }[];
	};
	const names = commands.commands.map((command) => command.name);
	for (const [name, dir] of Object.entries(from)) {
		const command = commands.commands.find((candidate) => candidate.name === name);
		assert.ok(command !== undefined, `/${name} is registered (commands: ${names.join(", ")})`);
		const path = command.sourceInfo?.path ?? "";
		assert.ok(path.startsWith(`${dir}/`), `/${name} comes from ${dir}, not ${path}`);
	}

	const roam = await pi.prompt("read a file in repo A, then list repo B");
	assert.deepEqual(
		toolExecutions(roam.records),
		[
			{ toolName: "read", isError: false },
			{ toolName: "ls", isError: false },
		],
		"the scripted tool calls ran and succeeded",
	);
	const settled = roam.records.at(-1);
	assert.equal(settled?.type, "agent_settled");
	assert.equal(settled?.aborted, false);

	const expected = [fx.repoB, fx.repoA];
	const fovea = listedRoots(await commandText(pi, "/fovea roots"));
	assert.deepEqual(
		fovea.map((row) => row.root),
		expected,
		"/fovea roots lists B then A",
	);
	assert.deepEqual(
		fovea.map((row) => row.marker),
		["git", "git"],
	);
	const contour = listedRoots(await commandText(pi, "/contour status"));
	assert.deepEqual(
		contour.map((row) => row.root),
		expected,
		"/contour status lists B then A",
	);

	const closed = await pi.close();
	assert.equal(closed.code, 0, `pi exits cleanly after stdin closes\n${pi.describe()}`);
	assert.deepEqual(pi.strayStdout, [], "stdout holds only protocol records");

	const files = sessionFiles(fx.sessionDir);
	assert.equal(files.length, 1, `one session file under the session dir: ${JSON.stringify(files)}`);
	assert.equal(files[0], state.sessionFile, "get_state names the same session file");
	const records = readSessionFile(files[0] as string);
	for (const customType of [FOVEA_ENTRY, CONTOUR_ENTRY]) {
		const entries = customEntryData<{ version: number; roots: string[] }>(records, customType);
		assert.ok(entries.length > 0, `${customType} entries are persisted`);
		assert.deepEqual(entries.at(-1), { version: 1, roots: expected }, `newest ${customType} holds B, A`);
	}
}

describe("the real pi CLI", () => {
	it("answers from the faux model script: routes by first user message, default reply, request log", {
		timeout: TEST_TIMEOUT_MS,
	}, async () => {
		const base = await tempDir("pi-cli-faux-");
		const agentDir = join(base, "agent");
		await mkdir(agentDir, { recursive: true });
		await writeAgentSettings(agentDir);
		const script = await writeFauxScript(join(base, "script.json"), {
			turns: ["top-level answer"],
			routes: [{ match: "task alpha", turns: [{ thinking: "hmm", text: "alpha answer" }] }],
		});
		const log = join(base, "requests.jsonl");
		const env = piEnv(agentDir, { PI_FAUX_SCRIPT: script, PI_FAUX_LOG: log, PI_FAUX_DEFAULT_REPLY: "fallback" });
		const args = [...FAUX_MODEL_ARGS, "-e", FAUX_MODEL_EXTENSION, "--no-session", "-p"];
		const alpha = await runPi([...args, "do task alpha", "and again"], { cwd: base, env });
		assert.equal(alpha.code, 0, alpha.stderr);
		assert.equal(alpha.stdout.trim(), "fallback", "the second prompt exhausts the alpha route");
		const other = await runPi([...args, "something else"], { cwd: base, env });
		assert.equal(other.code, 0, other.stderr);
		assert.equal(other.stdout.trim(), "top-level answer");
		const requests = readFileSync(log, "utf8")
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line) as Record<string, unknown>);
		assert.deepEqual(
			requests.map(({ route, index, source, firstUser, lastUser }) => ({ route, index, source, firstUser, lastUser })),
			[
				{ route: "task alpha", index: 0, source: "script", firstUser: "do task alpha", lastUser: "do task alpha" },
				{ route: "task alpha", index: 1, source: "default", firstUser: "do task alpha", lastUser: "and again" },
				{ route: null, index: 0, source: "script", firstUser: "something else", lastUser: "something else" },
			],
		);
		assert.ok((requests[0]?.toolNames as string[] | undefined)?.includes("read"), "the log lists the declared tools");
	});

	it("loads pi-fovea and pi-contour from a checkout (pi -e ./packages/fovea -e ./packages/contour)", {
		timeout: TEST_TIMEOUT_MS,
	}, async () => {
		const fx = await fixture();
		const pi = startPi(fx, ["-e", FOVEA_PACKAGE, "-e", CONTOUR_PACKAGE]);
		try {
			await roamAndCheck(fx, pi, { fovea: FOVEA_PACKAGE, contour: CONTOUR_PACKAGE });
		} finally {
			await pi.close();
		}
	});

	it("loads pi-fovea and pi-contour installed from packed tarballs (pi install npm:<name>@file:/abs/path.tgz), and pi-crew alone", {
		timeout: TEST_TIMEOUT_MS,
	}, async () => {
		const fx = await fixture();
		const packDir = await tempDir("pi-cli-pack-");

		// Packed from a staged copy of the checkout: pi-contour's prepack copies pi-fovea into
		// packages/contour/node_modules, which would shadow the workspace link for tests running concurrently.
		const stage = await stageCheckout();
		const pack = await run(
			"npm",
			[
				"pack",
				...["--workspace", "packages/fovea", "--workspace", "packages/contour", "--workspace", "packages/crew"],
				...["--pack-destination", packDir],
			],
			{ cwd: stage, timeoutMs: 30_000 },
		);
		assert.equal(pack.code, 0, `npm pack succeeds\n${pack.stderr}`);
		const foveaTarball = join(packDir, "pi-fovea-0.1.0.tgz");
		const contourTarball = join(packDir, "pi-contour-0.1.0.tgz");
		const crewTarball = join(packDir, "pi-crew-0.1.0.tgz");
		assert.ok(
			existsSync(foveaTarball) && existsSync(contourTarball) && existsSync(crewTarball),
			`the three tarballs packed: ${pack.stdout}`,
		);

		// postpack removed the copy prepack bundled, so the workspace symlink of pi-fovea is not shadowed.
		for (const name of ["contour", "crew"]) {
			const bundledCopy = join(stage, "packages", name, "node_modules", "pi-fovea");
			assert.equal(existsSync(bundledCopy), false, `postpack removed pi-${name}'s bundled copy`);
		}
		assert.ok(lstatSync(join(stage, "node_modules", "pi-fovea")).isSymbolicLink(), "workspace link intact");

		for (const tarball of [contourTarball, crewTarball]) {
			const listing = await run("tar", ["-tzf", tarball], { cwd: packDir });
			assert.equal(listing.code, 0, listing.stderr);
			assert.ok(
				listing.stdout.split("\n").includes("package/node_modules/pi-fovea/src/workspace/index.ts"),
				`${basename(tarball)} carries pi-fovea`,
			);
		}

		// The source names the package: Pi 1.6 takes everything before an `@` as the package name, so a bare
		// `npm:/abs/pi-fovea-0.1.0.tgz` installs but is looked up as `node_modules//abs/pi-fovea-0.1.0.tgz` at
		// startup and never loads. `pi install` runs npm; prefer its cache so a warm cache needs no registry.
		const sources = [`npm:pi-fovea@file:${foveaTarball}`, `npm:pi-contour@file:${contourTarball}`];
		const installEnv = piEnv(fx.agentDir, { npm_config_prefer_offline: "true" });
		for (const source of sources) {
			const install = await runPi(["install", source], { cwd: fx.cwd, env: installEnv, timeoutMs: 45_000 });
			assert.equal(install.code, 0, `pi install ${source}\n${install.stdout}\n${install.stderr}`);
		}

		const installed = join(fx.agentDir, "npm", "node_modules");
		assert.ok(existsSync(join(installed, "pi-fovea", "src", "extension", "index.ts")), "pi-fovea installed");
		assert.ok(existsSync(join(installed, "pi-contour", "src", "extension", "index.ts")), "pi-contour installed");
		assert.ok(
			existsSync(join(installed, "pi-contour", "node_modules", "pi-fovea", "src", "workspace", "index.ts")),
			"pi-contour's bundled pi-fovea installed",
		);
		const settings = JSON.parse(readFileSync(join(fx.agentDir, "settings.json"), "utf8")) as Record<string, unknown>;
		assert.deepEqual(settings.packages, sources, "packages recorded");
		for (const [key, value] of Object.entries(CLI_TEST_SETTINGS)) {
			assert.deepEqual(settings[key], value, `pi install keeps the existing setting ${key}`);
		}

		// The installed commands run their bundles: Node refuses to strip types under node_modules, so the sources
		// alone could not run there.
		const project = gitRepo(join(packDir, "project"), {
			"src/a.ts": "export function a(): number {\n\treturn 1;\n}\n",
		});
		for (const [command, args] of [
			[join(installed, "pi-fovea", "bin", "fovea.js"), ["status", "--json", "--root", project]],
			[join(installed, "pi-contour", "bin", "contour.js"), ["review", "--working-tree", "--json", "--root", project]],
		] as const) {
			const cli = await run(process.execPath, [command, ...args], {
				cwd: packDir,
				env: { ...process.env, XDG_CACHE_HOME: join(packDir, "cache"), FOVEA_CACHE_DIR: "", CONTOUR_CACHE_DIR: "" },
			});
			assert.equal(cli.code, 0, `${basename(command)} installed: ${cli.stderr}`);
			assert.doesNotThrow(() => JSON.parse(cli.stdout), `${basename(command)} prints its JSON report`);
		}

		const pi = startPi(fx, []);
		try {
			await roamAndCheck(fx, pi, { fovea: join(installed, "pi-fovea"), contour: join(installed, "pi-contour") });
		} finally {
			await pi.close();
		}

		// pi-crew alone into a fresh agent directory: it carries the kernel, so nothing named pi-fovea is fetched.
		const aloneDir = join(packDir, "agent-crew-alone");
		await mkdir(aloneDir, { recursive: true });
		await writeAgentSettings(aloneDir);
		const crewSource = `npm:pi-crew@file:${crewTarball}`;
		const aloneEnv = piEnv(aloneDir, { npm_config_prefer_offline: "true" });
		const crewInstall = await runPi(["install", crewSource], { cwd: fx.cwd, env: aloneEnv, timeoutMs: 45_000 });
		assert.equal(crewInstall.code, 0, `pi install ${crewSource}\n${crewInstall.stdout}\n${crewInstall.stderr}`);
		const crewInstalled = join(aloneDir, "npm", "node_modules", "pi-crew");
		assert.ok(existsSync(join(crewInstalled, "node_modules", "pi-fovea", "src", "workspace", "index.ts")));
		// And it works there: the first /team commands of a session load the installed package's modules.
		const alone = PiRpc.start({
			cwd: fx.cwd,
			env: piEnv(aloneDir, { PI_FAUX_SCRIPT: fx.script }),
			args: [...FAUX_MODEL_ARGS, "--session-dir", fx.sessionDir, "-e", FAUX_MODEL_EXTENSION],
		});
		try {
			for (const [command, expected] of [
				["/team teams", "plan-implement-review"],
				["/team status", "No runs yet"],
			] as const) {
				const shown = JSON.stringify((await alone.prompt(command)).records);
				assert.ok(shown.includes(expected), `${command} in pi-crew installed alone: ${shown.slice(0, 2000)}`);
				assert.doesNotMatch(shown, /Cannot read properties|is not a function/);
			}
		} finally {
			await alone.close();
		}
	});
});
