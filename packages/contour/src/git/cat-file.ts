import { type GitCallOptions, git } from "./run.ts";

/** What `git cat-file --batch-check` says about one object. */
export type ObjectInfo = { missing: true } | { missing: false; type: string; size: number };

type CatOptions = Pick<GitCallOptions, "signal" | "work" | "forcedConfig">;

const OID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

function batchInput(oids: readonly string[]): string {
	for (const oid of oids) if (!OID.test(oid)) throw new Error(`not an object id: ${JSON.stringify(oid)}`);
	return oids.length === 0 ? "" : `${oids.join("\n")}\n`;
}

/**
 * Types and sizes of `oids` from one `git cat-file --batch-check` (headers only, no content). No process runs for
 * an empty list. Missing objects are reported, never fetched (partial clones are refused before this is called).
 */
export async function objectInfo(
	root: string,
	oids: readonly string[],
	options: CatOptions = {},
): Promise<Map<string, ObjectInfo>> {
	const unique = [...new Set(oids)];
	const info = new Map<string, ObjectInfo>();
	if (unique.length === 0) return info;
	const result = await git(root, ["cat-file", "--batch-check", "--buffer"], { ...options, input: batchInput(unique) });
	if (options.work) options.work.objectsChecked += unique.length;
	for (const line of result.stdout.toString("latin1").split("\n")) {
		if (line === "") continue;
		const parsed = parseHeader(line);
		info.set(parsed.oid, parsed.info);
	}
	for (const oid of unique) if (!info.has(oid)) throw new Error(`git cat-file gave no answer for ${oid} in ${root}`);
	return info;
}

/**
 * Streams the contents of `oids` from one `git cat-file --batch`, calling `onObject` for each in order (contents
 * are handed over one by one, never all held at once). No process runs for an empty list.
 */
export async function readObjects(
	root: string,
	oids: readonly string[],
	onObject: (oid: string, object: { missing: true } | { missing: false; type: string; content: Buffer }) => void,
	options: CatOptions = {},
): Promise<void> {
	if (oids.length === 0) return;
	const parser = new BatchParser(onObject);
	await git(root, ["cat-file", "--batch", "--buffer"], {
		...options,
		input: batchInput(oids),
		onStdout: (chunk) => parser.push(chunk),
	});
	parser.end(oids.length);
	if (options.work) {
		options.work.blobsRead += parser.objects;
		options.work.blobBytes += parser.bytes;
	}
}

function parseHeader(line: string): { oid: string; info: ObjectInfo; size: number } {
	const missing = /^([0-9a-f]+) missing$/.exec(line);
	if (missing?.[1] !== undefined) return { oid: missing[1], info: { missing: true }, size: 0 };
	const found = /^([0-9a-f]+) ([a-z]+) (\d+)$/.exec(line);
	if (found?.[1] === undefined || found[2] === undefined || found[3] === undefined)
		throw new Error(`unexpected git cat-file output: ${JSON.stringify(line.slice(0, 120))}`);
	const size = Number(found[3]);
	return { oid: found[1], info: { missing: false, type: found[2], size }, size };
}

/** Incremental parser of `cat-file --batch` output: a header line, then `size` bytes and a newline per object. */
class BatchParser {
	objects = 0;
	bytes = 0;
	private answered = 0;
	private pending: Buffer = Buffer.alloc(0);
	private body: { oid: string; type: string; size: number; parts: Buffer[]; got: number } | undefined;
	private readonly onObject: Parameters<typeof readObjects>[2];

	constructor(onObject: Parameters<typeof readObjects>[2]) {
		this.onObject = onObject;
	}

	push(chunk: Buffer): void {
		const buffer = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
		this.pending = Buffer.alloc(0);
		let at = 0;
		while (at < buffer.length) {
			const body = this.body;
			if (body !== undefined) {
				const take = Math.min(body.size + 1 - body.got, buffer.length - at);
				body.parts.push(buffer.subarray(at, at + take));
				body.got += take;
				at += take;
				if (body.got === body.size + 1) this.finish(body);
				continue;
			}
			const newline = buffer.indexOf(10, at);
			if (newline === -1) {
				this.pending = Buffer.from(buffer.subarray(at));
				break;
			}
			const header = parseHeader(buffer.toString("latin1", at, newline));
			at = newline + 1;
			if (header.info.missing) {
				this.answered++;
				this.onObject(header.oid, { missing: true });
			} else this.body = { oid: header.oid, type: header.info.type, size: header.size, parts: [], got: 0 };
		}
	}

	end(expected: number): void {
		if (this.body !== undefined || this.pending.length > 0 || this.answered !== expected)
			throw new Error(`git cat-file --batch output ended early (${this.answered} of ${expected} objects)`);
	}

	private finish(body: { oid: string; type: string; size: number; parts: Buffer[] }): void {
		this.body = undefined;
		const whole = body.parts.length === 1 ? (body.parts[0] as Buffer) : Buffer.concat(body.parts);
		if (whole[body.size] !== 10)
			throw new Error(`git cat-file --batch: object ${body.oid} is not followed by a newline`);
		this.answered++;
		this.objects++;
		this.bytes += body.size;
		this.onObject(body.oid, { missing: false, type: body.type, content: whole.subarray(0, body.size) });
	}
}
