// pi-fovea and pi-contour in the real interactive `pi` TUI (issue 33), driven under tmux with the scripted model:
// command reports stay in the chat (two successive reports are both on screen, where a notification would have
// replaced the first), each extension has a footer item while idle, and a tool's result renderer shows ✓ and the
// answer's key line. Optional: PI_TUI_PANES names a directory to write the panes to (the READMEs' screenshots).
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { cleanupTempDirs, tempDir } from "./harness.ts";
import { piEnv, writeAgentSettings, writeFauxScript } from "./support/pi-cli.ts";
import { hasTmux, interactivePi, Tmux } from "./support/tmux.ts";
import { CONTOUR_EXTENSION, FOVEA_EXTENSION, git, gitRepo, writeFiles } from "./support/workspaces.ts";

/** The screen with every run of whitespace as one space: text a narrow pane wrapped reads whole again. */
const flat = (screen: string) => screen.replace(/\s+/g, " ");

after(async () => {
	await cleanupTempDirs();
});

/** Writes the pane to `<PI_TUI_PANES>/<name>.ansi` (with its colours) when the variable is set. */
function keepPane(name: string, tmux: Tmux): void {
	const dir = process.env.PI_TUI_PANES;
	if (dir === undefined || dir === "") return;
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, `${name}.ansi`), tmux.screen(true).trimEnd());
}

describe("pi-fovea and pi-contour in the interactive TUI", { skip: hasTmux ? false : "tmux is not installed" }, () => {
	it("keeps successive command reports, shows footer items while idle and renders a tool result with ✓", {
		timeout: 240_000,
	}, async () => {
		const root = await tempDir("pi-fovea-contour-tui-");
		const shop = gitRepo(
			join(root, "shop"),
			{
				"src/total.ts":
					"export function total(prices: number[]): number {\n\treturn prices.reduce((a, b) => a + b, 0);\n}\n",
			},
			{ commit: true },
		);
		writeFiles(shop, {
			"src/receipt.ts":
				'import { total } from "./total.ts";\n\nexport function receipt(prices: number[]): string {\n\treturn "total " + String(total(prices));\n}\n',
		});
		git(shop, "add", "src/receipt.ts");
		const agentDir = join(root, "agent");
		mkdirSync(agentDir);
		await writeAgentSettings(agentDir);
		const script = await writeFauxScript(join(root, "script.json"), [
			{ toolCalls: [{ name: "fovea_sketch", arguments: { root: shop } }] },
			"The shop has two files.",
		]);
		const tmux = new Tmux(root, 110, 70);
		try {
			tmux.start(
				shop,
				{ ...piEnv(agentDir, { PI_FAUX_SCRIPT: script }), TERM: "xterm-256color" },
				interactivePi([FOVEA_EXTENSION, CONTOUR_EXTENSION], join(root, "sessions")),
			);
			// Idle, before anything ran: both footer items are there.
			await tmux.until(
				(s) => s.includes("contour: no review yet") && s.includes("fovea: no roots yet"),
				"both footer items while idle",
			);

			tmux.keys("-l", "sketch the shop");
			tmux.keys("Enter");
			const sketched = await tmux.until(
				(s) => s.includes("The shop has two files.") && /✓ \d+ files/.test(s),
				"the sketch's result renderer",
			);
			assert.match(sketched, /fovea sketch · in shop/, "the call header names the tool and the root in words");
			assert.match(sketched, /^\s*Most connected files/m, "the answer's key line");
			assert.match(sketched, /more lines? \(.*to expand\)/, "the full text on expand");
			assert.match(sketched, /fovea: 1 root/, "the footer item counts the enrolled root");
			keepPane("fovea-tool-result", tmux);

			tmux.keys("-l", "/fovea status");
			tmux.keys("Enter");
			await tmux.until((s) => s.includes("Fovea status: 1 root"), "/fovea status");
			tmux.keys("-l", "/fovea roots");
			tmux.keys("Enter");
			const fovea = await tmux.until((s) => s.includes("Fovea roots: 1 of at most"), "/fovea roots");
			assert.ok(fovea.includes("Fovea status: 1 root"), `the first report is still on screen:\n${fovea}`);
			assert.match(flat(fovea), new RegExp(`1\\. ${shop} \\[explicit\\] · enrolled \\d+ s ago · map in memory`));
			assert.doesNotMatch(fovea, /lease #|resident/, "no jargon");
			keepPane("fovea-status-and-roots", tmux);

			tmux.keys("-l", "/contour review");
			tmux.keys("Enter");
			await tmux.until((s) => flat(s).includes(`Contour review of ${shop}: 1 changed file`), "/contour review");
			tmux.keys("-l", "/contour status");
			tmux.keys("Enter");
			const contour = await tmux.until((s) => s.includes("Contour status: 1 report kept"), "/contour status");
			assert.ok(flat(contour).includes(`Contour review of ${shop}`), `the review is still on screen:\n${contour}`);
			assert.match(flat(contour), /staged review of [0-9a-f]{7} · 1 file · \d+ findings? · asked for \d+ s ago/);
			assert.doesNotMatch(contour, /\d{4}-\d\d-\d\dT\d\d:|[0-9a-f]{8}-[0-9a-f]{4}-/, "no ISO time and no UUID");
			assert.match(contour, /contour: (✓ shop clean|shop \d+ findings?)/, "the footer item has the verdict");
			keepPane("contour-review-and-status", tmux);
		} finally {
			tmux.kill();
		}
	});
});
