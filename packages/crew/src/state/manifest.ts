import { isAbsolute } from "node:path";
import { RunStateError } from "./errors.ts";
import { FieldReader } from "./field-reader.ts";
import type { OwnerProcess } from "./owner.ts";
import { RUN_ID_PATTERN } from "./run-id.ts";
import { checkSchemaVersion, type SCHEMA_VERSION } from "./schema-version.ts";
import { assertRunTransition, isFinalRunStatus, type RunStatus, STATUSES } from "./status.ts";

/** How a team's agents share the workspace: one checkout, or one Git worktree per task. */
export type WorkspaceMode = "single" | "worktree";

/** The two workspace modes. */
export const WORKSPACE_MODES: readonly WorkspaceMode[] = ["single", "worktree"];

/** JSON data that the runtime keeps with a run or task (shallow-merged on update; a null value removes a key). */
export type RunMeta = Record<string, unknown>;

/** manifest.json: who owns a run, where it belongs, and where it stands. */
export interface RunManifest {
	schemaVersion: typeof SCHEMA_VERSION;
	runId: string;
	/** The canonical workspace root, set once at creation: the run's isolation boundary. */
	cwd: string;
	ownerSessionId: string;
	ownerPid: number;
	/** Start marker of the owner process (see `processStartMarker`), null where unknown. */
	ownerStart: string | null;
	ownerHost: string;
	team: string;
	goal: string;
	workspaceMode: WorkspaceMode;
	status: RunStatus;
	createdAt: string;
	updatedAt: string;
	startedAt?: string;
	finishedAt?: string;
	error?: string;
	meta?: RunMeta;
}

/** What `updateManifest` may change. Identity, workspace, team, goal and owner are fixed (owner changes by resume). */
export interface ManifestPatch {
	status?: RunStatus;
	error?: string | null;
	meta?: RunMeta;
}

const MANIFEST_KEYS = [
	"schemaVersion",
	"runId",
	"cwd",
	"ownerSessionId",
	"ownerPid",
	"ownerStart",
	"ownerHost",
	"team",
	"goal",
	"workspaceMode",
	"status",
	"createdAt",
	"updatedAt",
	"startedAt",
	"finishedAt",
	"error",
	"meta",
] as const;
const PATCH_KEYS: readonly string[] = ["status", "error", "meta"];

/** Validates parsed manifest.json content read from `file`. */
export function parseManifest(value: unknown, file: string): RunManifest {
	const r = FieldReader.of(value, "", (message, field) => new RunStateError(file, message, field));
	const schemaVersion = checkSchemaVersion(r, file);
	r.onlyKeys(MANIFEST_KEYS);
	const cwd = r.string("cwd");
	if (!isAbsolute(cwd)) throw r.error("expected an absolute path", "cwd");
	let ownerStart: string | null = null;
	if (r.value.ownerStart !== null) ownerStart = r.string("ownerStart");
	const manifest: RunManifest = {
		schemaVersion,
		runId: r.string("runId", { pattern: RUN_ID_PATTERN, hint: "a run id such as 20250131-123456-789-0a1b2c3d" }),
		cwd,
		ownerSessionId: r.string("ownerSessionId"),
		ownerPid: r.integer("ownerPid", 1, 2 ** 31 - 1),
		ownerStart,
		ownerHost: r.string("ownerHost"),
		team: r.string("team"),
		goal: r.string("goal"),
		workspaceMode: r.oneOf("workspaceMode", WORKSPACE_MODES),
		status: r.oneOf("status", STATUSES),
		createdAt: r.timestamp("createdAt"),
		updatedAt: r.timestamp("updatedAt"),
	};
	const startedAt = r.optionalTimestamp("startedAt");
	const finishedAt = r.optionalTimestamp("finishedAt");
	const error = r.optionalString("error", { allowEmpty: true });
	const meta = r.optionalObject("meta");
	if (startedAt !== undefined) manifest.startedAt = startedAt;
	if (finishedAt !== undefined) manifest.finishedAt = finishedAt;
	if (error !== undefined) manifest.error = error;
	if (meta !== undefined) manifest.meta = meta;
	return manifest;
}

/** Shallow-merges `patch` into `meta`; a null value removes its key. Undefined when nothing is left. */
export function mergeMeta(meta: RunMeta | undefined, patch: RunMeta | undefined): RunMeta | undefined {
	if (patch === undefined) return meta;
	const next: RunMeta = { ...meta };
	for (const [key, value] of Object.entries(patch)) {
		if (value === null) delete next[key];
		else next[key] = value;
	}
	return Object.keys(next).length > 0 ? next : undefined;
}

/**
 * The manifest after `patch`, at time `now`. Refuses fields that are set once (naming them) and illegal status
 * changes; stamps startedAt on the first start and finishedAt on reaching a final status.
 */
export function applyManifestPatch(current: RunManifest, patch: ManifestPatch, now: string): RunManifest {
	for (const key of Object.keys(patch)) {
		if (!PATCH_KEYS.includes(key)) {
			const why = key === "cwd" ? "the workspace root is set once at creation" : "it is not changed by updates";
			throw new Error(`run ${current.runId}: field "${key}" cannot be updated (${why})`);
		}
	}
	const next: RunManifest = { ...current, updatedAt: now };
	if (patch.status !== undefined) {
		assertRunTransition(`run ${current.runId}`, current.status, patch.status);
		next.status = patch.status;
		if (patch.status === "running" && next.startedAt === undefined) next.startedAt = now;
		if (!isFinalRunStatus(patch.status)) delete next.finishedAt;
		if (isFinalRunStatus(patch.status) && patch.status !== current.status) next.finishedAt = now;
	}
	if (patch.error === null) delete next.error;
	else if (patch.error !== undefined) next.error = patch.error;
	const meta = mergeMeta(current.meta, patch.meta);
	if (meta === undefined) delete next.meta;
	else next.meta = meta;
	return next;
}

/** The owner process recorded in `manifest`. */
export function manifestOwner(manifest: RunManifest): OwnerProcess {
	return { pid: manifest.ownerPid, start: manifest.ownerStart, host: manifest.ownerHost };
}
