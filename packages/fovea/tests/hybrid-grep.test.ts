// Hybrid grep through the real Pi host (issue 34, item 1): a native grep for an identifier, a qualified symbol or a
// path keeps its result and gets a Fovea section appended; a regex grep stays purely native; the setting turns it
// off; a graph error leaves a one-line note; a grep made inside another tool's execution gets the same section.

import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { cleanupTempDirs, type PiHost, tempDir } from "../../../test/e2e/harness.ts";
import { gitRepo, withHost } from "../../../test/e2e/support/workspaces.ts";
import { grepSubject } from "../src/extension/grep-subject.ts";
import { globalSettingsFile } from "../src/settings/files.ts";

const FOVEA = fileURLToPath(new URL("../src/extension/index.ts", import.meta.url));
const FABRIC = fileURLToPath(new URL("../../../test/e2e/fixtures/fabric-extension.ts", import.meta.url));
const MOVES_ROOT = fileURLToPath(new URL("./fixtures/moves-root-extension.ts", import.meta.url));

after(cleanupTempDirs);

const FILES = {
	"src/user-controller.ts": [
		"export class UserController {",
		"\tcreate(name: string): string {",
		"\t\treturn normalize(name);",
		"\t}",
		"}",
		"export function normalize(name: string): string {",
		"\treturn name.trim();",
		"}",
		"",
	].join("\n"),
	"src/app.ts": [
		'import { UserController } from "./user-controller";',
		"export function main(): string {",
		'\treturn new UserController().create(" x ");',
		"}",
		"",
	].join("\n"),
	"tests/user-controller.test.ts": [
		'import { normalize } from "../src/user-controller";',
		'export const checked = normalize(" y ");',
		"",
	].join("\n"),
};

async function repo(): Promise<string> {
	return gitRepo(join(await tempDir("pi-hybrid-"), "app"), FILES);
}

/** Greps once through the scripted model; returns the result text the model sees. */
async function grep(host: PiHost, args: Record<string, string | boolean | number>): Promise<string> {
	const run = await host.runTools([{ name: "grep", arguments: args }]);
	assert.equal(run.toolResults[0]?.isError, false, run.toolResults[0]?.text);
	return run.toolResults[0]?.text ?? "";
}

/** Writes the global settings file for the body, and removes it after. */
async function withGlobalSettings(json: unknown, body: () => Promise<void>): Promise<void> {
	const file = globalSettingsFile();
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, JSON.stringify(json));
	try {
		await body();
	} finally {
		rmSync(file, { force: true });
	}
}

describe("hybrid grep", () => {
	it("appends definitions, users and tests to an identifier grep and keeps the native result first", async () => {
		const root = await repo();
		await withHost({ cwd: root, extensions: [FOVEA] }, async (host) => {
			const text = await grep(host, { pattern: "normalize" });
			const [native, section] = text.split("── fovea");
			assert.match(native ?? "", /src\/user-controller\.ts:3:/, "grep's own lines come first, untouched");
			assert.ok(section !== undefined, `a Fovea section is appended:\n${text}`);
			assert.match(section, /identifier normalize/);
			assert.match(section, /defined:\n {2}src\/user-controller\.ts:6 {2}.*normalize\(name: string\)/);
			assert.match(section, /used by:\n(?: {2}.*\n)* {2}src\/user-controller\.ts:2 {2}UserController\.create/);
			assert.match(section, /tests:\n {2}tests\/user-controller\.test\.ts:\d+/);

			const qualified = await grep(host, { pattern: "UserController\\.create" });
			assert.match(qualified, /── fovea · qualified UserController\.create/);
			assert.match(qualified, /used by:\n {2}src\/app\.ts:2 {2}main/);

			const path = await grep(host, { pattern: "user-controller.ts" });
			assert.match(path, /── fovea · path user-controller\.ts/);
			assert.match(path, /defined:\n {2}src\/user-controller\.ts:1 {2}.*UserController/);
			assert.match(path, /used by:\n {2}src\/app\.ts:2 {2}main/);
		});
	});

	it("leaves a regex or option-heavy grep purely native", async () => {
		const root = await repo();
		await withHost({ cwd: root, extensions: [FOVEA] }, async (host) => {
			const regex = await grep(host, { pattern: "norm.*ize\\(" });
			assert.match(regex, /user-controller\.ts/);
			assert.doesNotMatch(regex, /── fovea/);
			const tailored = await grep(host, { pattern: "normalize", glob: "*.ts", ignoreCase: true });
			assert.doesNotMatch(tailored, /── fovea/);
		});
	});

	it("the fovea.hybridGrep.enabled setting (and FOVEA_HYBRID_GREP over it) turns the section off", async () => {
		const root = await repo();
		await withGlobalSettings({ fovea: { hybridGrep: { enabled: false } } }, async () => {
			await withHost({ cwd: root, extensions: [FOVEA] }, async (host) => {
				assert.doesNotMatch(await grep(host, { pattern: "normalize" }), /── fovea/);
				process.env.FOVEA_HYBRID_GREP = "1";
				try {
					assert.match(await grep(host, { pattern: "normalize" }), /── fovea/, "the environment wins over the file");
				} finally {
					delete process.env.FOVEA_HYBRID_GREP;
				}
			});
		});
	});

	it("a graph error leaves grep's result with one line saying so", async () => {
		const root = await repo();
		writeFileSync(join(root, "src/vanish.ts"), "export const vanishingName = 1;\n");
		await withHost({ cwd: dirname(root), extensions: [MOVES_ROOT, FOVEA] }, async (host) => {
			assert.match(await grep(host, { pattern: "normalize", path: "app" }), /── fovea/, "the map is built");
			const text = await grep(host, { pattern: "vanishingName", path: "app" });
			const lines = text.split("\n");
			assert.match(lines[0] ?? "", /vanish\.ts:1: export const vanishingName/, "grep's result is kept");
			const notes = lines.filter((line) => line.startsWith("[fovea"));
			assert.equal(notes.length, 1, text);
			assert.match(
				notes[0] ?? "",
				/^\[fovea: no code-map section for this grep \(the root .*app no longer exists.*\); the result above is grep's alone\]$/,
			);
			assert.doesNotMatch(text, /── fovea/);
		});
	});

	it("a grep made inside another tool's execution gets the same section", async () => {
		const root = await repo();
		await withHost({ cwd: root, extensions: [FOVEA, FABRIC] }, async (host) => {
			await host.runTools([
				{
					name: "fabric_exec",
					arguments: { source: "pi.grep('normalize')", calls: [{ name: "grep", args: { pattern: "normalize" } }] },
				},
			]);
			const nested = host.sessionEvents.find(
				(event) => event.type === "tool_execution_end" && event.toolName === "grep" && event.toolCallId.includes("/"),
			) as { result?: { content?: Array<{ text?: string }> } } | undefined;
			const text = nested?.result?.content?.map((part) => part.text ?? "").join("\n") ?? "";
			assert.match(text, /── fovea · identifier normalize/);
		});
	});
});

describe("which greps are hybrid", () => {
	it("classifies identifiers, qualified symbols, paths and routes; regexes and tailored searches are native", () => {
		assert.deepEqual(grepSubject({ pattern: "createUser" }), { kind: "identifier", text: "createUser" });
		assert.deepEqual(grepSubject({ pattern: "Controller\\.create" }), { kind: "qualified", text: "Controller.create" });
		assert.deepEqual(grepSubject({ pattern: "Foo::bar" }), { kind: "qualified", text: "Foo.bar" });
		assert.deepEqual(grepSubject({ pattern: "src/user/service.ts" }), { kind: "path", text: "src/user/service.ts" });
		assert.deepEqual(grepSubject({ pattern: "/api/users/:id" }), { kind: "route", text: "/api/users/:id" });
		for (const pattern of ["a.*b", "^foo", "foo|bar", "x", "foo(", "\\bname\\b"]) {
			assert.equal(grepSubject({ pattern }), undefined, pattern);
		}
		assert.equal(grepSubject({ pattern: "createUser", glob: "*.ts", context: 3 }), undefined);
		assert.deepEqual(grepSubject({ pattern: "createUser", glob: "*.ts" }), { kind: "identifier", text: "createUser" });
	});
});
