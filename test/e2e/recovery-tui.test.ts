// A warning an extension gives at session start survives `pi --continue` (issue 33 item 6): Pi draws the restored
// chat after the extensions' session start, so a notification given then lands above the chat, out of sight. The
// warning here is pi-crew's (a runs folder it refuses to read, the same path as its interrupted-run warning): in
// the TUI it is a session entry, drawn below the restored chat. The real interactive `pi` under tmux.
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { CREW_EXTENSION } from "../../packages/crew/tests/extension/support/crew-world.ts";
import { cleanupTempDirs, tempDir } from "./harness.ts";
import { piEnv, writeAgentSettings, writeFauxScript } from "./support/pi-cli.ts";
import { hasTmux, interactivePi, Tmux } from "./support/tmux.ts";
import { gitRepo } from "./support/workspaces.ts";

after(async () => {
	await cleanupTempDirs();
});

const WARNING = "could not check this workspace's runs";

describe("session-start warnings and pi --continue", { skip: hasTmux ? false : "tmux is not installed" }, () => {
	it("shows the warning below the restored chat", { timeout: 240_000 }, async () => {
		const root = await tempDir("pi-recovery-tui-");
		const ws = gitRepo(join(root, "ws"));
		const outside = join(root, "outside");
		mkdirSync(outside);
		mkdirSync(join(ws, ".pi", "crew"), { recursive: true });
		symlinkSync(outside, join(ws, ".pi", "crew", "runs"));
		const agentDir = join(root, "agent");
		mkdirSync(agentDir);
		await writeAgentSettings(agentDir);
		const script = await writeFauxScript(join(root, "script.json"), ["Hello back from the first session."]);
		const env = { ...piEnv(agentDir, { PI_FAUX_SCRIPT: script }), TERM: "xterm-256color" };
		const sessions = join(root, "sessions");

		const first = new Tmux(root, 100, 40);
		try {
			first.start(ws, env, interactivePi([CREW_EXTENSION], sessions));
			await first.until((s) => s.includes(WARNING), "the warning at the first start");
			first.keys("-l", "hello");
			first.keys("Enter");
			await first.until((s) => s.includes("Hello back from the first session."), "the reply");
		} finally {
			first.kill();
		}

		const second = new Tmux(root, 100, 40);
		try {
			second.start(ws, env, interactivePi([CREW_EXTENSION], sessions, "--continue"));
			const screen = await second.until(
				(s) => s.includes("Hello back from the first session.") && s.lastIndexOf(WARNING) > s.indexOf("Hello back"),
				"the warning below the restored chat",
				30_000,
			);
			assert.ok(screen.lastIndexOf(WARNING) > screen.indexOf("Hello back from the first session."), screen);
		} finally {
			second.kill();
		}
	});
});
