/**
 * The object database, read through one `git cat-file --batch-command` process that a review keeps open: the sizes of
 * a snapshot's sides, HEAD once more at the snapshot's end, and later the contents of the sides to measure all go to
 * the same process. Each Git process costs ~10 ms of CPU to start on a small machine, and this one would otherwise be
 * started three times in a row (`--batch-check`, `rev-parse`, `--batch`).
 *
 * Requests are answered in the order they were written; each ends with `flush`, so Git (run with `--buffer`) writes
 * its answers in one go. Missing objects are reported, never fetched: partial clones are refused before a reader is
 * opened.
 */
import type { ChildProcess } from "node:child_process";
import { gitMissingError, isMissingBinary, spawnGit } from "pi-fovea/git";
import type { GitCallOptions } from "./run.ts";

/** What `git cat-file` says about one object. */
export type ObjectInfo = { missing: true } | { missing: false; type: string; size: number };

/** An object's content as read, or its absence. */
export type ObjectContent = { missing: true } | { missing: false; type: string; content: Buffer };

/** How a reader runs Git, and where its work is counted. */
export type CatOptions = Pick<GitCallOptions, "signal" | "work" | "forcedConfig" | "timeoutMs">;

const OID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** One request still waiting for its answers. */
interface Pending {
	kind: "info" | "contents";
	/** Answers still to come. */
	left: number;
	onInfo?: (index: number, info: ObjectInfo & { oid?: string }) => void;
	onContent?: (index: number, object: ObjectContent) => void;
	done: () => void;
	fail: (error: Error) => void;
	answered: number;
	timer: NodeJS.Timeout;
}

/** One `git cat-file --batch-command --buffer` process; see the module comment. Close it when done. */
export class ObjectReader {
	readonly root: string;
	readonly #options: CatOptions;
	readonly #child: ChildProcess;
	readonly #queue: Pending[] = [];
	#pending: Buffer = Buffer.alloc(0);
	#body: { type: string; size: number; parts: Buffer[]; got: number } | undefined;
	#stderr = "";
	#ended: Error | undefined;
	readonly #exited: Promise<void>;

	/** Starts the process in `root` (through pi-fovea/git's hardening and guard, like every Contour Git call). */
	constructor(root: string, options: CatOptions = {}) {
		this.root = root;
		this.#options = options;
		if (options.work) options.work.processes++;
		this.#child = spawnGit(root, ["cat-file", "--batch-command", "--buffer"], {
			forced: options.forcedConfig,
			signal: options.signal,
		});
		this.#child.stdout?.on("data", (chunk: Buffer) => this.#receive(chunk));
		this.#child.stderr?.on("data", (chunk: Buffer) => {
			this.#stderr += chunk.toString("utf8");
		});
		this.#child.stdin?.on("error", () => {}); // an early exit closes the pipe: the exit tells the story
		this.#exited = new Promise((resolve) => {
			this.#child.on("error", (error: NodeJS.ErrnoException) => {
				this.#end(
					isMissingBinary(error)
						? gitMissingError("git", error)
						: new Error(`git cat-file failed in ${root}: ${error.message}`),
				);
				resolve();
			});
			this.#child.on("close", (code, signal) => {
				const stderr = this.#stderr.trim();
				const how = code === null ? `killed by ${signal ?? "a signal"}` : `exit code ${code}`;
				this.#end(new Error(`git cat-file ended in ${root} with answers outstanding: ${stderr || how}`));
				resolve();
			});
		});
	}

	/**
	 * Types and sizes of `names` (object ids, or `HEAD`), in order. For an object id the answer is keyed by it; for
	 * `HEAD` it also carries the id HEAD names (`oid`). A name that names nothing is `missing`.
	 */
	async info(names: readonly string[]): Promise<(ObjectInfo & { oid?: string })[]> {
		const answers: (ObjectInfo & { oid?: string })[] = new Array(names.length);
		if (names.length === 0) return answers;
		for (const name of names) checkName(name);
		await this.#request("info", names, {
			onInfo: (index, info) => {
				answers[index] = info;
			},
		});
		// HEAD itself is a reference looked up (as `rev-parse` would), not an object of the change.
		if (this.#options.work) this.#options.work.objectsChecked += names.filter((name) => name !== "HEAD").length;
		return answers;
	}

	/** Streams the contents of `oids` in order (one at a time, never all held at once). */
	async contents(oids: readonly string[], onObject: (oid: string, object: ObjectContent) => void): Promise<void> {
		if (oids.length === 0) return;
		for (const oid of oids) if (!OID.test(oid)) throw new Error(`not an object id: ${JSON.stringify(oid)}`);
		await this.#request("contents", oids, {
			onContent: (index, object) => {
				if (!object.missing && this.#options.work) {
					this.#options.work.blobsRead++;
					this.#options.work.blobBytes += object.content.length;
				}
				onObject(oids[index] as string, object);
			},
		});
	}

	/** Ends the process (it exits when its input ends) and waits for it. Safe to call twice. */
	async close(): Promise<void> {
		this.#child.stdin?.end();
		await this.#exited;
	}

	#request(
		kind: Pending["kind"],
		names: readonly string[],
		handlers: Pick<Pending, "onInfo" | "onContent">,
	): Promise<void> {
		if (this.#ended !== undefined) return Promise.reject(this.#ended);
		return new Promise((resolve, reject) => {
			const timeoutMs = this.#options.timeoutMs ?? 120_000;
			const pending: Pending = {
				kind,
				left: names.length,
				answered: 0,
				...handlers,
				done: () => {
					clearTimeout(pending.timer);
					resolve();
				},
				fail: (error) => {
					clearTimeout(pending.timer);
					reject(error);
				},
				// A hung Git must not hang a review.
				timer: setTimeout(() => this.#child.kill(), timeoutMs),
			};
			this.#queue.push(pending);
			this.#child.stdin?.write(`${names.map((name) => `${kind} ${name}\n`).join("")}flush\n`);
		});
	}

	#receive(chunk: Buffer): void {
		const buffer = this.#pending.length > 0 ? Buffer.concat([this.#pending, chunk]) : chunk;
		this.#pending = Buffer.alloc(0);
		try {
			let at = 0;
			while (at < buffer.length) {
				const body = this.#body;
				if (body !== undefined) {
					const take = Math.min(body.size + 1 - body.got, buffer.length - at);
					body.parts.push(buffer.subarray(at, at + take));
					body.got += take;
					at += take;
					if (body.got === body.size + 1) this.#finishBody(body);
					continue;
				}
				const newline = buffer.indexOf(10, at);
				if (newline === -1) {
					this.#pending = Buffer.from(buffer.subarray(at));
					break;
				}
				const header = parseHeader(buffer.toString("latin1", at, newline));
				at = newline + 1;
				const current = this.#current();
				if (current.kind === "info" || header.missing) {
					if (current.kind === "info") current.onInfo?.(current.answered, header);
					else current.onContent?.(current.answered, { missing: true });
					this.#answered(current);
				} else this.#body = { type: header.type, size: header.size, parts: [], got: 0 };
			}
		} catch (error) {
			this.#end(error instanceof Error ? error : new Error(String(error)));
			this.#child.kill();
		}
	}

	#finishBody(body: { type: string; size: number; parts: Buffer[] }): void {
		this.#body = undefined;
		const whole = body.parts.length === 1 ? (body.parts[0] as Buffer) : Buffer.concat(body.parts);
		if (whole[body.size] !== 10) throw new Error(`git cat-file: an object of ${this.root} ends without a newline`);
		const current = this.#current();
		current.onContent?.(current.answered, { missing: false, type: body.type, content: whole.subarray(0, body.size) });
		this.#answered(current);
	}

	#current(): Pending {
		const current = this.#queue[0];
		if (current === undefined) throw new Error(`git cat-file in ${this.root} answered what was not asked`);
		return current;
	}

	#answered(current: Pending): void {
		current.answered++;
		if (--current.left === 0) {
			this.#queue.shift();
			current.done();
		}
	}

	/** Fails every request still waiting (with `error`), and every later one. */
	#end(error: Error): void {
		this.#ended ??= error;
		for (const pending of this.#queue.splice(0)) pending.fail(error);
	}
}

/** An object id, or HEAD: never an option, a path or a second command. */
function checkName(name: string): void {
	if (name !== "HEAD" && !OID.test(name)) throw new Error(`not an object id: ${JSON.stringify(name)}`);
}

function parseHeader(line: string): ObjectInfo & { oid?: string } {
	if (/^\S+ missing$/.test(line)) return { missing: true };
	const found = /^([0-9a-f]+) ([a-z]+) (\d+)$/.exec(line);
	if (found?.[1] === undefined || found[2] === undefined || found[3] === undefined)
		throw new Error(`unexpected git cat-file output: ${JSON.stringify(line.slice(0, 120))}`);
	return { oid: found[1], missing: false, type: found[2], size: Number(found[3]) };
}

/**
 * The object readers of one review, one per repository root, opened on first use and closed together at the end, so
 * the snapshot and the reads of its sides share one process. A reader must only be asked for once the root's
 * configuration has been checked (no partial clone), as `takeSnapshot` does before it asks.
 */
export class ObjectReaders {
	readonly #readers = new Map<string, ObjectReader>();

	/** The reader of `root`, started with `options` when this is the first use. */
	reader(root: string, options: CatOptions = {}): ObjectReader {
		let reader = this.#readers.get(root);
		if (reader === undefined) {
			reader = new ObjectReader(root, options);
			this.#readers.set(root, reader);
		}
		return reader;
	}

	/** Closes every reader opened. */
	async close(): Promise<void> {
		const readers = [...this.#readers.values()];
		this.#readers.clear();
		await Promise.all(readers.map((reader) => reader.close()));
	}
}
