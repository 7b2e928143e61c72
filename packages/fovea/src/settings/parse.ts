/**
 * Validation of a settings file: every problem is a `SettingsProblem` naming the file and the dotted key, and a bad
 * key costs only that key, so a typo in one setting never takes the others (or the session) down.
 *
 * @module
 */

import { isSettingKey, SETTING_KEYS, SETTINGS, type SettingKey, type Settings, type SettingValue } from "./schema.ts";

/** One problem of a settings file, for the person who wrote it. */
export interface SettingsProblem {
	file: string;
	/** The dotted key at fault, or `(file)` when the file as a whole is unreadable. */
	key: string;
	message: string;
}

/** The values a file sets (valid ones only) and its problems. */
export interface ParsedSettings {
	values: Partial<Settings>;
	problems: SettingsProblem[];
}

/** `file: key: message`, the form every surface shows a problem in. */
export function problemText(problem: SettingsProblem): string {
	return `${problem.file}: ${problem.key}: ${problem.message}`;
}

/** Parses and validates the text of the settings file `file`. */
export function parseSettings(text: string, file: string): ParsedSettings {
	let json: unknown;
	try {
		json = JSON.parse(text.replace(/^\uFEFF/, ""));
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		return { values: {}, problems: [{ file, key: "(file)", message: `not valid JSON: ${message}` }] };
	}
	return validateSettings(json, file);
}

/** Validates parsed JSON (nested objects, as the files hold them). */
export function validateSettings(json: unknown, file: string): ParsedSettings {
	const values: Partial<Record<SettingKey, SettingValue>> = {};
	const problems: SettingsProblem[] = [];
	if (!isRecord(json)) {
		problems.push({ file, key: "(file)", message: "expected a JSON object" });
		return { values: {}, problems };
	}
	const walk = (node: Record<string, unknown>, prefix: string) => {
		for (const [name, value] of Object.entries(node)) {
			const key = prefix === "" ? name : `${prefix}.${name}`;
			if (isSettingKey(key)) {
				const checked = checkValue(key, value);
				if (typeof checked === "string") problems.push({ file, key, message: checked });
				else values[key] = checked.value;
			} else if (SETTING_KEYS.some((known) => known.startsWith(`${key}.`))) {
				if (isRecord(value)) walk(value, key);
				else problems.push({ file, key, message: "expected an object" });
			} else {
				problems.push({ file, key, message: `unknown setting (known: ${SETTING_KEYS.join(", ")})` });
			}
		}
	};
	walk(json, "");
	return { values: values as Partial<Settings>, problems };
}

/** A value typed by a person (`/fovea settings set KEY VALUE`): `true`/`false`/`on`/`off` or an integer. */
export function parseSettingText(key: SettingKey, text: string): SettingValue {
	const raw = text.trim().toLowerCase();
	const value =
		SETTINGS[key].kind === "boolean"
			? ({ true: true, on: true, "1": true, false: false, off: false, "0": false } as Record<string, boolean>)[raw]
			: /^[+-]?\d+$/.test(raw)
				? Number(raw)
				: undefined;
	const checked = checkValue(key, value ?? text);
	if (typeof checked === "string") throw new Error(`${key}: ${checked}`);
	return checked.value;
}

/** The value, or why it is not one for `key`. */
function checkValue(key: SettingKey, value: unknown): { value: SettingValue } | string {
	const spec: { kind: string; min?: number; max?: number } = SETTINGS[key];
	if (spec.kind === "boolean") return typeof value === "boolean" ? { value } : "expected true or false";
	const range = `an integer from ${spec.min} to ${spec.max}`;
	if (typeof value !== "number" || !Number.isInteger(value)) return `expected ${range}`;
	if (value < (spec.min ?? -Infinity) || value > (spec.max ?? Infinity))
		return `${value} is out of range: expected ${range}`;
	return { value };
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === "object" && !Array.isArray(value);
}
