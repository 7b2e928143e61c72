// Command reports in Pi's TUI (issue 33 item 1) through the real Pi host in `tui` mode: `/fovea status` then
// `/fovea roots` (and Contour's `/contour status`) are session entries, two successive reports both kept, drawn by
// the extensions' own renderers and never sent to the model; outside the TUI the same report is a notification.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { cleanupTempDirs, tempDir } from "../../../test/e2e/harness.ts";
import { CONTOUR_EXTENSION, FOVEA_EXTENSION, gitRepo, withHost } from "../../../test/e2e/support/workspaces.ts";
import { readReport } from "../src/extension/command-report.ts";

after(cleanupTempDirs);

/** The reports of `type` in the session's branch, read back as the renderer reads them. */
function reports(host: { branch(): unknown[] }, type: string) {
	return host
		.branch()
		.filter((e) => (e as { type?: string; customType?: string }).customType === type)
		.map((e) => readReport((e as { data?: unknown }).data));
}

describe("command reports in the TUI", () => {
	it("are kept as session entries, one per report, and never reach the model", async () => {
		const repo = gitRepo(join(await tempDir(), "shop"));
		await withHost({ cwd: repo, extensions: [FOVEA_EXTENSION, CONTOUR_EXTENSION], mode: "tui" }, async (host) => {
			const status = await host.command("/fovea status");
			const roots = await host.command("/fovea roots");
			const contour = await host.command("/contour status");
			assert.deepEqual(
				[...status.notifications, ...roots.notifications, ...contour.notifications],
				[],
				"not a notification, which the next one would replace",
			);
			const fovea = reports(host, "fovea-report");
			assert.deepEqual(
				fovea.map((r) => r?.title),
				[
					"Fovea status: 0 roots",
					"Fovea roots: no roots yet (at most 32; a root enrolls when a tool touches a project)",
				],
			);
			assert.match(fovea[0]?.lines[0]?.text ?? "", new RegExp(`default root \\(no root given\\): ${repo} \\[git`));
			assert.deepEqual(
				reports(host, "contour-report").map((r) => r?.title),
				["Contour status: no reports yet"],
			);
			const bad = await host.command("/fovea frobnicate");
			assert.equal(bad.notifications.length, 0);
			assert.equal(reports(host, "fovea-report").at(-1)?.verdict, "error");

			const run = await host.prompt("hello");
			const sent = JSON.stringify(run.requests.map((r) => r.messages));
			assert.doesNotMatch(sent, /Fovea status|Contour status|unknown subcommand/, "the model never sees a report");
		});
	});

	it("outside the TUI the same report is one notification of its text", async () => {
		const repo = gitRepo(join(await tempDir(), "shop"));
		await withHost({ cwd: repo, extensions: [FOVEA_EXTENSION] }, async (host) => {
			const status = await host.command("/fovea status");
			assert.equal(status.notifications.length, 1);
			assert.match(status.notifications[0]?.message ?? "", /^Fovea status: 0 roots\ndefault root/);
			assert.deepEqual(reports(host, "fovea-report"), []);
		});
	});
});
