/**
 * The effective settings: the environment wins, then the repository's file (when the repository is trusted), then
 * the global file, then the defaults. Each value remembers where it came from, so `/fovea settings` can say why.
 *
 * @module
 */

import { envInt } from "../workspace/env.ts";
import {
	defaultSettings,
	SETTING_KEYS,
	SETTINGS,
	type SettingKey,
	type Settings,
	type SettingValue,
} from "./schema.ts";

/** Where an effective value came from. */
export type SettingSource = "default" | "global" | "repo" | "env";

/** One file's valid values, as a layer of the merge. */
export interface SettingsLayer {
	source: "global" | "repo";
	values: Partial<Settings>;
}

/** The effective settings and the source of each. */
export interface ResolvedSettings {
	settings: Settings;
	sources: Record<SettingKey, SettingSource>;
}

/** Merges `layers` (lowest first: global, then repo) over the defaults, then the environment over them. */
export function mergeSettings(
	layers: readonly SettingsLayer[],
	env: Record<string, string | undefined> = process.env,
): ResolvedSettings {
	const settings: Record<string, SettingValue> = defaultSettings();
	const sources = {} as Record<SettingKey, SettingSource>;
	for (const key of SETTING_KEYS) {
		sources[key] = "default";
		for (const layer of layers) {
			const value = layer.values[key];
			if (value === undefined) continue;
			settings[key] = value;
			sources[key] = layer.source;
		}
		const fromEnv = envValue(key, env);
		if (fromEnv !== undefined) {
			settings[key] = fromEnv;
			sources[key] = "env";
		}
	}
	return { settings: settings as Settings, sources };
}

/**
 * The environment's value of `key`, if set. A boolean is off for `0` and on for anything else (`CONTOUR_BACKGROUND`'s
 * long-standing meaning, kept for every switch); an integer that is not one is ignored and any integer is clamped.
 */
function envValue(key: SettingKey, env: Record<string, string | undefined>): SettingValue | undefined {
	const spec: { kind: string; env: string; min?: number; max?: number } = SETTINGS[key];
	const raw = env[spec.env]?.trim();
	if (raw === undefined || raw === "") return undefined;
	if (spec.kind === "boolean") return raw !== "0";
	if (!/^[+-]?\d+$/.test(raw)) return undefined;
	return envInt(spec.env, 0, spec.min ?? -Infinity, spec.max ?? Infinity, env);
}
