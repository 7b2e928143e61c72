import { printable } from "../cli/printable.ts";
import type { RootInfo } from "../workspace/roaming-contract.ts";
import type { ExecutionRoots } from "../workspace/roots.ts";

/**
 * The ring as text lines for `/fovea roots` and `/contour status`: position, root, marker, lease serial and age,
 * and whether the root's heavy caches are resident. Loaded only when a command shows it.
 */
export function ringText(
	ring: ExecutionRoots | undefined,
	info: (root: string) => RootInfo | undefined,
	isResident: (root: string) => boolean,
	now: number,
): string[] {
	if (ring === undefined) return ["no active session"];
	const head = `${ring.size}/${ring.limit} roots, most recent first`;
	if (ring.size === 0) return [`${head}: none enrolled yet (roots enroll when a tool touches a project)`];
	const rows = ring.list().map((root, i) => {
		const known = info(root);
		const age = known === undefined ? "?" : formatAge(now - known.admittedAt);
		const resident = isResident(root) ? "resident" : "cold";
		return `${String(i + 1).padStart(2)}. ${root}  [${known?.marker ?? "?"}${known?.origin === undefined ? "" : ` · agent ${known.origin.agentId}`}] lease #${ring.lease(root)} ${age}  ${resident}`;
	});
	return [`${head}:`, ...rows.map(printable)];
}

function formatAge(ms: number): string {
	const s = Math.max(0, Math.round(ms / 1000));
	if (s < 60) return `${s}s`;
	if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
	return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}
