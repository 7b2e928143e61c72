/**
 * The tree visitor Contour's parsing threads run beside extraction (`registerTreeVisitor`): a file's measure
 * (`measureSyntaxTree` under the default size limit), taken from the tree that gives its facts, so a file a parsing
 * thread parses for a cold review's slice (`slice-prefetch.ts`) is not parsed again on the review's thread to be
 * measured for clone search. Registered in the review's thread and in the threads' entry (`measure-worker.ts`).
 */
import { registerTreeVisitor } from "pi-fovea/extract-service";
import { measureSyntaxTree } from "../review/index.ts";

/** The visitor's name, which a job names (`ExtractJob.visit`). */
export const MEASURE_VISITOR = "contour-measure";

/** Registers the visitor in this thread (again: no change). */
export function registerMeasureVisitor(): void {
	registerTreeVisitor(MEASURE_VISITOR, (root, _facts, job) =>
		measureSyntaxTree({ path: job.path, language: job.language, source: job.source, root }),
	);
}
