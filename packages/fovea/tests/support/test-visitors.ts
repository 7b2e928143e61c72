/**
 * Tree visitors for the pool's tests, registered in the test's thread and in its workers (`visiting-worker.ts`):
 * `rows` sees the tree (the last row of the root and the thread's kind), `nothing` reports nothing.
 */
import { isMainThread } from "node:worker_threads";
import { registerTreeVisitor } from "../../src/engine/extract/tree-visitor.ts";

/** Registers the test visitors in this thread. */
export function registerTestVisitors(): void {
	registerTreeVisitor("rows", (root, facts, job) => ({
		rows: root.endPosition.row,
		symbols: facts().symbols.length,
		path: job.path,
		extra: job.visitWith,
		main: isMainThread,
	}));
	registerTreeVisitor("nothing", () => undefined);
}
