/**
 * Typed reads of untrusted, parsed data (JSON from a run directory, YAML front matter from a definition file).
 * Every failure names the file and the full field path, so a hand-edited or half-written file is easy to fix.
 */

/** Builds the error thrown for a bad field; `field` is the full path, e.g. `tasks[2].status`. */
export type FieldErrorFactory = (message: string, field: string | undefined) => Error;

/** Options for string fields. */
export interface StringRule {
	/** The value must match; `hint` says in words what is allowed. */
	pattern?: RegExp;
	hint?: string;
	/** Allow the empty string (default: refused). */
	allowEmpty?: boolean;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

function describe(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "a list";
	if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
	if (typeof value === "object") return "an object";
	return `${typeof value} ${String(value)}`;
}

/** True for a plain object (not null, not a list). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A reader over one object found at `path` (empty for the top level). */
export class FieldReader {
	readonly value: Record<string, unknown>;
	readonly path: string;
	readonly fail: FieldErrorFactory;

	private constructor(value: Record<string, unknown>, path: string, fail: FieldErrorFactory) {
		this.value = value;
		this.path = path;
		this.fail = fail;
	}

	/** Reads `value` as an object, or throws naming `path`. */
	static of(value: unknown, path: string, fail: FieldErrorFactory): FieldReader {
		if (!isPlainObject(value)) {
			throw fail(`expected an object, got ${describe(value)}`, path === "" ? undefined : path);
		}
		return new FieldReader(value, path, fail);
	}

	/** The full path of `key` under this object. */
	field(key: string): string {
		return this.path === "" ? key : `${this.path}.${key}`;
	}

	/** An error about `key` (or about this object when `key` is omitted). */
	error(message: string, key?: string): Error {
		return this.fail(message, key === undefined ? this.path || undefined : this.field(key));
	}

	/** True when `key` is present and not null. */
	has(key: string): boolean {
		return this.value[key] !== undefined && this.value[key] !== null;
	}

	/** Refuses any key not in `allowed`, so a typo is an error instead of a silently ignored setting. */
	onlyKeys(allowed: readonly string[]): void {
		for (const key of Object.keys(this.value)) {
			if (!allowed.includes(key)) throw this.error(`unknown field; allowed: ${allowed.join(", ")}`, key);
		}
	}

	/** A required string. */
	string(key: string, rule: StringRule = {}): string {
		if (!this.has(key)) throw this.error("required", key);
		const value = this.value[key];
		if (typeof value !== "string") throw this.error(`expected a string, got ${describe(value)}`, key);
		if (!rule.allowEmpty && value.trim() === "") throw this.error("must not be empty", key);
		if (rule.pattern && !rule.pattern.test(value)) {
			throw this.error(`${describe(value)} is not allowed${rule.hint ? ` (${rule.hint})` : ""}`, key);
		}
		return value;
	}

	/** An optional string: absent or null gives undefined. */
	optionalString(key: string, rule: StringRule = {}): string | undefined {
		return this.has(key) ? this.string(key, rule) : undefined;
	}

	/** A required integer in [min, max]. */
	integer(key: string, min: number, max: number): number {
		if (!this.has(key)) throw this.error("required", key);
		const value = this.value[key];
		if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
			throw this.error(`expected an integer from ${min} to ${max}, got ${describe(value)}`, key);
		}
		return value;
	}

	/** An optional integer in [min, max]. */
	optionalInteger(key: string, min: number, max: number): number | undefined {
		return this.has(key) ? this.integer(key, min, max) : undefined;
	}

	/** A required string that is one of `values`. */
	oneOf<T extends string>(key: string, values: readonly T[]): T {
		const value = this.string(key);
		if (!(values as readonly string[]).includes(value)) {
			throw this.error(`expected one of ${values.join(", ")}, got ${describe(value)}`, key);
		}
		return value as T;
	}

	/** An optional string that is one of `values`. */
	optionalOneOf<T extends string>(key: string, values: readonly T[]): T | undefined {
		return this.has(key) ? this.oneOf(key, values) : undefined;
	}

	/** A required ISO-8601 UTC timestamp as written by `Date.toISOString`. */
	timestamp(key: string): string {
		const value = this.string(key);
		if (!ISO_TIME.test(value) || Number.isNaN(Date.parse(value))) {
			throw this.error(`expected an ISO-8601 UTC time, got ${describe(value)}`, key);
		}
		return value;
	}

	/** An optional timestamp. */
	optionalTimestamp(key: string): string | undefined {
		return this.has(key) ? this.timestamp(key) : undefined;
	}

	/** A list of distinct strings; `split` also accepts one comma-separated string (as Pi's own agent files use). */
	stringList(key: string, rule: StringRule & { split?: boolean } = {}): string[] {
		if (!this.has(key)) throw this.error("required", key);
		const raw = this.value[key];
		const items = rule.split && typeof raw === "string" ? raw.split(",").map((s) => s.trim()) : raw;
		if (!Array.isArray(items)) throw this.error(`expected a list of strings, got ${describe(raw)}`, key);
		const seen = new Set<string>();
		items.forEach((item, index) => {
			const at = `${key}[${index}]`;
			if (typeof item !== "string" || item.trim() === "") {
				throw this.error(`expected a nonempty string, got ${describe(item)}`, at);
			}
			if (rule.pattern && !rule.pattern.test(item)) {
				throw this.error(`${describe(item)} is not allowed${rule.hint ? ` (${rule.hint})` : ""}`, at);
			}
			if (seen.has(item)) throw this.error(`${describe(item)} is listed twice`, at);
			seen.add(item);
		});
		return items as string[];
	}

	/** An optional list of strings (absent gives undefined). */
	optionalStringList(key: string, rule: StringRule & { split?: boolean } = {}): string[] | undefined {
		return this.has(key) ? this.stringList(key, rule) : undefined;
	}

	/** A required list of objects, each as a reader named `key[i]`. */
	objects(key: string): FieldReader[] {
		if (!this.has(key)) throw this.error("required", key);
		const raw = this.value[key];
		if (!Array.isArray(raw)) throw this.error(`expected a list, got ${describe(raw)}`, key);
		return raw.map((item, index) => FieldReader.of(item, `${this.field(key)}[${index}]`, this.fail));
	}

	/** An optional object of JSON data kept as it is (checked to be a plain object only). */
	optionalObject(key: string): Record<string, unknown> | undefined {
		if (!this.has(key)) return undefined;
		const value = this.value[key];
		if (!isPlainObject(value)) throw this.error(`expected an object, got ${describe(value)}`, key);
		return value;
	}
}
