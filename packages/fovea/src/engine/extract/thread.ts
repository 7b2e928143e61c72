/**
 * One worker thread of the extract pool, as the pool sees it: whether it started, what waits for it, and when it
 * stops holding the process. Apart from the pool because the rule that keeps processes exiting — a thread is
 * referenced only while a run or a `warm` call waits for it, and retired after a while without work — is easier to
 * check in one place.
 */
import { Worker } from "node:worker_threads";
import type { ExtractRun } from "./run.ts";
import type { FromWorker, ToWorker } from "./worker-service.ts";

/** What the pool hears from its threads. */
export interface ThreadEvents {
	message(thread: ExtractThread, message: FromWorker): void;
	/** The thread ended, retired or not. */
	exit(thread: ExtractThread): void;
}

/** A worker thread running `worker.ts` (or a bundled build of it). */
export class ExtractThread {
	readonly #worker: Worker;
	readonly #idleMs: number;
	/** Whether it loaded the extractor: a thread lost before that failed to start. */
	ready = false;
	/** Whether the pool ended it (idle, or closed): its end is no failure. */
	retiring = false;
	/** Runs sent to this thread that it is not done with. */
	readonly runs = new Set<ExtractRun<ExtractThread>>();
	/** `warm` calls waiting for this thread's grammars, oldest first. */
	readonly loads: (() => void)[] = [];
	#idleTimer: NodeJS.Timeout | undefined;

	/** Starts a thread; throws when Node refuses to (a failure to load the script comes later, as an exit). */
	constructor(script: URL, idleMs: number, events: ThreadEvents) {
		this.#idleMs = idleMs;
		this.#worker = startWorker(script);
		this.#worker.on("message", (message: FromWorker) => {
			if (message.kind === "ready") this.ready = true;
			events.message(this, message);
		});
		this.#worker.on("error", () => {}); // the exit that follows tells the pool
		this.#worker.on("exit", () => {
			clearTimeout(this.#idleTimer);
			for (const loaded of this.loads.splice(0)) loaded();
			events.exit(this);
		});
		this.#worker.unref(); // held only while something waits for it
	}

	/** Sends `message`; whatever it asks for keeps the thread (and the process) until it is answered. */
	send(message: ToWorker): void {
		clearTimeout(this.#idleTimer);
		this.#idleTimer = undefined;
		this.#worker.ref();
		this.#worker.postMessage(message);
	}

	/**
	 * `run` is over for this thread (or nothing in particular ended); once nothing waits, it idles towards retirement,
	 * after `idleMs` (default: the thread's own idle time).
	 */
	release(run?: ExtractRun<ExtractThread>, idleMs = this.#idleMs): void {
		if (run !== undefined) this.runs.delete(run);
		if (this.runs.size > 0 || this.loads.length > 0 || this.retiring) return;
		this.#worker.unref();
		clearTimeout(this.#idleTimer);
		this.#idleTimer = setTimeout(() => this.retire(), idleMs);
		this.#idleTimer.unref();
	}

	/** Retires the thread now if nothing waits for it (no run, no `warm` call). */
	retireIfIdle(): void {
		if (this.runs.size === 0 && this.loads.length === 0) this.retire();
	}

	/** Ends the thread; its exit still reaches the pool. */
	retire(): void {
		if (this.retiring) return;
		this.retiring = true;
		clearTimeout(this.#idleTimer);
		void this.#worker.terminate();
	}
}

/**
 * A worker's young generation: what it allocates (one file's syntax tree walk and facts, cloned and dropped) dies
 * young. V8's default for a worker holds more memory at peak in a large cold index with no gain in speed; a much
 * smaller one spends the worker's time in scavenges and makes the index slower. 16 MB is between the two, and its
 * peak stays below the one the answers after an index reach either way (see bench/HISTORY.md).
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 16 };

/**
 * A worker inheriting the process's Node options (loaders, conditions and the like apply to its modules too; Node
 * itself leaves out the process-wide ones such as V8 flags). `--input-type`, meant for code given as a string, would
 * make a worker started from a file fail, so it is left out; a list passed explicitly must hold no V8 flag, so if Node
 * refuses it the worker starts with none (V8 flags are process-wide and apply to it anyway).
 */
function startWorker(script: URL): Worker {
	const isInputType = (arg: string) => arg === "--input-type" || arg.startsWith("--input-type=");
	if (!process.execArgv.some(isInputType)) return new Worker(script, { resourceLimits: RESOURCE_LIMITS });
	const execArgv: string[] = [];
	for (let i = 0; i < process.execArgv.length; i++) {
		const arg = process.execArgv[i] as string;
		if (arg === "--input-type") i++;
		else if (!isInputType(arg)) execArgv.push(arg);
	}
	try {
		return new Worker(script, { execArgv, resourceLimits: RESOURCE_LIMITS });
	} catch {
		return new Worker(script, { execArgv: [], resourceLimits: RESOURCE_LIMITS });
	}
}
