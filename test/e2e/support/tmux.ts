// A real interactive `pi` under tmux, driven like a person at a terminal (`send-keys`) and read back from the screen
// (`capture-pane`): the TUI tests of the three extensions.
import { execFileSync, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { FAUX_MODEL_ARGS, FAUX_MODEL_EXTENSION, PI_CLI } from "./pi-cli.ts";

/** Whether tmux is installed (the TUI tests are skipped without it). */
export const hasTmux = spawnSync("tmux", ["-V"]).status === 0;

/** The interactive `pi` command line with the scripted model, `extensions`, and sessions kept in `sessionDir`. */
export function interactivePi(extensions: readonly string[], sessionDir: string, ...more: string[]): string[] {
	return [
		process.execPath,
		PI_CLI,
		...FAUX_MODEL_ARGS,
		...[FAUX_MODEL_EXTENSION, ...extensions].flatMap((extension) => ["-e", extension]),
		"--no-skills",
		"--no-context-files",
		"--session-dir",
		sessionDir,
		...more,
	];
}

/**
 * One tmux server of its own, on a socket in the test's temp dir (`-S`, like a unique `-L` name but removed with the
 * dir: tmux leaves its socket file behind), so nothing of another test or of the person's tmux is touched.
 */
export class Tmux {
	readonly socket: string;
	readonly width: number;
	readonly height: number;

	constructor(dir: string, width = 80, height = 40) {
		this.socket = join(dir, "tmux.sock");
		this.width = width;
		this.height = height;
	}

	run(...args: string[]): string {
		return execFileSync("tmux", ["-S", this.socket, ...args], { encoding: "utf8" });
	}

	start(cwd: string, env: NodeJS.ProcessEnv, command: string[]): void {
		const exports = Object.entries(env)
			.filter(([name, value]) => value !== undefined && /^(PI_|JITI_|HOME$|PATH$|TERM$|XDG_|npm_)/.test(name))
			.map(([name, value]) => `${name}=${shellQuote(String(value))}`);
		const line = `cd ${shellQuote(cwd)} && exec env ${exports.join(" ")} ${command.map(shellQuote).join(" ")}`;
		this.run("new-session", "-d", "-s", "crew", "-x", String(this.width), "-y", String(this.height), line);
	}

	/** The visible pane as text; with `colours`, with its SGR escape sequences (`capture-pane -e`). */
	screen(colours = false): string {
		return this.run("capture-pane", "-p", ...(colours ? ["-e"] : []), "-t", "crew");
	}

	keys(...keys: string[]): void {
		this.run("send-keys", "-t", "crew", ...keys);
	}

	/** Polls the pane until `probe` accepts it; fails with the last screen after `timeoutMs`. */
	async until(probe: (screen: string) => boolean, what: string, timeoutMs = 60_000): Promise<string> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const screen = this.screen();
			if (probe(screen)) return screen;
			if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen:\n${screen}`);
			await sleep(150);
		}
	}

	kill(): void {
		spawnSync("tmux", ["-S", this.socket, "kill-server"]);
		rmSync(this.socket, { force: true });
	}
}

function shellQuote(text: string): string {
	return `'${text.replaceAll("'", "'\\''")}'`;
}
