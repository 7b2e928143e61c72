// The shared Git runner suite (pi-fovea's tests/support) against crew's adapter `runCrewGit`, which adds the
// repository's guard and WorktreeErrors.

import { gitRunnerSuite } from "../../../fovea/tests/support/git-runner-suite.ts";
import { runCrewGit } from "../../src/worktree/git.ts";

gitRunnerSuite("crew runCrewGit", {
	run: (cwd, args, call) => runCrewGit(cwd, args, call),
	offers: { signal: false, input: false, stream: false },
});
