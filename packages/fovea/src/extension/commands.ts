import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { envInt } from "../workspace/env.ts";
import type { Roaming } from "./roaming.ts";
import { registerSubcommands } from "./subcommands.ts";

/** `/fovea status|roots|reset`: what Fovea observes, and a way to forget it. */
export function registerFoveaCommands(pi: ExtensionAPI, roaming: Roaming): void {
	registerSubcommands(
		pi,
		"fovea",
		"Fovea's per-project code map",
		{
			status: {
				description: "enrolled roots and the root used when a tool names none",
				async run(_args, ctx) {
					const scope = await roaming.manualRoot(ctx.cwd);
					const cacheRoots = envInt("FOVEA_CACHE_ROOTS", 2, 1, Number.MAX_SAFE_INTEGER);
					return [
						"pi-fovea status",
						`default root (no root given): ${scope?.root ?? ctx.cwd} [${scope?.marker ?? "directory"}, session cwd's own project]`,
						`heavy caches: at most ${cacheRoots} roots resident (FOVEA_CACHE_ROOTS)`,
						...roaming.describe(),
					].join("\n");
				},
			},
			roots: {
				description: "the recency ring: root, marker, lease age, cache residency",
				run: () => ["pi-fovea roots", ...roaming.describe()].join("\n"),
			},
			reset: {
				description: "retire every enrolled root (clears the ring)",
				run() {
					const retired = roaming.reset();
					return `pi-fovea: retired ${retired.length} root${retired.length === 1 ? "" : "s"}; the ring is empty.`;
				},
			},
		},
		"status",
	);
}
