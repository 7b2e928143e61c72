// The shared Git runner suite against pi-fovea/git's own `runGit`, the runner every package uses.
import { runGit } from "../../../src/engine/git/run.ts";
import { gitRunnerSuite } from "../../support/git-runner-suite.ts";

gitRunnerSuite("pi-fovea/git runGit", {
	run: async (cwd, args, call) => {
		const out = await runGit(cwd, args, call);
		return { code: out.code, stdout: out.stdout.toString("utf8") };
	},
	offers: { signal: true, input: true, stream: true },
});
