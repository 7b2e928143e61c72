/**
 * Visitors of a job's syntax tree that run beside its extraction, in whichever thread extracts it: a caller that
 * measures syntax the facts do not carry (Contour's complexity and clones) gets both from one parse, on a parsing
 * thread as on the main thread. A visitor is named, not sent: code cannot cross to a worker, so every thread that is
 * to run it registers it under the same name (a worker through its entry script, `worker-service.ts`).
 */
import type { Node } from "web-tree-sitter";
import type { FileFacts } from "../model/index.ts";
import { withSyntaxTree } from "../parse/index.ts";
import type { ExtractJob } from "./job.ts";

/**
 * Looks at a job's tree (`root`, deleted once it returns, so nothing of it may be kept) with the job's facts at hand;
 * its result crosses between threads by structured clone, and `undefined` means nothing to report.
 */
export type TreeVisitor = (root: Node, facts: () => FileFacts, job: ExtractJob) => unknown;

const visitors = new Map<string, TreeVisitor>();

/** Registers `visitor` under `name` in this thread; the same name again replaces it. */
export function registerTreeVisitor(name: string, visitor: TreeVisitor): void {
	visitors.set(name, visitor);
}

/**
 * The facts of `job` and what the visitor it names saw of the same tree; `undefined` when the job names none or one
 * this thread has not registered (its facts are then extracted as for any job). Throws like extraction.
 */
export function extractVisited(job: ExtractJob): { facts: FileFacts; visited: unknown } | undefined {
	const visitor = job.visit === undefined ? undefined : visitors.get(job.visit);
	if (visitor === undefined) return undefined;
	return withSyntaxTree(
		job.path,
		job.source,
		(root, factsOf) => {
			const visited = visitor(root, factsOf, job);
			return { facts: factsOf(), visited };
		},
		job.language,
		job.contentTerms === undefined ? {} : { contentTerms: job.contentTerms },
	);
}
