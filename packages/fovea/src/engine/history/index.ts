/**
 * History. Takes a root's Git history (HEAD's ancestors, through the hardened runner); gives its change coupling:
 * which files changed together, how often, in the newest commits (`coupledWith`), mined once per new HEAD and kept
 * with the facts.
 *
 * @module
 */
export {
	ChangeCoupling,
	type ChangeCouplingOptions,
	type Coupled,
	type CouplingStats,
	type CouplingStatus,
} from "./change-coupling.ts";
export type { HistorySource } from "./coupling-miner.ts";
