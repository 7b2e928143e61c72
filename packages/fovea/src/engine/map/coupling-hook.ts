/**
 * The one place an impact answer takes in change coupling, apart from the reach so either changes alone: the files
 * that changed with the changed files, summed over them, blended into the ranking (see `rank/coupling-blend.ts`).
 */
import type { CodeGraph } from "../graph/index.ts";
import type { ChangeCoupling } from "../history/index.ts";
import { blendCoupling, type FocusResult } from "../rank/index.ts";

/**
 * The impact ranking with change coupling blended in (see `rank/coupling-blend.ts`): the files that changed with the
 * changed files, summed over them; or, when the root has no history, the ranking unchanged and a note saying why.
 */
export function withCoupling(
	result: FocusResult,
	graph: CodeGraph,
	coupling: ChangeCoupling,
	changedFiles: readonly string[],
): { result: FocusResult; note?: string } {
	const status = coupling.status;
	if (status.available !== true)
		return status.available === false ? { result, note: `Change coupling: none (${status.reason}).` } : { result };
	const counts = new Map<string, number>();
	for (const file of changedFiles)
		for (const c of coupling.coupledWith(file)) counts.set(c.file, (counts.get(c.file) ?? 0) + c.count);
	const coupled = [...counts].map(([file, count]) => ({ file, count }));
	return {
		result: blendCoupling(result, graph, coupled, { changed: new Set(changedFiles), window: status.commits }),
	};
}
