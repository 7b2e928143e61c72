import type { FileFacts } from "../model/index.ts";
import { type DriftFacts, describeDrift, semanticFingerprint } from "./fingerprint.ts";

/** A meaningful change of one file since the baseline, and whether this session's own tools made it. */
export interface Drift {
	path: string;
	kind: "changed" | "added" | "deleted";
	details: string[];
	authored: boolean;
}

/**
 * What the baseline keeps of a file: enough to tell and describe drift, not the whole facts. Its symbols, imports and
 * signature digest are the facts' own (shared while the file is unchanged); a copy of the whole facts object held
 * twice as much (a baseline of 10,000 generated files measured ~500 bytes a file of V8's heap, now ~250: ~25 MB less
 * at 100,000 files) and, once the file changed, its old content terms.
 */
interface Remembered {
	hash: string;
	fingerprint: string;
	facts: DriftFacts;
	/** The gap reason already told for the file since it stopped being mapped (it is still there, not deleted). */
	unmapped?: string;
}

/**
 * The semantic baseline of one root: per file, the content hash and semantic fingerprint last acknowledged.
 * A change whose fingerprint is unchanged (comments, formatting) is not drift. The baseline is established at an
 * observation boundary (first index after enrollment, or re-entry after retirement) and never reports a delta
 * for anything before that boundary. It outlives the eviction of the root's graph.
 */
export class Baseline {
	readonly #files = new Map<string, Remembered>();
	#established = false;

	get established(): boolean {
		return this.#established;
	}

	/** Starts a new observation boundary from `files`: whatever they hold now is the baseline. */
	establish(files: ReadonlyMap<string, FileFacts>): void {
		this.#files.clear();
		for (const [path, facts] of files) this.#files.set(path, remember(facts));
		this.#established = true;
	}

	/**
	 * The drift of `paths` (all known paths when omitted) in `files` against the baseline; each drifting path is then
	 * acknowledged (the baseline advances), so the same change is reported once. `authored(path, hash)` tells this
	 * session's own edits. A known file that is now a coverage gap (`gaps`: path → reason; grown too large, turned
	 * binary or generated) is told once as no longer mapped, not as deleted, and keeps its baseline: if it comes back
	 * unchanged there is nothing to tell.
	 */
	advance(
		files: ReadonlyMap<string, FileFacts>,
		paths: Iterable<string> | undefined,
		authored: (path: string, hash: string | undefined) => boolean,
		gaps: ReadonlyMap<string, string> = new Map(),
	): Drift[] {
		if (!this.#established) return [];
		const drift: Drift[] = [];
		for (const path of new Set(paths ?? [...files.keys(), ...this.#files.keys()])) {
			const before = this.#files.get(path);
			const after = files.get(path);
			if (before !== undefined && after !== undefined && before.hash === after.hash) {
				delete before.unmapped;
				continue;
			}
			if (after === undefined) {
				if (before === undefined) continue;
				const gap = gaps.get(path);
				if (gap !== undefined) {
					if (before.unmapped === gap) continue;
					before.unmapped = gap;
					drift.push({ path, kind: "changed", details: [`no longer mapped (${gap})`], authored: false });
					continue;
				}
				this.#files.delete(path);
				drift.push({ path, kind: "deleted", details: ["deleted"], authored: false });
				continue;
			}
			const now = remember(after);
			this.#files.set(path, now);
			if (before !== undefined && before.fingerprint === now.fingerprint) continue;
			drift.push({
				path,
				kind: before === undefined ? "added" : "changed",
				details: describeDrift(before?.facts, after),
				authored: authored(path, after.hash),
			});
		}
		return drift.sort((a, b) => (a.path < b.path ? -1 : 1));
	}

	get size(): number {
		return this.#files.size;
	}

	/** The facts kept of `path` to describe its drift (for tests: what a file costs the baseline). */
	kept(path: string): Readonly<DriftFacts> | undefined {
		return this.#files.get(path)?.facts;
	}
}

function remember(facts: FileFacts): Remembered {
	const { symbols, imports, signatureDigest } = facts;
	return {
		hash: facts.hash,
		fingerprint: semanticFingerprint(facts),
		facts: signatureDigest === undefined ? { symbols, imports } : { symbols, imports, signatureDigest },
	};
}
