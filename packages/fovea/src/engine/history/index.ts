/**
 * History. Takes a root's Git history (HEAD's ancestors, through the hardened runner); gives its change coupling:
 * the commits of the newest window with the files each changed and their subjects (`history`), from which the graph
 * builds its coupled edges; mined once per new HEAD and kept with the facts.
 *
 * @module
 */
export {
	ChangeCoupling,
	type ChangeCouplingOptions,
	type CouplingStats,
	type CouplingStatus,
} from "./change-coupling.ts";
export type { HistorySource } from "./coupling-miner.ts";
