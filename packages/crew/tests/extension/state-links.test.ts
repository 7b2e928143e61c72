// A repository that checks in a symbolic link at `.pi`, `.pi/crew` or `.pi/crew/runs` (pointing outside the
// workspace) gets a clear refusal from the `team` tool, `/team`, session start and the `crew` CLI, and nothing is
// written where the link points. The real Pi host with the scripted coordinator; no sub-agent is started.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { cleanupTempDirs, startHost, tempDir } from "../../../../test/e2e/harness.ts";
import { commandText, git, gitRepo } from "../../../../test/e2e/support/workspaces.ts";
import { CREW_CLI, CREW_EXTENSION, crewWorld, team } from "./support/crew-world.ts";

let root: string;

before(async () => {
	root = await tempDir("crew-links-");
	await crewWorld(root);
});

after(cleanupTempDirs);

/** Every path under `dir`, relative to it, sorted. */
function tree(dir: string): string[] {
	return readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

function crew(cwd: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
	return new Promise((done) => {
		execFile(process.execPath, [CREW_CLI, ...args], { cwd, encoding: "utf8" }, (error, out, err) => {
			done({ code: error ? Number(error.code) : 0, out, err });
		});
	});
}

/** A repository with `link` (a path under `.pi`) committed as a symbolic link to a folder outside it. */
function plantedRepo(name: string, link: string, outsideHolds: string[]): { repo: string; outside: string } {
	const outside = join(root, `${name}-outside`);
	for (const dir of ["", ...outsideHolds]) mkdirSync(join(outside, dir), { recursive: true });
	const repo = gitRepo(join(root, name), { "a.ts": "export const a = 1;\n" });
	mkdirSync(join(repo, link, ".."), { recursive: true });
	symlinkSync(outside, join(repo, link));
	git(repo, "add", "-A");
	git(repo, "commit", "-q", "-m", "planted link");
	return { repo, outside };
}

const TASKS = [{ id: "look", agent: "explorer", instructions: "never started" }];

describe("a symlinked .pi, .pi/crew or .pi/crew/runs is refused and nothing is written where it points", () => {
	const cases = [
		{ name: "pi", link: ".pi", outsideHolds: ["crew/runs"], refused: ".pi" },
		{ name: "crew", link: ".pi/crew", outsideHolds: ["runs"], refused: ".pi/crew" },
		{ name: "runs", link: ".pi/crew/runs", outsideHolds: [], refused: ".pi/crew/runs" },
	];
	for (const c of cases) {
		it(`${c.link} linked outside`, async () => {
			const { repo, outside } = plantedRepo(c.name, c.link, c.outsideHolds);
			const before = tree(outside);
			const refusal = new RegExp(
				`${join(repo, c.refused).replaceAll("/", "\\/")}: is a symbolic link; pi-crew keeps run state only in real folders inside the workspace`,
			);

			// The runs folder exists through the link, so session start looks at it and reports the refusal.
			const host = await startHost({ cwd: repo, extensions: [CREW_EXTENSION] });
			try {
				assert.ok(
					host.ui.notifiedTexts.some((t) => /could not check this workspace's runs/.test(t) && refusal.test(t)),
					host.ui.notifiedTexts.join("\n"),
				);
				const started = await team(host, { action: "run", goal: "g", tasks: TASKS });
				assert.equal(started.isError, true, started.text);
				assert.match(started.text, refusal);
				const listed = await team(host, { action: "list" });
				assert.equal(listed.isError, true, listed.text);
				assert.match(listed.text, refusal);
				assert.match(await commandText(host, "/team list"), refusal);
			} finally {
				await host.dispose();
			}

			const cli = await crew(repo, ["list"]);
			assert.equal(cli.code, 2, cli.out);
			assert.match(cli.err, refusal);
			const status = await crew(repo, ["status", "20250101-000000-000-0000abcd"]);
			assert.equal(status.code, 2, status.out);
			assert.deepEqual(tree(outside), before, "nothing was written where the link points");
		});
	}
});
