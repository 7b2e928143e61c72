// Several Pi hosts started together in one process, each running /team at once: the crew extension's lazily loaded
// modules must be whole in every one of them. Pi's loader was seen handing a concurrent import back unevaluated, and
// the first /team then failed reading a class of undefined.
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { cleanupTempDirs, type PiHost, startHost, tempDir } from "../../../../test/e2e/harness.ts";
import { CREW_EXTENSION } from "./support/crew-world.ts";

after(async () => {
	await cleanupTempDirs();
});

describe("the crew extension loaded by hosts started together", () => {
	it("answers the first /team teams of every host", { timeout: 120_000 }, async () => {
		const base = await tempDir("crew-concurrent-load-");
		for (let round = 0; round < 3; round++) {
			const cwds = await Promise.all(
				[0, 1, 2].map(async (i) => {
					const cwd = join(base, `round-${round}-host-${i}`);
					await mkdir(cwd, { recursive: true });
					return cwd;
				}),
			);
			const hosts: PiHost[] = [];
			try {
				// Staggered: each host starts while the ones before it are still loading, and asks at once.
				const results = await Promise.all(
					cwds.map(async (cwd, i) => {
						await new Promise((resolve) => setTimeout(resolve, i * 40 * round));
						const host = await startHost({ cwd, extensions: [CREW_EXTENSION] });
						hosts.push(host);
						return host.command("/team teams", { allowErrors: true });
					}),
				);
				for (const [i, result] of results.entries()) {
					assert.deepEqual(result.errors, [], `round ${round}, host ${i}: no extension error`);
					const texts = result.notifications.map((n) => n.message).join("\n");
					assert.match(texts, /plan-implement-review/, `round ${round}, host ${i}: the teams are listed`);
					assert.doesNotMatch(texts, /Cannot read properties/);
				}
			} finally {
				await Promise.all(hosts.map((host) => host.dispose()));
			}
		}
	});
});
