import { RunStateError, SchemaVersionError } from "./errors.ts";
import { FieldReader } from "./field-reader.ts";
import type { RunMeta } from "./manifest.ts";
import { checkSchemaVersion, SCHEMA_VERSION } from "./schema-version.ts";

/** One line of events.jsonl. */
export interface RunEvent {
	schemaVersion: typeof SCHEMA_VERSION;
	time: string;
	/** Dotted lower-case words, e.g. `run.status`, `task.status`, `run.interrupted`. */
	type: string;
	taskId?: string;
	data?: RunMeta;
}

/** An event as a caller appends it; the store adds the version and time. */
export interface EventInput {
	type: string;
	taskId?: string;
	data?: RunMeta;
}

/** A line of events.jsonl that could not be read. `torn` marks a last line cut short by a crash. */
export interface EventProblem {
	file: string;
	/** 1-based line number. */
	line: number;
	torn: boolean;
	message: string;
}

/** The readable events of a run, in order, and the lines that were skipped. */
export interface EventLog {
	events: RunEvent[];
	problems: EventProblem[];
}

/** Allowed event types. */
export const EVENT_TYPE_PATTERN = /^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*$/;

function readEvent(r: FieldReader, file: string): RunEvent {
	const schemaVersion = checkSchemaVersion(r, file);
	r.onlyKeys(["schemaVersion", "time", "type", "taskId", "data"]);
	const event: RunEvent = {
		schemaVersion,
		time: r.timestamp("time"),
		type: r.string("type", { pattern: EVENT_TYPE_PATTERN, hint: "dotted lower-case words such as task.status" }),
	};
	const taskId = r.optionalString("taskId");
	const data = r.optionalObject("data");
	if (taskId !== undefined) event.taskId = taskId;
	if (data !== undefined) event.data = data;
	return event;
}

/** A validated event from `input` at `now`; bad input is an Error naming the field. */
export function newEvent(input: EventInput, now: string): RunEvent {
	const r = FieldReader.of(
		{ schemaVersion: SCHEMA_VERSION, time: now, ...input },
		"",
		(message, field) => new Error(`appendEvent: ${field === undefined ? "" : `field "${field}": `}${message}`),
	);
	return readEvent(r, "appendEvent");
}

/** The text of one events.jsonl line. */
export function formatEventLine(event: RunEvent): string {
	return `${JSON.stringify(event)}\n`;
}

/**
 * Reads events.jsonl text. Lines that are not valid events are reported with their line number and skipped, never
 * repaired; a line from a newer schema version stops the read (SchemaVersionError), since later lines may depend
 * on it.
 */
export function parseEventLog(text: string, file: string): EventLog {
	const log: EventLog = { events: [], problems: [] };
	const lines = text.split("\n");
	const complete = text.endsWith("\n");
	lines.forEach((line, i) => {
		if (line.trim() === "") return;
		const torn = i === lines.length - 1 && !complete;
		try {
			let value: unknown;
			try {
				value = JSON.parse(line);
			} catch (error) {
				throw new RunStateError(`${file}:${i + 1}`, `not valid JSON (${(error as Error).message})`);
			}
			const lineFile = `${file}:${i + 1}`;
			log.events.push(
				readEvent(
					FieldReader.of(value, "", (m, f) => new RunStateError(lineFile, m, f)),
					lineFile,
				),
			);
		} catch (error) {
			if (error instanceof SchemaVersionError) throw error;
			const message = torn
				? `last line is incomplete (a write was cut short); skipped, the file is left as it is: ${(error as Error).message}`
				: (error as Error).message;
			log.problems.push({ file, line: i + 1, torn, message });
		}
	});
	return log;
}
