import { printable } from "../cli/printable.ts";
import type { RootInfo } from "../workspace/roaming-contract.ts";
import type { ExecutionRoots } from "../workspace/roots.ts";
import { agoText } from "./time-words.ts";

/**
 * The ring as text lines for `/fovea roots` and `/contour status`, in words for a person: position, root, how it
 * was found (and the crew agent whose work brought it, by its short id), when it enrolled, and whether its code map
 * is in memory. Loaded only when a command shows it.
 */
export function ringText(
	ring: ExecutionRoots | undefined,
	info: (root: string) => RootInfo | undefined,
	isResident: (root: string) => boolean,
	now: number,
): string[] {
	if (ring === undefined) return ["no active session"];
	if (ring.size === 0) return [`no roots yet (at most ${ring.limit}; a root enrolls when a tool touches a project)`];
	const rows = ring.list().map((root, i) => {
		const known = info(root);
		const agent = known?.origin === undefined ? "" : ` · agent ${shortAgent(known.origin.agentId)}`;
		const age = known === undefined ? "" : ` · enrolled ${agoText(known.admittedAt, now)}`;
		const map = isResident(root) ? "map in memory" : "map not loaded";
		return `${String(i + 1).padStart(2)}. ${root}  [${known?.marker ?? "?"}${agent}]${age} · ${map}`;
	});
	return [`${ring.size} of at most ${ring.limit} roots, most recent first:`, ...rows.map(printable)];
}

/** A crew agent id `<date>-<time>-<ms>-<8 hex>:<task>` as `<8 hex>:<task>`, what `/team` shows and accepts. */
function shortAgent(agentId: string): string {
	return agentId.replace(/^[^:]*-([0-9a-f]{8}):/, "$1:");
}
