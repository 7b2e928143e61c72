/**
 * The content index: BM25 over files' text, path and defined names, and patched file by file to the same scores a
 * fresh index gives.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { SymbolFact } from "../../src/engine/model/facts.ts";
import { ContentIndex, type IndexedFacts } from "../../src/engine/rank/content-index.ts";
import { contentTerms } from "../../src/engine/terms/content.ts";
import { terms } from "../../src/engine/terms/query.ts";

function file(path: string, text: string, names: string[] = []): IndexedFacts {
	const symbols: SymbolFact[] = names.map((name, i) => ({
		name,
		kind: "function",
		line: i + 1,
		endLine: i + 1,
		signature: name,
	}));
	return { path, symbols, contentTerms: contentTerms(text) };
}

function scores(index: ContentIndex, query: string, size: number): number[] {
	const out = new Float64Array(size);
	index.score(terms(query), out);
	return [...out].map((x) => Math.round(x * 1e9) / 1e9);
}

const FILES: IndexedFacts[] = [
	file("src/upload.ts", "upload the file, retry the upload when the token expires", ["upload"]),
	file("src/queue.ts", "a queue of jobs; each job runs once", ["enqueue"]),
	file("src/retry.ts", "retry with backoff", ["retryWithBackoff"]),
	file("docs/notes.ts", "notes about everything: upload queue retry token backoff jobs files and more words here"),
];

describe("ContentIndex", () => {
	it("ranks files by BM25: rarer terms weigh more, repeated terms saturate, longer files are normalized", () => {
		const index = new ContentIndex(FILES.map((f, i) => [i, f] as const));
		assert.equal(index.size, 4);
		const [upload, queue, retry, notes] = scores(index, "upload token", 4) as [number, number, number, number];
		assert.ok(upload > notes, "twice the terms in a shorter file beat one mention in a long one");
		assert.equal(queue, 0);
		assert.equal(retry, 0);
		const out = new Float64Array(4);
		assert.equal(index.score(["nothing"], out), 0, "no file holds the term: best score 0");
		assert.deepEqual([...out], [0, 0, 0, 0]);
	});

	it("counts a file's path and, twice over, the names it defines", () => {
		const index = new ContentIndex(FILES.map((f, i) => [i, f] as const));
		const byPath = scores(index, "queue", 4);
		assert.ok((byPath[1] as number) > (byPath[3] as number), "queue.ts: in its path, text and name");
		const defined = new ContentIndex([
			[0, file("a.ts", "computeTotal computeTotal", ["computeTotal"])],
			[1, file("b.ts", "computeTotal computeTotal")],
		]);
		const [definer, caller] = scores(defined, "computeTotal", 2) as [number, number];
		assert.ok(definer > caller, "the file defining the name ranks above one that only mentions it as often");
	});

	it("patched by add, replace and remove, scores as a fresh index of the same files", () => {
		const index = new ContentIndex(FILES.map((f, i) => [i, f] as const));
		const edited = file("src/queue.ts", "a retry queue: upload jobs retry until done", ["enqueue", "retryJob"]);
		index.add(1, edited);
		index.remove(3);
		index.add(4, file("src/token.ts", "token refresh", ["refreshToken"]));
		const fresh = new ContentIndex([
			[0, FILES[0] as IndexedFacts],
			[1, edited],
			[2, FILES[2] as IndexedFacts],
			[4, file("src/token.ts", "token refresh", ["refreshToken"])],
		]);
		assert.equal(index.size, 4);
		for (const query of ["retry upload", "token", "queue jobs", "backoff notes everything"]) {
			assert.deepEqual(scores(index, query, 5), scores(fresh, query, 5), query);
		}
		index.remove(3); // not indexed any more: nothing happens
		assert.equal(index.size, 4);
	});

	it("after any sequence of adds, replacements and removals, scores exactly as a fresh index of the files left", () => {
		const words = ["upload", "retry", "token", "queue", "jobs", "backoff", "parse", "render"];
		const text = fc.array(fc.constantFrom(...words), { maxLength: 12 }).map((w) => w.join(" "));
		const facts = fc
			.record({
				dir: fc.constantFrom("src", "lib", "docs"),
				text,
				names: fc.array(fc.constantFrom(...words), { maxLength: 2 }),
			})
			.map(({ dir, text, names }) => ({ dir, text, names }));
		const op = fc.oneof(
			fc.record({ kind: fc.constant("add" as const), id: fc.nat(9), facts }),
			fc.record({ kind: fc.constant("remove" as const), id: fc.nat(9) }),
		);
		fc.assert(
			fc.property(
				fc.array(fc.tuple(fc.nat(9), facts), { maxLength: 8 }),
				fc.array(op, { maxLength: 20 }),
				(built, ops) => {
					const made = (id: number, f: { dir: string; text: string; names: string[] }) =>
						file(`${f.dir}/f${id}.ts`, f.text, f.names);
					const index = new ContentIndex(built.map(([id, f]) => [id, made(id, f)] as const));
					const model = new Map<number, IndexedFacts>();
					for (const [id, f] of built) model.set(id, made(id, f));
					for (const step of ops) {
						if (step.kind === "add") {
							index.add(step.id, made(step.id, step.facts));
							model.set(step.id, made(step.id, step.facts));
						} else {
							index.remove(step.id);
							model.delete(step.id);
						}
					}
					const fresh = new ContentIndex([...model]);
					assert.equal(index.size, fresh.size);
					for (const query of ["upload", "retry token", "queue jobs backoff", "parse render f3", "src", "missing"]) {
						assert.deepEqual(scores(index, query, 10), scores(fresh, query, 10), query);
					}
				},
			),
			{ numRuns: 300 },
		);
	});

	it("built from thousands of files (its build list fills several chunks), scores as the same files added one by one", () => {
		const entries: (readonly [number, IndexedFacts])[] = [];
		for (let id = 0; id < 8000; id++) {
			const words = [`w${id % 97}`, `v${id % 13}`, `u${id}`, "shared", id % 2 === 0 ? "even" : "odd"];
			entries.push([id, file(`src/d${id % 50}/f${id}.ts`, words.join(" "), [`name${id % 31}`])]);
		}
		const built = new ContentIndex(entries);
		const added = new ContentIndex();
		for (const [id, facts] of entries) added.add(id, facts);
		assert.equal(built.size, 8000);
		for (const query of ["w5 v7", "shared even", "u7999 name3", "d49 odd", "f17", "u3 u4000"]) {
			assert.deepEqual(scores(built, query, 8000), scores(added, query, 8000), query);
		}
	});

	it("holds a built posting in 4 bytes, and a count too large for it exactly", () => {
		const entries: (readonly [number, IndexedFacts])[] = [];
		for (let id = 0; id < 3000; id++) {
			const words = [
				`w${id % 97}`,
				`u${id}`,
				"shared",
				id % 7 === 0
					? Array(300 + id)
							.fill("often")
							.join(" ")
					: "",
			];
			entries.push([id, file(`src/f${id}.ts`, words.join(" "))]);
		}
		const built = new ContentIndex(entries);
		const added = new ContentIndex();
		for (const [id, facts] of entries) added.add(id, facts);
		const rows = new Set<string>();
		let postings = 0;
		for (let id = 0; id < 3000; id++) {
			const held = built.termsOf(id);
			postings += held.size;
			for (const term of held.keys()) rows.add(term);
		}
		// As (id, count) pairs of 32-bit numbers the postings took 8 bytes each.
		assert.ok(
			built.builtBytes <= 4 * postings + 4 * (rows.size + 1),
			`${built.builtBytes} bytes, ${postings} postings`,
		);
		assert.equal(built.documentFrequency("often"), 429);
		for (const query of ["often", "often w5", "shared u2999", "u7 often"]) {
			assert.deepEqual(scores(built, query, 3000), scores(added, query, 3000), query);
		}
	});
	it("reads a term's document frequency without its postings, before and after edits", () => {
		const index = new ContentIndex(FILES.map((f, i) => [i, f] as const));
		const words = ["upload", "retry", "queue", "token", "backoff", "absent"];
		const check = (label: string) => {
			const before = index.postingsRead;
			const df = words.map((word) => index.documentFrequency(word));
			assert.equal(index.postingsRead, before, `${label}: no posting read for a document frequency`);
			assert.deepEqual(
				df,
				words.map((word) => index.filesWith(word).length),
				`${label}: the files that hold each term`,
			);
		};
		check("built");
		index.add(1, file("src/queue.ts", "a retry queue: upload jobs", ["enqueue"]));
		index.remove(3);
		index.add(3, file("docs/notes.ts", "token notes"));
		index.remove(2);
		check("edited");
		index.remove(1);
		check("an added file removed");
	});
});
