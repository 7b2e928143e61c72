/**
 * The frame of a crew test file through the real Pi host: one scripted world (see crew-world.ts) made before the
 * tests, and hosts with the crew extension (its modules loaded) that are disposed, with every temporary folder,
 * after them. Call it at the top level of the test file.
 */
import { after, before } from "node:test";
import { cleanupTempDirs, type PiHost, startHost, tempDir } from "../../../../../test/e2e/harness.ts";
import { CREW_EXTENSION, type CrewWorld, crewWorld } from "./crew-world.ts";

/** The world of the file (valid inside tests) and a way to start a host in a folder. */
export interface HostedWorld {
	world(): CrewWorld;
	host(cwd: string): Promise<PiHost>;
}

export function hostedWorld(prefix: string): HostedWorld {
	let world: CrewWorld | undefined;
	const hosts: PiHost[] = [];
	before(async () => {
		world = await crewWorld(await tempDir(prefix));
	});
	after(async () => {
		await Promise.all(hosts.map((h) => h.dispose().catch(() => {})));
		await cleanupTempDirs();
	});
	return {
		world: () => {
			if (world === undefined) throw new Error("the crew world exists only inside tests");
			return world;
		},
		host: async (cwd) => {
			const started = await startHost({ cwd, extensions: [CREW_EXTENSION] });
			hosts.push(started);
			// `/team` alone waits for the extension's lazy modules, which session start loads in the background: a host
			// started while another one's load is under way would otherwise race it (see session-modules.ts).
			await started.command("/team");
			return started;
		},
	};
}
