/** Real temporary workspaces for state tests, removed after each test. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import type { CreateRunInput, TaskSpec } from "../../../src/state/index.ts";

/** A fresh empty folder that is deleted when the test ends. */
export async function tempWorkspace(t: TestContext, prefix = "crew-state-"): Promise<string> {
	const dir = await mkdtemp(join(tmpdir(), prefix));
	t.after(() => rm(dir, { recursive: true, force: true }));
	return dir;
}

/** A plan → implement → review chain of tasks. */
export const CHAIN: TaskSpec[] = [
	{ id: "plan", role: "planner", agent: "explorer", instructions: "Plan it." },
	{ id: "implement", role: "implementer", agent: "implementer", dependsOn: ["plan"] },
	{ id: "review", role: "reviewer", agent: "reviewer", dependsOn: ["implement"] },
];

/** A createRun input for session `sessionId`. */
export function runInput(sessionId = "session-a", overrides: Partial<CreateRunInput> = {}): CreateRunInput {
	return { ownerSessionId: sessionId, team: "plan-implement-review", goal: "Add a flag", tasks: CHAIN, ...overrides };
}
