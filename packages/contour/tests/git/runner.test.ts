// The shared Git runner suite (pi-fovea's tests/support) against contour's adapter `git`, which counts processes.
import assert from "node:assert/strict";
import { gitRunnerSuite } from "../../../fovea/tests/support/git-runner-suite.ts";
import { git, newGitWork } from "../../src/git/run.ts";

const work = newGitWork();
gitRunnerSuite("contour git", {
	run: async (cwd, args, call) => {
		const before = work.processes;
		const out = await git(cwd, args, { ...call, work }).finally(() => assert.equal(work.processes, before + 1));
		return { code: out.code, stdout: out.stdout.toString("utf8") };
	},
	offers: { signal: true, input: true, stream: true },
});
