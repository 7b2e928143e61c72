import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** How to start a `pi` process: a program and the arguments before Pi's own. */
export interface PiCommand {
	command: string;
	args: string[];
}

/** The environment variable naming the Pi CLI entry file that sub-agents run (`node <file> --mode rpc …`). */
export const PI_CLI_ENV = "PI_CREW_PI_CLI";

const PI_PACKAGE = "@earendil-works/pi-coding-agent";

/** The folder of the installed Pi package, found through its main entry (the package exports no package.json). */
function piPackageDir(): string {
	let entry: string;
	try {
		entry = fileURLToPath(import.meta.resolve(PI_PACKAGE));
	} catch (error) {
		throw new Error(
			`pi-crew cannot find ${PI_PACKAGE} to start sub-agents; install it or set ${PI_CLI_ENV} to the pi CLI file (${(error as Error).message})`,
		);
	}
	for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
		try {
			const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown };
			if (manifest.name === PI_PACKAGE) return dir;
		} catch {
			// No package.json at this level; keep climbing.
		}
	}
	throw new Error(`pi-crew found ${PI_PACKAGE} at ${entry} but not its package.json`);
}

/**
 * The command that starts sub-agents: `node <cli>` with this process's Node, where `<cli>` is `PI_CREW_PI_CLI`
 * when set, else the `pi` bin of the installed `@earendil-works/pi-coding-agent`. Inside a running Pi, the
 * extension passes Pi's own entry instead, so sub-agents run the same Pi as their coordinator.
 */
export function resolvePiCommand(env: NodeJS.ProcessEnv = process.env): PiCommand {
	const override = env[PI_CLI_ENV]?.trim();
	if (override !== undefined && override !== "") {
		return { command: process.execPath, args: [isAbsolute(override) ? override : resolve(override)] };
	}
	const dir = piPackageDir();
	const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
		bin?: string | Record<string, string>;
	};
	const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.pi;
	if (bin === undefined) throw new Error(`${PI_PACKAGE} at ${dir} declares no \`pi\` bin`);
	return { command: process.execPath, args: [resolve(dir, bin)] };
}
