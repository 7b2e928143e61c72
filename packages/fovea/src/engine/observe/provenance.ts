/**
 * Who changed a file: this session's own tools, or something else (the user's editor, another session, a
 * sub-agent, a shell command). A tool edit is recorded with the content hash before and after; a later change is
 * this session's only if the file now holds exactly the bytes one of its tools wrote.
 */
export class Provenance {
	/** Root-relative path → content hashes this session's tools produced, most recent last (bounded). */
	readonly #written = new Map<string, string[]>();
	readonly #pending = new Map<string, { path: string; before: string | undefined }>();

	/** A tool is about to write `path`, which currently hashes to `before` (undefined: absent). */
	begin(toolCallId: string, path: string, before: string | undefined): void {
		this.#pending.set(toolCallId, { path, before });
	}

	/** The tool finished; `after` is the file's hash now (undefined when it failed or the file is gone). */
	end(
		toolCallId: string,
		after: string | undefined,
		ok: boolean,
	): { path: string; before: string | undefined; after: string } | undefined {
		const pending = this.#pending.get(toolCallId);
		this.#pending.delete(toolCallId);
		if (pending === undefined || !ok || after === undefined || after === pending.before) return undefined;
		const list = this.#written.get(pending.path) ?? [];
		list.push(after);
		if (list.length > 8) list.shift();
		this.#written.set(pending.path, list);
		return { path: pending.path, before: pending.before, after };
	}

	/** Whether the content `hash` of `path` was written by this session's tools. */
	authored(path: string, hash: string | undefined): boolean {
		return hash !== undefined && (this.#written.get(path)?.includes(hash) ?? false);
	}
}
