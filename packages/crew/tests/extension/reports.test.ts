// `/team` reports in Pi's TUI (issue 33 item 1) through the real Pi host in `tui` mode: each report (help, teams,
// list, a refusal) is a `pi-crew-report` session entry drawn by pi-fovea's report renderer, so a second report does
// not replace the first; a refusal reads as an error; none reaches the model. Outside the TUI the same text is one
// notification (the RPC and e2e tests hold that).
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CommandReport } from "pi-fovea/subcommands";
import { cleanupTempDirs, startHost, tempDir } from "../../../../test/e2e/harness.ts";
import { CREW_EXTENSION, writeDefinitions } from "./support/crew-world.ts";

after(cleanupTempDirs);

describe("/team reports in the TUI", () => {
	it("are kept as session entries, an error as an error, and never reach the model", async () => {
		const ws = join(await tempDir("pi-crew-reports-"), "ws");
		await writeDefinitions(ws, {
			solo: "roles:\n  - { role: w, agent: worker }\nworkflow:\n  - { id: only, role: w, instructions: X }",
		});
		const host = await startHost({ cwd: ws, extensions: [CREW_EXTENSION], mode: "tui" });
		try {
			const said = [
				await host.command("/team"),
				await host.command("/team teams"),
				await host.command("/team list"),
				await host.command("/team cancel nosuchrun"),
			];
			assert.deepEqual(
				said.flatMap((s) => s.notifications),
				[],
				"not a notification, which the next one would replace",
			);
			const reports = host.customEntries<CommandReport>("pi-crew-report");
			assert.deepEqual(
				reports.map((r) => r.verdict),
				["info", "info", "info", "error"],
			);
			assert.match(reports[0]?.title ?? "", /^\/team: teams of sub-agents/);
			assert.equal(reports[1]?.title, "Teams:");
			assert.match(reports[2]?.title ?? "", /^No runs of this session in workspace /);
			assert.match(reports[3]?.title ?? "", /^\/team: .*nosuchrun/);
			assert.ok(
				reports[1]?.lines.some((l) => l.text === "- solo (single): test team solo [only]"),
				JSON.stringify(reports[1]),
			);

			const run = await host.prompt("hello");
			const sent = JSON.stringify(run.requests.map((r) => r.messages));
			assert.doesNotMatch(sent, /teams of sub-agents|No runs of this session|nosuchrun/, "the model never sees one");
		} finally {
			await host.dispose();
		}
	});

	it("completion does not offer again a subcommand typed in full, so Enter runs it", async () => {
		const ws = await tempDir("pi-crew-complete-");
		const host = await startHost({ cwd: ws, extensions: [CREW_EXTENSION] });
		try {
			const complete = host.session.extensionRunner.getCommand("team")?.getArgumentCompletions;
			assert.ok(complete !== undefined, "/team completes its arguments");
			assert.deepEqual(
				((await complete("te")) ?? []).map((item) => item.value),
				["teams "],
			);
			assert.equal(await complete("teams"), null, "typed in full: nothing to take instead of running it");
			assert.equal(await complete("list"), null);
		} finally {
			await host.dispose();
		}
	});
});
