/**
 * Where the settings files live and how they are read and written: `<agentDir>/workspaces.json` for every project,
 * `<repository>/.pi/workspaces.json` for one repository (applied only when the user trusts it, see `trust.ts`).
 * Reading never throws: a missing file sets nothing, a bad one is a problem naming the file and key.
 *
 * @module
 */

import { readFileSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { writeAtomic } from "../engine/atomic-write.ts";
import { mergeSettings, type ResolvedSettings, type SettingsLayer } from "./merge.ts";
import { type ParsedSettings, parseSettings, type SettingsProblem } from "./parse.ts";
import type { SettingKey, SettingValue } from "./schema.ts";
import { repositoryTrust } from "./trust.ts";

/** The settings file's name, in the agent directory and in a repository's `.pi` directory. */
export const SETTINGS_FILE_NAME = "workspaces.json";

type Env = Record<string, string | undefined>;

/** Pi's agent directory as Pi finds it: PI_CODING_AGENT_DIR (with `~` expanded), else `~/.pi/agent`. */
export function agentDirectory(env: Env = process.env, home: string = homedir()): string {
	const fromEnv = env.PI_CODING_AGENT_DIR?.trim();
	if (!fromEnv) return join(home, ".pi", "agent");
	if (fromEnv === "~") return home;
	if (fromEnv.startsWith("~/")) return join(home, fromEnv.slice(2));
	return resolve(fromEnv);
}

/** The global settings file. */
export function globalSettingsFile(env: Env = process.env): string {
	return join(agentDirectory(env), SETTINGS_FILE_NAME);
}

/** A repository's settings file. */
export function repositorySettingsFile(root: string): string {
	return join(root, ".pi", SETTINGS_FILE_NAME);
}

/** The effective settings with what went into them. */
export interface LoadedSettings extends ResolvedSettings {
	problems: SettingsProblem[];
	global: string;
	/** The repository's file and whether it applied (it does only when the repository is trusted). */
	repo?: { file: string; trusted: boolean; exists: boolean };
}

/** Reads and validates one file; a missing file sets nothing. Synchronous: the files are a few hundred bytes. */
export function readSettingsFile(file: string): ParsedSettings & { exists: boolean } {
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return { values: {}, problems: [], exists: false };
		return { values: {}, problems: [{ file, key: "(file)", message: `unreadable: ${String(code)}` }], exists: true };
	}
	return { ...parseSettings(text, file), exists: true };
}

/** The effective settings for `root` (the session's, when omitted): env > trusted repository file > global file. */
export async function loadSettings(root?: string, env: Env = process.env): Promise<LoadedSettings> {
	const global = globalSettingsFile(env);
	const parsed = readSettingsFile(global);
	const problems = [...parsed.problems];
	const layers: SettingsLayer[] = [{ source: "global", values: parsed.values }];
	let repo: LoadedSettings["repo"];
	if (root !== undefined) {
		const file = repositorySettingsFile(root);
		const own = readSettingsFile(file);
		repo = { file, trusted: false, exists: own.exists };
		if (own.exists) {
			const trust = await repositoryTrust(root, agentDirectory(env));
			repo.trusted = trust.trusted;
			if (trust.problem !== undefined) problems.push({ file, key: "(trust)", message: trust.problem });
			if (trust.trusted) {
				problems.push(...own.problems);
				layers.push({ source: "repo", values: own.values });
			}
		}
	}
	return { ...mergeSettings(layers, env), problems, global, ...(repo === undefined ? {} : { repo }) };
}

/** The effective settings without a repository layer (environment > global file > default), read synchronously. */
export function globalSettings(env: Env = process.env): ResolvedSettings {
	return mergeSettings([{ source: "global", values: readSettingsFile(globalSettingsFile(env)).values }], env);
}

/**
 * Sets (or with `undefined` removes) `key` in `file`, keeping its other content. A file that is not a JSON object is
 * refused rather than overwritten.
 */
export async function writeSetting(file: string, key: SettingKey, value: SettingValue | undefined): Promise<void> {
	let json: Record<string, unknown> = {};
	const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
		if (error.code === "ENOENT") return undefined;
		throw error;
	});
	if (text !== undefined) {
		const parsed: unknown = JSON.parse(text.replace(/^\uFEFF/, ""));
		if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
			throw new Error(`${file}: (file): expected a JSON object; fix or remove it first`);
		}
		json = parsed as Record<string, unknown>;
	}
	const parts = key.split(".");
	const last = parts.pop() as string;
	let node = json;
	for (const part of parts) {
		const next = node[part];
		if (next === null || typeof next !== "object" || Array.isArray(next)) node[part] = {};
		node = node[part] as Record<string, unknown>;
	}
	if (value === undefined) delete node[last];
	else node[last] = value;
	await mkdir(dirname(file), { recursive: true });
	await writeAtomic(file, `${JSON.stringify(json, null, "\t")}\n`);
}
