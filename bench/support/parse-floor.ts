// The floor of a cold index: the same files read, parsed and their syntax trees walked once (a cursor visiting every
// node), on as many threads as the index parsed on, with nothing else: no hashing, no queries, no facts, no cache.
// What a cold index costs beyond it is the engine's own work; their ratio is what the speed target judges.
//
// Each thread is a worker running plain JavaScript (evaluated, so the floor needs no bundle of its own) over
// web-tree-sitter and the grammar builds the engine loads (`grammarPath`), compiled as the engine compiles them
// (V8's baseline WebAssembly compiler for the grammars). Files are dealt to threads by size, largest first, each to
// the thread with the fewest bytes so far. The main thread only waits.
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { LanguageId } from "../../packages/fovea/src/engine/model/facts.ts";
import { grammarPath } from "../../packages/fovea/src/engine/parse/parser.ts";

/** One thread's part of the floor. */
interface ThreadFloor {
	/** Loading the wasm runtime and this thread's grammars. */
	loadMs: number;
	/** Reading, parsing and walking its files. */
	workMs: number;
	files: number;
	nodes: number;
}

/** The floor of a set of files. */
export interface Floor {
	/** Wall time from starting the threads to the last one's end (their start and grammar loading included). */
	wallMs: number;
	threads: number;
	files: number;
	/** Syntax nodes visited: the trees were walked whole. */
	nodes: number;
	/** The slowest thread's grammar loading, and the threads' summed time reading, parsing and walking. */
	loadMs: number;
	workMs: number;
}

const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { readFileSync } = require("node:fs");
const { setFlagsFromString } = require("node:v8");
const { Parser, Language } = require(workerData.treeSitter);
(async () => {
	const start = performance.now();
	await Parser.init();
	const parsers = new Map();
	setFlagsFromString("--liftoff-only");
	for (const [language, wasm] of workerData.grammars) {
		const parser = new Parser();
		parser.setLanguage(await Language.load(readFileSync(wasm)));
		parsers.set(language, parser);
	}
	setFlagsFromString("--no-liftoff-only");
	const loaded = performance.now();
	let nodes = 0;
	for (const [path, language] of workerData.files) {
		const tree = parsers.get(language).parse(readFileSync(path, "utf8"));
		const cursor = tree.walk();
		walk: for (;;) {
			nodes++;
			if (cursor.gotoFirstChild()) continue;
			while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) break walk;
		}
		cursor.delete();
		tree.delete();
	}
	parentPort.postMessage({ loadMs: loaded - start, workMs: performance.now() - loaded, files: workerData.files.length, nodes });
})().catch((error) => { throw error; });
`;

/** The floor of `files` (absolute paths with their languages) on `threads` threads. */
export async function parseFloor(
	files: readonly { path: string; language: LanguageId }[],
	threads: number,
): Promise<Floor> {
	const count = Math.max(1, threads);
	const sized = files.map((file) => ({ ...file, bytes: statSync(file.path).size })).sort((a, b) => b.bytes - a.bytes);
	const parts = Array.from({ length: count }, () => ({ bytes: 0, files: [] as [string, LanguageId][] }));
	for (const file of sized) {
		const lightest = parts.reduce((best, part) => (part.bytes < best.bytes ? part : best));
		lightest.bytes += file.bytes;
		lightest.files.push([file.path, file.language]);
	}
	const treeSitter = createRequire(import.meta.url).resolve("web-tree-sitter");
	readFileSync(treeSitter); // fails here, not in a thread, when it is missing
	const start = performance.now();
	const done = await Promise.all(
		parts.map(
			(part) =>
				new Promise<ThreadFloor>((resolve, reject) => {
					const languages = [...new Set(part.files.map(([, language]) => language))];
					const grammars = languages.map((language) => [language, grammarPath(language)]);
					const worker = new Worker(THREAD_SOURCE, {
						eval: true,
						workerData: { treeSitter, grammars, files: part.files },
					});
					worker.once("message", (result: ThreadFloor) => {
						resolve(result);
						void worker.terminate();
					});
					worker.once("error", reject);
				}),
		),
	);
	return {
		wallMs: performance.now() - start,
		threads: count,
		files: files.length,
		nodes: done.reduce((sum, part) => sum + part.nodes, 0),
		loadMs: Math.max(...done.map((part) => part.loadMs)),
		workMs: done.reduce((sum, part) => sum + part.workMs, 0),
	};
}
