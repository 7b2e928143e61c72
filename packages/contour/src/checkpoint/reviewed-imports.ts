/**
 * The imports of files outside a change as the reviewed state holds them, for the files whose working copy is
 * something else (`Snapshot.reviewedBlobs`: edited after staging, or not committed in a branch review). The code
 * map only knows working copies; without this, such a file would stand in the import graphs for content the review
 * does not analyse, or be left out, and an import cycle through its committed half would go unseen.
 */
import { type LanguageId, languageOf, loadExtractor } from "pi-fovea/engine";
import { type GitWork, type ObjectReaders, readSides, type Snapshot } from "../git/index.ts";
import type { ReviewedBlob } from "../git/snapshot-model.ts";
import type { ReviewWork } from "../report/report.ts";
import type { ImportFacts, MeasureCache } from "./measure-cache.ts";

/** A file's imports in the reviewed state. */
export interface ReviewedImports {
	language: LanguageId;
	imports: ImportFacts;
}

/** Options of `reviewedImports`. */
export interface ReviewedImportOptions {
	maxBytes: number;
	signal?: AbortSignal;
	gitWork: GitWork;
	work: ReviewWork;
	/** The review's object readers (the snapshot's process reads these blobs too). */
	objects: ObjectReaders;
}

/**
 * The imports of each of `blobs` the engine parses, by path: from the cache by blob id, else read from Git and
 * extracted. A blob that is not a regular file, not text or over `maxBytes` is absent from the answer.
 */
export async function reviewedImports(
	snapshot: Pick<Snapshot, "root" | "objectFormat">,
	blobs: readonly ReviewedBlob[],
	cache: MeasureCache,
	options: ReviewedImportOptions,
): Promise<Map<string, ReviewedImports>> {
	const found = new Map<string, ReviewedImports>();
	const toRead: { blob: ReviewedBlob; language: LanguageId }[] = [];
	for (const blob of blobs) {
		const language = languageOf(blob.path);
		// Regular files only: a symbolic link or a submodule has no imports to read.
		if (language === undefined || !blob.mode.startsWith("100")) continue;
		const imports = cache.imports(blob.oid, blob.path);
		if (imports === undefined) toRead.push({ blob, language });
		else found.set(blob.path, { language, imports });
	}
	if (toRead.length === 0) return found;
	const readerOptions = {
		work: options.gitWork,
		...(options.signal === undefined ? {} : { signal: options.signal }),
	};
	const infos = await options.objects.reader(snapshot.root, readerOptions).info(toRead.map(({ blob }) => blob.oid));
	const requests = toRead.map(({ blob }, i) => {
		const info = infos[i];
		const bytes = info === undefined || info.missing ? 0 : info.size;
		return { path: blob.path, side: { oid: blob.oid, mode: blob.mode, bytes, source: "index" as const } };
	});
	const grammars = loadExtractor([...new Set(toRead.map(({ language }) => language))]);
	grammars.catch(() => {}); // awaited below; a failure surfaces there
	const contents = await readSides(snapshot, requests, {
		maxBytes: options.maxBytes,
		partialCloneRefused: true,
		work: options.gitWork,
		objects: options.objects,
		...(options.signal === undefined ? {} : { signal: options.signal }),
	});
	const extractor = await grammars;
	toRead.forEach(({ blob, language }, i) => {
		const content = contents[i];
		if (content?.kind !== "text") return;
		options.signal?.throwIfAborted();
		const imports = extractor.extract(blob.path, content.text).imports;
		cache.putImports(blob.oid, blob.path, imports);
		options.work.importsExtracted++;
		options.work.parses++;
		found.set(blob.path, { language, imports });
	});
	return found;
}
