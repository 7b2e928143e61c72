import { isAbsolute, resolve } from "node:path";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { envInt } from "../workspace/env.ts";
import type { Roaming } from "./roaming.ts";
import type { FoveaMaps } from "./tools.ts";

/** Tools whose `path` argument Fovea attends to, and those that write it (provenance). */
const PATH_TOOLS = new Set(["read", "edit", "write", "grep", "find", "ls"]);
const WRITERS = new Set(["edit", "write"]);

/** What the rest of the extension needs from the sync wiring. */
export interface Sync {
	/** Resolves when the post-turn probes started so far have finished. */
	settled(): Promise<void>;
}

/**
 * Wires Fovea's per-root observation into the session: attention from successful tool results, provenance from
 * this session's own writes, per-turn decay, a post-turn backstop that probes the roots the agent works in (never
 * in a blocking hook), and one message before each run about meaningful drift, within a shared token budget.
 */
export function registerSync(pi: ExtensionAPI, roaming: Roaming, maps: FoveaMaps): Sync {
	const budget = envInt("FOVEA_SYNC_TOKENS", 600, 100, 8000);
	// How long the blocking before-agent hook may wait for warm roots' probes before telling what it has.
	const warmProbeMs = envInt("FOVEA_WARM_PROBE_MS", 300, 0, 60_000);
	let probing: Promise<void> = Promise.resolve();
	const writes = new Map<string, { root: string; path: string }>();

	const ownerOf = (path: unknown, cwd: string): { root: string; path: string } | undefined => {
		if (typeof path !== "string" || path.length === 0) return undefined;
		const plain = path.replace(/^@/, "");
		const absolute = isAbsolute(plain) ? resolve(plain) : resolve(cwd, plain);
		const root = roaming.ring()?.owner(absolute);
		return root === undefined ? undefined : { root, path: absolute };
	};

	/** Captures the roots' leases now; work that outlives a retirement or session change may not publish. */
	const leaseGuard = (roots: readonly string[]) => {
		const tokens = new Map(roots.map((root) => [root, roaming.capture(root)]));
		return (root: string) => {
			const token = tokens.get(root);
			return token !== undefined && roaming.isCurrent(token);
		};
	};

	pi.on("tool_execution_start", async (event, ctx) => {
		if (!WRITERS.has(event.toolName)) return;
		const target = ownerOf((event.args as { path?: unknown } | undefined)?.path, ctx.cwd);
		if (target === undefined) return;
		writes.set(event.toolCallId, target);
		await (await maps.observer()).beginWrite(target.root, event.toolCallId, target.path);
	});

	pi.on("tool_execution_end", async (event) => {
		const target = writes.get(event.toolCallId);
		if (target === undefined) return;
		writes.delete(event.toolCallId);
		await maps.loadedObserver()?.endWrite(target.root, event.toolCallId, target.path, !event.isError);
	});

	pi.on("tool_result", async (event, ctx) => {
		if (event.isError || !PATH_TOOLS.has(event.toolName)) return;
		const target = ownerOf((event.input as { path?: unknown }).path ?? ".", ctx.cwd);
		if (target === undefined) return;
		(await maps.observer()).attend(target.root, target.path, event.toolName);
	});

	pi.on("turn_end", () => {
		maps.loadedObserver()?.decay();
	});

	pi.on("agent_settled", () => {
		const observer = maps.loadedObserver();
		if (observer === undefined) return;
		const roots = observer.relevant();
		const isCurrent = leaseGuard(roots);
		// Not awaited: the backstop runs after the turn, off every blocking hook.
		probing = probing.then(() => observer.probe(roots, isCurrent)).catch(() => {});
	});

	pi.on("before_agent_start", async () => {
		const observer = maps.loadedObserver();
		if (observer === undefined) return;
		// Warm roots (graph resident) cost one status probe here; cold roots wait for the post-turn backstop.
		const warm = observer.relevant().filter((root) => maps.isResident(root));
		if (warm.length > 0) {
			const isCurrent = leaseGuard(warm);
			probing = probing.then(() => observer.probe(warm, isCurrent)).catch(() => {});
			await Promise.race([probing, new Promise((r) => setTimeout(r, warmProbeMs))]);
		}
		const text = observer.drain(budget);
		if (text === undefined) return;
		return { message: { customType: "fovea-sync", content: text, display: true } };
	});

	return { settled: () => probing };
}
