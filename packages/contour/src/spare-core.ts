/**
 * Whether this machine has a core to spare for a review's parsing thread. The thread's work is partly speculative
 * (files handed over before the review knows it will read them, measures it may not keep) and it starts a second
 * engine: on an idle core that overlaps the review's own parsing, but on a machine whose cores are all busy it only
 * competes with the review's thread and makes the review slower. So the thread is used only while the last minute's
 * load average leaves at least half a core idle: the thread's share of a cold review is about a third of its CPU
 * (gin d9307dbc: ~0.3 of 0.9 s), which half a core still runs beside the review's thread. A platform without a load
 * average (Windows reports zeros) counts as idle.
 */
import { availableParallelism, loadavg } from "node:os";

/** Whether `cores` and the last minute's load average `load` leave half a core idle (and there are two cores). */
export function spareCore(cores: number = availableParallelism(), load: number = loadavg()[0] ?? 0): boolean {
	return cores >= 2 && cores - load >= 0.5;
}
