// Settings (issue 34, item 2): one core shared by Fovea and Contour. Precedence environment > repository file (only
// when the user trusts the repository, as Pi's trust store records it) > global file > default; a bad file is a
// problem naming the file and the key, never a crash; /fovea settings and /contour settings show and change them.

import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, afterEach, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { cleanupTempDirs, type PiHost, tempDir } from "../../../test/e2e/harness.ts";
import { commandText, gitRepo, withHost } from "../../../test/e2e/support/workspaces.ts";
import {
	agentDirectory,
	globalSettingsFile,
	mergeSettings,
	parseSettings,
	parseSettingText,
	problemText,
	repositorySettingsFile,
} from "../src/settings/index.ts";

const FOVEA = fileURLToPath(new URL("../src/extension/index.ts", import.meta.url));
const CONTOUR = fileURLToPath(new URL("../../contour/src/extension/index.ts", import.meta.url));

process.env.FOVEA_WARM_PROBE_MS = "20000";
after(cleanupTempDirs);

/** What the tests write in the agent directory (the harness's, for this process) goes after each test. */
const TRUST = join(agentDirectory(), "trust.json");
afterEach(() => {
	rmSync(globalSettingsFile(), { force: true });
	rmSync(TRUST, { force: true });
});

function writeJson(file: string, json: unknown): void {
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, typeof json === "string" ? json : JSON.stringify(json));
}

describe("settings core", () => {
	it("a bad file names the file and the key; its valid keys still apply", () => {
		const file = "/x/workspaces.json";
		const parsed = parseSettings(
			JSON.stringify({
				fovea: { hybridGrep: { enabled: "yes", maxTokens: 300 }, maxTokens: 5, colour: 1 },
				contour: 3,
			}),
			file,
		);
		assert.deepEqual(parsed.values, { "fovea.hybridGrep.maxTokens": 300 });
		assert.deepEqual(parsed.problems.map(problemText), [
			"/x/workspaces.json: fovea.hybridGrep.enabled: expected true or false",
			"/x/workspaces.json: fovea.maxTokens: 5 is out of range: expected an integer from 200 to 20000",
			`/x/workspaces.json: fovea.colour: unknown setting (known: ${parsed.problems[2]?.message.split("known: ")[1]}`,
			"/x/workspaces.json: contour: expected an object",
		]);
		assert.match(
			problemText(parseSettings("{ oops", file).problems[0] ?? { file, key: "", message: "" }),
			/^\/x\/workspaces\.json: \(file\): not valid JSON/,
		);
		assert.equal(parseSettings("[]", file).problems[0]?.message, "expected a JSON object");
		assert.equal(parseSettings('{"constructor": 1}', file).problems[0]?.key, "constructor");
	});

	it("merges env > repo > global > default and says where each value came from", () => {
		const merged = mergeSettings(
			[
				{ source: "global", values: { "fovea.maxTokens": 900, "fovea.sync.enabled": false, "contour.maxTokens": 700 } },
				{ source: "repo", values: { "fovea.maxTokens": 1200, "fovea.sync.enabled": true } },
			],
			{ FOVEA_SYNC: "0", CONTOUR_MAX_TOKENS: "99999999", FOVEA_HYBRID_GREP_TOKENS: "many" },
		);
		assert.equal(merged.settings["fovea.maxTokens"], 1200);
		assert.equal(merged.sources["fovea.maxTokens"], "repo");
		assert.equal(merged.settings["fovea.sync.enabled"], false);
		assert.equal(merged.sources["fovea.sync.enabled"], "env");
		assert.equal(merged.settings["contour.maxTokens"], 100_000, "an environment integer is clamped");
		assert.equal(merged.sources["fovea.hybridGrep.maxTokens"], "default", "a non-integer environment value is ignored");
		assert.equal(merged.settings["contour.observer.enabled"], true);
		assert.equal(mergeSettings([], { CONTOUR_BACKGROUND: "0" }).settings["contour.observer.enabled"], false);
		assert.equal(parseSettingText("fovea.sync.enabled", "off"), false);
		assert.throws(() => parseSettingText("fovea.maxTokens", "lots"), /fovea\.maxTokens: expected an integer/);
	});
});

/** A repository whose grep for `normalize` has something for Fovea to add. */
async function repo(): Promise<string> {
	return gitRepo(join(await tempDir("pi-settings-"), "app"), {
		"src/a.ts": "export function normalize(s: string): string {\n\treturn s.trim();\n}\n",
		"src/b.ts": 'import { normalize } from "./a";\nexport const b = normalize(" b ");\n',
	});
}

async function hybrid(host: PiHost): Promise<boolean> {
	const run = await host.runTools([{ name: "grep", arguments: { pattern: "normalize" } }]);
	return (run.toolResults[0]?.text ?? "").includes("── fovea");
}

describe("settings through the real Pi host", () => {
	it("environment > trusted repository file > global file; an untrusted repository's file is ignored", async () => {
		const root = await repo();
		writeJson(globalSettingsFile(), { fovea: { hybridGrep: { enabled: false } } });
		writeJson(repositorySettingsFile(root), { fovea: { hybridGrep: { enabled: true } } });
		await withHost({ cwd: root, extensions: [FOVEA] }, async (host) => {
			assert.equal(await hybrid(host), false, "the global file applies; the untrusted repository's does not");
			const untrusted = await commandText(host, "/fovea settings");
			assert.match(untrusted, /fovea\.hybridGrep\.enabled = false {2}\[global\]/);
			assert.match(untrusted, /repository file: .*\.pi\/workspaces\.json \(ignored: not trusted \(\/trust\)\)/);

			writeJson(TRUST, { [root]: true });
			assert.equal(await hybrid(host), true, "once trusted, the repository's file wins over the global one");
			assert.match(await commandText(host, "/fovea settings"), /fovea\.hybridGrep\.enabled = true {2}\[repo\]/);

			process.env.FOVEA_HYBRID_GREP = "0";
			try {
				assert.equal(await hybrid(host), false, "the environment wins over both files");
				assert.match(
					await commandText(host, "/fovea settings"),
					/fovea\.hybridGrep\.enabled = false {2}\[env FOVEA_HYBRID_GREP\]/,
				);
			} finally {
				delete process.env.FOVEA_HYBRID_GREP;
			}

			writeJson(TRUST, { [dirname(root)]: true, [root]: false });
			assert.equal(await hybrid(host), false, "the nearest decision wins, as in Pi: the repository is declined");
		});
	});

	it("a bad settings file is an error naming the file and key, and the session goes on with the rest", async () => {
		const root = await repo();
		writeJson(globalSettingsFile(), { fovea: { hybridGrep: { enabled: "sometimes" }, maxTokens: 250 } });
		await withHost({ cwd: root, extensions: [FOVEA, CONTOUR] }, async (host) => {
			assert.equal(await hybrid(host), true, "the bad key falls back to its default");
			const shown = await commandText(host, "/fovea settings");
			assert.ok(
				shown.includes(`problem: ${globalSettingsFile()}: fovea.hybridGrep.enabled: expected true or false`),
				shown,
			);
			assert.match(shown, /fovea\.maxTokens = 250 {2}\[global\]/, "the file's valid keys apply");
			await host.prompt("go");
			await host.prompt("again");
			const told = host.ui.notifications.filter((n) => n.message.startsWith("pi-fovea settings:"));
			assert.deepEqual(
				told.map((n) => n.type),
				["error"],
				"the problem is told once, as an error, before a run",
			);
			assert.ok(told[0]?.message.includes(`${globalSettingsFile()}: fovea.hybridGrep.enabled: expected true or false`));
			writeJson(globalSettingsFile(), "{ not json");
			assert.ok(
				(await commandText(host, "/contour settings")).includes(
					`problem: ${globalSettingsFile()}: (file): not valid JSON`,
				),
			);
			const run = await host.runTools([{ name: "fovea_sketch", arguments: {} }]);
			assert.equal(run.toolResults[0]?.isError, false, "tools work on defaults");
		});
	});

	it("/fovea settings set and unset change the global or the repository file; bad input is a clear error", async () => {
		const root = await repo();
		await withHost({ cwd: root, extensions: [FOVEA, CONTOUR] }, async (host) => {
			const set = await commandText(host, "/fovea settings set hybridGrep.enabled off");
			assert.match(set, /set fovea\.hybridGrep\.enabled in .*workspaces\.json/);
			assert.deepEqual(JSON.parse(readFileSync(globalSettingsFile(), "utf8")), {
				fovea: { hybridGrep: { enabled: false } },
			});
			assert.equal(await hybrid(host), false);
			await commandText(host, "/fovea settings unset fovea.hybridGrep.enabled");
			assert.equal(await hybrid(host), true);

			const repoSet = await commandText(host, "/contour settings set observer.enabled false --repo");
			assert.match(repoSet, /applies once you trust this repository/);
			assert.deepEqual(JSON.parse(readFileSync(repositorySettingsFile(root), "utf8")), {
				contour: { observer: { enabled: false } },
			});
			assert.match(await commandText(host, "/contour settings"), /contour\.observer\.enabled = true {2}\[default\]/);

			const bad = await host.command("/fovea settings set maxTokens lots");
			assert.equal(bad.notifications[0]?.type, "error");
			assert.match(bad.notifications[0]?.message ?? "", /fovea\.maxTokens: expected an integer from 200 to 20000/);
			const unknown = await host.command("/fovea settings set observer.enabled true");
			assert.match(unknown.notifications[0]?.message ?? "", /unknown setting 'observer\.enabled'/);
		});
	});

	it("fovea.sync.enabled false keeps the drift message back", async () => {
		const root = gitRepo(
			join(await tempDir(), "app"),
			{ "src/helper.ts": "export function helper(): number {\n\treturn 1;\n}\n" },
			{ commit: true },
		);
		writeJson(globalSettingsFile(), { fovea: { sync: { enabled: false } } });
		await withHost({ cwd: root, extensions: [FOVEA] }, async (host) => {
			await host.runTools([{ name: "read", arguments: { path: "src/helper.ts" } }]);
			await commandText(host, "/fovea status");
			appendFileSync(join(root, "src/helper.ts"), "export function added(): void {}\n");
			await host.prompt("continue");
			const synced = () =>
				(host.branch() as Array<{ type: string; customType?: string }>).filter(
					(entry) => entry.type === "custom_message" && entry.customType === "fovea-sync",
				).length;
			assert.equal(synced(), 0, "no drift message while sync is off");
			await commandText(host, "/fovea settings set sync.enabled true");
			await host.prompt("again");
			assert.equal(synced(), 1, "the change is told once sync is on again");
		});
	});
});
