import type { Readable, Writable } from "node:stream";
import { StringDecoder } from "node:string_decoder";

/** One JSON record a `pi --mode rpc` process wrote to stdout. */
export interface RpcRecord {
	type: string;
	[field: string]: unknown;
}

/** The `response` record that answers a command. */
export interface RpcResponse extends RpcRecord {
	type: "response";
	id?: string;
	command: string;
	success: boolean;
	data?: unknown;
	error?: string;
}

/** A command for Pi's RPC mode (docs/rpc-commands.md); the connection adds the id. */
export interface RpcCommand {
	type: string;
	[field: string]: unknown;
}

function isRecord(value: unknown): value is RpcRecord {
	return value !== null && typeof value === "object" && typeof (value as { type?: unknown }).type === "string";
}

/**
 * Pi's RPC protocol over a child's stdio: one JSON object per LF-terminated line each way. Lines are split on LF
 * only (a generic line reader would also split on U+2028/U+2029, which are valid inside JSON strings). Commands
 * carry ids and resolve with the matching response; every other record goes to `onRecord`.
 */
export class RpcConnection {
	readonly #input: Writable;
	readonly #onRecord: (record: RpcRecord) => void;
	readonly #pending = new Map<string, { resolve: (r: RpcResponse) => void; reject: (e: Error) => void }>();
	#nextId = 0;
	#sent = 0;
	#closedBecause: Error | undefined;

	constructor(input: Writable, output: Readable, onRecord: (record: RpcRecord) => void) {
		this.#input = input;
		this.#onRecord = onRecord;
		const decoder = new StringDecoder("utf8");
		let buffered = "";
		output.on("data", (chunk: Buffer) => {
			buffered += decoder.write(chunk);
			for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
				const line = buffered.slice(0, newline).replace(/\r$/, "");
				buffered = buffered.slice(newline + 1);
				if (line.trim() !== "") this.#accept(line);
			}
		});
		// A closed stdin shows up as EPIPE here; the exit of the process is what reports it.
		input.on("error", () => {});
	}

	/** How many records were written to the process (commands and UI responses). */
	get sent(): number {
		return this.#sent;
	}

	#accept(line: string): void {
		let value: unknown;
		try {
			value = JSON.parse(line);
		} catch {
			this.#onRecord({ type: "stray_output", line });
			return;
		}
		if (!isRecord(value)) {
			this.#onRecord({ type: "stray_output", line });
			return;
		}
		if (value.type === "response" && typeof value.id === "string" && this.#pending.has(value.id)) {
			const waiter = this.#pending.get(value.id);
			this.#pending.delete(value.id);
			waiter?.resolve(value as RpcResponse);
		}
		this.#onRecord(value);
	}

	/** Writes one record without waiting for anything (e.g. an `extension_ui_response`). */
	write(record: RpcRecord): void {
		if (this.#closedBecause) throw this.#closedBecause;
		this.#sent++;
		this.#input.write(`${JSON.stringify(record)}\n`);
	}

	/** Sends `command` and resolves with its response (successful or not); rejects when the process goes away. */
	request(command: RpcCommand): Promise<RpcResponse> {
		if (this.#closedBecause) return Promise.reject(this.#closedBecause);
		const id = `crew-${++this.#nextId}`;
		return new Promise((resolve, reject) => {
			this.#pending.set(id, { resolve, reject });
			try {
				this.write({ ...command, id });
			} catch (error) {
				this.#pending.delete(id);
				reject(error as Error);
			}
		});
	}

	/** Fails every waiting request with `reason` and refuses new ones; ends stdin (Pi's orderly shutdown). */
	close(reason: Error): void {
		if (this.#closedBecause) return;
		this.#closedBecause = reason;
		for (const waiter of this.#pending.values()) waiter.reject(reason);
		this.#pending.clear();
		this.#input.end();
	}
}
