/**
 * Errors about run state on disk. Each names the file (and the field when one is at fault) so that a person can
 * repair a hand-edited run; the store never "fixes" a bad file by rewriting it.
 */

/** A run file that is missing, unreadable, not valid JSON, or fails validation. */
export class RunStateError extends Error {
	readonly file: string;
	readonly field: string | undefined;

	constructor(file: string, message: string, field?: string) {
		super(`${file}: ${field === undefined ? "" : `field "${field}": `}${message}`);
		this.name = "RunStateError";
		this.file = file;
		this.field = field;
	}
}

/** A run file written by a newer pi-crew (its schemaVersion is higher than this version understands). */
export class SchemaVersionError extends RunStateError {
	readonly found: number;

	constructor(file: string, found: number, supported: number) {
		super(
			file,
			`schema version ${found} is newer than this pi-crew understands (${supported}); update pi-crew to read this run. The file was left unchanged.`,
			"schemaVersion",
		);
		this.name = "SchemaVersionError";
		this.found = found;
	}
}

/** A status change that the run or task state machine does not allow. */
export class IllegalTransitionError extends Error {
	readonly from: string;
	readonly to: string;

	constructor(subject: string, from: string, to: string, allowed: readonly string[]) {
		super(
			`${subject}: cannot change status from "${from}" to "${to}" (allowed from "${from}": ${allowed.length > 0 ? allowed.join(", ") : "none, it is final"})`,
		);
		this.name = "IllegalTransitionError";
		this.from = from;
		this.to = to;
	}
}

/** Another process holds the run's lock for longer than we are willing to wait. */
export class RunLockedError extends Error {
	readonly lockPath: string;

	constructor(lockPath: string, cause: unknown) {
		super(
			`run is locked by another process (${lockPath}); try again. A lock left by a crashed process goes stale and is taken over automatically.`,
			{ cause },
		);
		this.name = "RunLockedError";
		this.lockPath = lockPath;
	}
}

/**
 * A change refused because another session took the run over after the caller checked that it may act on it
 * (see RunClaim): the caller's check no longer holds, so nothing was changed and nothing was ended.
 */
export class RunTakenError extends Error {
	readonly ownerSessionId: string;

	constructor(runId: string, ownerSessionId: string, ownerPid: number, previousSessionId: string, action: string) {
		super(
			`Run ${runId} was taken over by session ${ownerSessionId} (process ${ownerPid}) after this request found it with session ${previousSessionId}; it was not ${action}, and nothing was changed.`,
		);
		this.name = "RunTakenError";
		this.ownerSessionId = ownerSessionId;
	}
}
