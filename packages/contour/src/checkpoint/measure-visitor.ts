/**
 * The tree visitor Contour's parsing threads run beside extraction (`registerTreeVisitor`): a file's measure
 * (`measureSyntaxTree` under the default size limit), taken from the tree that gives its facts, so a file a parsing
 * thread parses for a cold review's slice (`slice-prefetch.ts`) is not parsed again on the review's thread to be
 * measured for clone search. Once the change's clone targets are known, a job carries them (`MeasureFilter` as its
 * `visitWith`) and only a file clone search could take is measured: one holding a callable of a target's span or
 * resembling one (`candidate-measures.ts` asks the same, and whether the file is a neighbour). Registered in the
 * review's thread and in the threads' entry (`measure-worker.ts`).
 */
import { registerTreeVisitor } from "pi-fovea/extract-service";
import { measureSyntaxTree } from "../review/index.ts";
import { type CloneTarget, holdsSimilarSpan, resemblance, type TargetShape } from "./similar-callables.ts";

/** The clone targets of the change, as far as they are known: a file that could hold none of them is not measured. */
export interface MeasureFilter {
	targets: readonly CloneTarget[];
	shapes: readonly TargetShape[];
}

/** The visitor's name, which a job names (`ExtractJob.visit`). */
export const MEASURE_VISITOR = "contour-measure";

/** Registers the visitor in this thread (again: no change). */
export function registerMeasureVisitor(): void {
	registerTreeVisitor(MEASURE_VISITOR, (root, facts, job) => {
		const filter = job.visitWith as MeasureFilter | undefined;
		if (filter !== undefined && !mayBeCandidate(facts(), filter)) return undefined;
		return measureSyntaxTree({ path: job.path, language: job.language, source: job.source, root });
	});
}

/** Whether clone search could take a file of `facts` for one of the filter's targets, neighbour or not. */
function mayBeCandidate(facts: Parameters<typeof holdsSimilarSpan>[0], filter: MeasureFilter): boolean {
	return (
		holdsSimilarSpan(facts, filter.targets) ||
		(filter.shapes.length > 0 && resemblance(facts, filter.shapes) !== undefined)
	);
}
