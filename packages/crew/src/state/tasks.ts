import { RunStateError } from "./errors.ts";
import { FieldReader } from "./field-reader.ts";
import { mergeMeta, type RunMeta } from "./manifest.ts";
import { NAME_HINT, NAME_PATTERN, TASK_ID_HINT, TASK_ID_PATTERN } from "./run-id.ts";
import { checkSchemaVersion, type SCHEMA_VERSION } from "./schema-version.ts";
import { assertTaskTransition, STATUSES, type TaskStatus } from "./status.ts";

/** A task as the caller describes it when creating a run. */
export interface TaskSpec {
	/** Unique in the run; also a folder name and branch name part (see TASK_ID_PATTERN). */
	id: string;
	/** The team role that performs it. */
	role: string;
	/** The agent definition that plays the role. */
	agent: string;
	/** What the agent is asked to do (besides the run's goal). */
	instructions?: string;
	/** Ids of tasks that must be done first. */
	dependsOn?: string[];
	meta?: RunMeta;
}

/** A task in tasks.json. */
export interface RunTask {
	id: string;
	role: string;
	agent: string;
	instructions?: string;
	dependsOn: string[];
	status: TaskStatus;
	/** How many times the task was started. */
	attempts: number;
	updatedAt: string;
	startedAt?: string;
	finishedAt?: string;
	result?: string;
	error?: string;
	meta?: RunMeta;
}

/** tasks.json. */
export interface TasksFile {
	schemaVersion: typeof SCHEMA_VERSION;
	runId: string;
	tasks: RunTask[];
}

/** What `updateTask` may change. */
export interface TaskPatch {
	status?: TaskStatus;
	result?: string | null;
	error?: string | null;
	meta?: RunMeta;
}

const TASK_KEYS = [
	"id",
	"role",
	"agent",
	"instructions",
	"dependsOn",
	"status",
	"attempts",
	"updatedAt",
	"startedAt",
	"finishedAt",
	"result",
	"error",
	"meta",
] as const;
const PATCH_KEYS: readonly string[] = ["status", "result", "error", "meta"];

/**
 * Checks that ids are unique, every dependency names a task of the run, and dependencies have no cycle.
 * `fail(message, index)` builds the error for the task at `index`.
 */
export function checkTaskGraph(
	tasks: readonly { id: string; dependsOn?: readonly string[] }[],
	fail: (message: string, index: number, field: string) => Error,
): void {
	const index = new Map<string, number>();
	tasks.forEach((task, i) => {
		if (index.has(task.id)) throw fail(`duplicate task id ${JSON.stringify(task.id)}`, i, "id");
		index.set(task.id, i);
	});
	tasks.forEach((task, i) => {
		for (const [d, dep] of (task.dependsOn ?? []).entries()) {
			if (!index.has(dep)) throw fail(`unknown task ${JSON.stringify(dep)}`, i, `dependsOn[${d}]`);
			if (dep === task.id) throw fail("a task cannot depend on itself", i, `dependsOn[${d}]`);
		}
	});
	// Depth-first search with three colours finds any cycle.
	const state = new Map<string, "open" | "closed">();
	const visit = (id: string, trail: string[]): void => {
		if (state.get(id) === "closed") return;
		const i = index.get(id) ?? 0;
		if (state.get(id) === "open") {
			throw fail(`dependency cycle: ${[...trail.slice(trail.indexOf(id)), id].join(" -> ")}`, i, "dependsOn");
		}
		state.set(id, "open");
		for (const dep of tasks[i]?.dependsOn ?? []) visit(dep, [...trail, id]);
		state.set(id, "closed");
	};
	for (const task of tasks) visit(task.id, []);
}

function parseTask(r: FieldReader): RunTask {
	r.onlyKeys(TASK_KEYS);
	const task: RunTask = {
		id: r.string("id", { pattern: TASK_ID_PATTERN, hint: TASK_ID_HINT }),
		role: r.string("role"),
		// The agent names its system prompt file in the run directory: a name shaped like a path is damage.
		agent: r.string("agent", { pattern: NAME_PATTERN, hint: NAME_HINT }),
		dependsOn: r.stringList("dependsOn"),
		status: r.oneOf("status", STATUSES),
		attempts: r.integer("attempts", 0, Number.MAX_SAFE_INTEGER),
		updatedAt: r.timestamp("updatedAt"),
	};
	const optional = {
		instructions: r.optionalString("instructions", { allowEmpty: true }),
		startedAt: r.optionalTimestamp("startedAt"),
		finishedAt: r.optionalTimestamp("finishedAt"),
		result: r.optionalString("result", { allowEmpty: true }),
		error: r.optionalString("error", { allowEmpty: true }),
		meta: r.optionalObject("meta"),
	};
	for (const [key, value] of Object.entries(optional)) {
		if (value !== undefined) Object.assign(task, { [key]: value });
	}
	return task;
}

/** Validates parsed tasks.json content read from `file`, including the dependency graph. */
export function parseTasks(value: unknown, file: string): TasksFile {
	const fail = (message: string, field: string | undefined) => new RunStateError(file, message, field);
	const r = FieldReader.of(value, "", fail);
	const schemaVersion = checkSchemaVersion(r, file);
	r.onlyKeys(["schemaVersion", "runId", "tasks"]);
	const tasks = r.objects("tasks").map(parseTask);
	checkTaskGraph(tasks, (message, i, field) => fail(message, `tasks[${i}].${field}`));
	return { schemaVersion, runId: r.string("runId"), tasks };
}

/** New pending tasks from `specs`, validated like tasks.json (errors name `tasks[i].field` of the input). */
export function newTasks(specs: readonly TaskSpec[], now: string): RunTask[] {
	const fail = (message: string, field: string | undefined) =>
		new Error(`createRun: ${field === undefined ? "" : `field "${field}": `}${message}`);
	const tasks = specs.map((spec, i) =>
		parseTask(
			FieldReader.of(
				{ ...spec, dependsOn: spec.dependsOn ?? [], status: "pending", attempts: 0, updatedAt: now },
				`tasks[${i}]`,
				fail,
			),
		),
	);
	checkTaskGraph(tasks, (message, i, field) => fail(message, `tasks[${i}].${field}`));
	return tasks;
}

/**
 * The task after `patch`, at time `now`. Refuses unknown fields and illegal status changes; counts a start as an
 * attempt, stamps startedAt/finishedAt, and clears finishedAt when a task goes back to work.
 */
export function applyTaskPatch(runId: string, current: RunTask, patch: TaskPatch, now: string): RunTask {
	for (const key of Object.keys(patch)) {
		if (!PATCH_KEYS.includes(key)) {
			throw new Error(`run ${runId}, task ${current.id}: field "${key}" cannot be updated`);
		}
	}
	const next: RunTask = { ...current, updatedAt: now };
	if (patch.status !== undefined && patch.status !== current.status) {
		assertTaskTransition(`run ${runId}, task ${current.id}`, current.status, patch.status);
		next.status = patch.status;
		if (patch.status === "running") {
			next.attempts = current.attempts + 1;
			next.startedAt = now;
			delete next.finishedAt;
		} else if (patch.status === "pending") {
			delete next.finishedAt;
		} else if (patch.status !== "interrupted") {
			next.finishedAt = now;
		}
	}
	for (const key of ["result", "error"] as const) {
		const value = patch[key];
		if (value === null) delete next[key];
		else if (value !== undefined) next[key] = value;
	}
	const meta = mergeMeta(current.meta, patch.meta);
	if (meta === undefined) delete next.meta;
	else next.meta = meta;
	return next;
}
