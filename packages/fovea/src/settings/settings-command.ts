/**
 * `/fovea settings` and `/contour settings`: show the effective settings of one extension with where each value
 * came from and every file problem, or change one (`set KEY VALUE`, `unset KEY`, `--repo` for the repository's file).
 *
 * @module
 */

import { printable } from "../cli/printable.ts";
import { loadSettings, repositorySettingsFile, writeSetting } from "./files.ts";
import { parseSettingText, problemText } from "./parse.ts";
import { isSettingKey, SETTING_KEYS, SETTINGS, type SettingKey } from "./schema.ts";

/** The usage line of the subcommand. */
export const SETTINGS_USAGE = "[set KEY VALUE | unset KEY] [--repo]";

/**
 * Runs the subcommand for the extension `owner` (its keys are `<owner>.…`; a key may be given without the prefix).
 * `root` is the session cwd's project, whose `.pi/workspaces.json` is the repository layer.
 */
export async function settingsCommand(
	owner: "fovea" | "contour",
	root: string | undefined,
	args: string,
): Promise<string> {
	const words = args.split(/\s+/).filter((word) => word.length > 0);
	const repo = words.includes("--repo");
	const [verb, name, value, ...extra] = words.filter((word) => word !== "--repo");
	if (verb === undefined) return show(owner, root);
	if ((verb !== "set" && verb !== "unset") || name === undefined || extra.length > 0) {
		throw new Error(`usage: /${owner} settings ${SETTINGS_USAGE}`);
	}
	const key = ownKey(owner, name);
	if (repo && root === undefined) throw new Error("--repo needs a session cwd inside a project");
	const loaded = await loadSettings(root);
	const file = repo ? repositorySettingsFile(root as string) : loaded.global;
	if (verb === "set") {
		if (value === undefined) throw new Error(`usage: /${owner} settings set KEY VALUE [--repo]`);
		await writeSetting(file, key, parseSettingText(key, value));
	} else {
		if (value !== undefined) throw new Error(`usage: /${owner} settings unset KEY [--repo]`);
		await writeSetting(file, key, undefined);
	}
	const note = repo && loaded.repo?.trusted !== true ? " (applies once you trust this repository with /trust)" : "";
	const done = `pi-${owner}: ${verb === "set" ? `set ${key}` : `removed ${key}`} in ${file}${note}`;
	return `${printable(done)}\n${await show(owner, root)}`;
}

/** The effective settings of `owner`, their sources, the files read and their problems. */
async function show(owner: "fovea" | "contour", root: string | undefined): Promise<string> {
	const loaded = await loadSettings(root);
	const lines = [`pi-${owner} settings (environment > trusted repository > global > default)`];
	for (const key of SETTING_KEYS.filter((k) => k.startsWith(`${owner}.`))) {
		const spec = SETTINGS[key];
		const from = loaded.sources[key] === "env" ? `env ${spec.env}` : loaded.sources[key];
		lines.push(`  ${key} = ${String(loaded.settings[key])}  [${from}]  ${spec.description}`);
	}
	lines.push(`global file: ${loaded.global}`);
	if (loaded.repo !== undefined) {
		const state = !loaded.repo.exists
			? "none"
			: loaded.repo.trusted
				? "applied (trusted)"
				: "ignored: not trusted (/trust)";
		lines.push(`repository file: ${loaded.repo.file} (${state})`);
	}
	for (const problem of loaded.problems) lines.push(`problem: ${problemText(problem)}`);
	return lines.map(printable).join("\n");
}

/** `name` as a key of `owner`, with or without its prefix; anything else is an error listing the keys. */
function ownKey(owner: string, name: string): SettingKey {
	const key = name.startsWith(`${owner}.`) ? name : `${owner}.${name}`;
	if (isSettingKey(key)) return key;
	const known = SETTING_KEYS.filter((k) => k.startsWith(`${owner}.`)).join(", ");
	throw new Error(`unknown setting '${name}' (known: ${known})`);
}
