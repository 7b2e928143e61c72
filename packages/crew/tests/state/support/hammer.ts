/**
 * Child process for the concurrency test: `node hammer.ts <root> <runId> <label> <count>` appends `count` events
 * and increments two counters (one in the manifest's meta, one in a task's meta) `count` times each.
 */
import { RunStore } from "../../../src/state/index.ts";

const [root, runId, label, countText] = process.argv.slice(2);
if (!root || !runId || !label || !countText) throw new Error("usage: hammer.ts <root> <runId> <label> <count>");
const store = await RunStore.open(root);
for (let i = 0; i < Number(countText); i++) {
	await store.appendEvent(runId, { type: "hammer.tick", data: { label, i } });
	await store.updateManifest(runId, (m) => ({ meta: { counter: Number(m.meta?.counter ?? 0) + 1 } }));
	await store.updateTask(runId, "plan", (task) => ({ meta: { counter: Number(task.meta?.counter ?? 0) + 1 } }));
}
