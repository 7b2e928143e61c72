/**
 * The settings Fovea and Contour share, as one table of dotted keys. A key's entry says what a file may hold for it
 * (its kind and bounds), its default, and the environment variable that wins over every file.
 *
 * @module
 */

/** A boolean or a bounded integer: every setting is one of these. */
export type SettingValue = boolean | number;

/** One setting: how it is validated, its default, the environment variable that overrides it, and what it does. */
export interface SettingSpec {
	kind: "boolean" | "integer";
	default: SettingValue;
	/** Bounds of an integer (a file value outside them is an error; an environment value is clamped). */
	min?: number;
	max?: number;
	/** The environment variable that wins over the files. For a boolean, `0` turns it off and anything else on. */
	env: string;
	description: string;
}

/** Every setting, by dotted key (`fovea.hybridGrep.enabled` is `{ "fovea": { "hybridGrep": { "enabled": … } } }`). */
export const SETTINGS = {
	"fovea.sync.enabled": {
		kind: "boolean",
		default: true,
		env: "FOVEA_SYNC",
		description: "tell the model about meaningful drift before each run",
	},
	"fovea.sync.maxTokens": {
		kind: "integer",
		default: 600,
		min: 100,
		max: 8000,
		env: "FOVEA_SYNC_TOKENS",
		description: "token budget of the drift message",
	},
	"fovea.hybridGrep.enabled": {
		kind: "boolean",
		default: true,
		env: "FOVEA_HYBRID_GREP",
		description: "append a Fovea section to grep results for identifiers, symbols, paths and routes",
	},
	"fovea.hybridGrep.maxTokens": {
		kind: "integer",
		default: 400,
		min: 100,
		max: 4000,
		env: "FOVEA_HYBRID_GREP_TOKENS",
		description: "token budget of the appended Fovea section",
	},
	"fovea.maxTokens": {
		kind: "integer",
		default: 1500,
		min: 200,
		max: 20_000,
		env: "FOVEA_MAX_TOKENS",
		description: "default token budget of fovea_focus, fovea_dwell, fovea_impact and fovea_sketch",
	},
	"contour.observer.enabled": {
		kind: "boolean",
		default: true,
		env: "CONTOUR_BACKGROUND",
		description: "Contour's silent background observer (applies when the observer starts)",
	},
	"contour.maxTokens": {
		kind: "integer",
		default: 2000,
		min: 100,
		max: 100_000,
		env: "CONTOUR_MAX_TOKENS",
		description: "default token budget of contour_review",
	},
} as const satisfies Record<string, SettingSpec>;

/** A setting's dotted key. */
export type SettingKey = keyof typeof SETTINGS;

/** The value type of a key: `boolean` for a boolean setting, `number` for an integer one. */
export type SettingOf<K extends SettingKey> = (typeof SETTINGS)[K]["kind"] extends "boolean" ? boolean : number;

/** Every setting with its value. */
export type Settings = { [K in SettingKey]: SettingOf<K> };

/** The keys, in table order (the order `/fovea settings` lists them). */
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

/** Whether `key` names a setting (own keys only: `constructor` is not one). */
export function isSettingKey(key: string): key is SettingKey {
	return Object.hasOwn(SETTINGS, key);
}

/** The defaults of every setting. */
export function defaultSettings(): Settings {
	const out: Record<string, SettingValue> = {};
	for (const key of SETTING_KEYS) out[key] = SETTINGS[key].default;
	return out as Settings;
}
