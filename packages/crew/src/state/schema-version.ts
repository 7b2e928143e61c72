import { SchemaVersionError } from "./errors.ts";
import type { FieldReader } from "./field-reader.ts";

/** The schema version written into every run file (manifest.json, tasks.json and each events.jsonl line). */
export const SCHEMA_VERSION = 1;

/**
 * Checks a file's `schemaVersion`: a newer one is refused with a SchemaVersionError (we must not guess at a format
 * we do not know, nor overwrite it); a missing or malformed one is an ordinary field error.
 */
export function checkSchemaVersion(reader: FieldReader, file: string): typeof SCHEMA_VERSION {
	const version = reader.integer("schemaVersion", 1, Number.MAX_SAFE_INTEGER);
	if (version > SCHEMA_VERSION) throw new SchemaVersionError(file, version, SCHEMA_VERSION);
	return SCHEMA_VERSION;
}
