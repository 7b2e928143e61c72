/**
 * Extraction of many files at once. Takes extract jobs (path, language, source); gives their facts in job order,
 * sharing a large run (a cold index) with worker threads and keeping small ones on the main thread.
 *
 * @module
 */
export type { ExtractJob, ExtractOptions } from "./job.ts";
export { extractMany, extractsWithWorkers, prepareExtraction, startExtractThreads } from "./many.ts";
export { registerTreeVisitor, type TreeVisitor } from "./tree-visitor.ts";
