/**
 * `pi-fovea/settings`: the settings Fovea and Contour share (schema, validation, merge, files, trust), so both
 * extensions read one file with one set of rules. Nothing here loads the engine or touches the filesystem at import.
 *
 * @module
 */

export {
	agentDirectory,
	globalSettings,
	globalSettingsFile,
	type LoadedSettings,
	loadSettings,
	readSettingsFile,
	repositorySettingsFile,
	SETTINGS_FILE_NAME,
	writeSetting,
} from "./files.ts";
export { mergeSettings, type ResolvedSettings, type SettingSource, type SettingsLayer } from "./merge.ts";
export {
	type ParsedSettings,
	parseSettings,
	parseSettingText,
	problemText,
	type SettingsProblem,
	validateSettings,
} from "./parse.ts";
export {
	defaultSettings,
	isSettingKey,
	SETTING_KEYS,
	SETTINGS,
	type SettingKey,
	type SettingOf,
	type SettingSpec,
	type Settings,
	type SettingValue,
} from "./schema.ts";
export { settingsCommand } from "./settings-command.ts";
