/**
 * The one place impact's reach takes in change coupling, apart from the reach so either changes alone: the files
 * that changed with the changed files, summed over them, blended into the ranking (see `rank/coupling-blend.ts`).
 */
import type { CodeGraph } from "../graph/index.ts";
import type { ChangeCoupling } from "../history/index.ts";
import { blendCoupling, type Reach } from "../rank/index.ts";

/**
 * The reach with change coupling blended in (see `rank/coupling-blend.ts`): the files that changed with the changed
 * files, summed over them; or, when the root has no history, the reach unchanged and a note saying why.
 */
export function withCoupling(
	reach: Reach,
	graph: CodeGraph,
	coupling: ChangeCoupling,
	changedFiles: readonly string[],
): { reach: Reach; note?: string } {
	const status = coupling.status;
	if (status.available !== true)
		return status.available === false ? { reach, note: `Change coupling: none (${status.reason}).` } : { reach };
	const counts = new Map<string, number>();
	for (const file of changedFiles)
		for (const c of coupling.coupledWith(file)) counts.set(c.file, (counts.get(c.file) ?? 0) + c.count);
	const coupled = [...counts].map(([file, count]) => ({ file, count }));
	return { reach: blendCoupling(reach, graph, coupled, { changed: new Set(changedFiles), window: status.commits }) };
}
