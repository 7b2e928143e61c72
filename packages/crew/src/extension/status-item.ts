/**
 * Crew's footer item, so an idle crew is not invisible: how many of this session's runs work (`crew: 1 run
 * working`), wait to be resumed (`crew: 1 interrupted`), or none (`crew: no active runs`). The widget above the
 * editor shows the runs themselves; this line stays when it is gone. Dimmed as Fovea's and Contour's items are
 * (`statusColor` of `pi-fovea/status-item`).
 */
import type { RunListing } from "../state/run-store.ts";

/** The footer key of crew's item. */
export const CREW_STATUS_KEY = "crew";

/** The footer item before the runtime loads: a session that started no run has none to show. */
export const NO_ACTIVE_RUNS = "crew: no active runs";

/** The footer text for this session's unfinished runs (pending, running or interrupted, as the widget lists them). */
export function crewStatusText(runs: readonly RunListing[]): string {
	let working = 0;
	let interrupted = 0;
	for (const { manifest } of runs) {
		if (manifest?.status === "interrupted") interrupted++;
		else if (manifest !== undefined) working++;
	}
	const parts = [
		...(working > 0 ? [`${working} run${working === 1 ? "" : "s"} working`] : []),
		...(interrupted > 0 ? [`${interrupted} interrupted`] : []),
	];
	return parts.length > 0 ? `crew: ${parts.join(", ")}` : NO_ACTIVE_RUNS;
}
