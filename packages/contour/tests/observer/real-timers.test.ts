/**
 * The observer on real timers: the default timer drives passes, `stop` ends them, and an observer left running
 * never holds its host process open (its timers are unref'd). Assertions count passes; no test measures time.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { BackgroundObserver } from "../../src/observer/index.ts";
import { deferred } from "./fake-clock.ts";

const observerModule = join(dirname(fileURLToPath(import.meta.url)), "../../src/observer/background-observer.ts");

describe("background observer: real timers", () => {
	it("short ticks warm roots in turn until stopped", async () => {
		const enough = deferred();
		const warmed: string[] = [];
		const observer = new BackgroundObserver({
			tickMs: 20,
			debounceMs: 0,
			enabled: true,
			maxRoots: 32,
			async warm(root) {
				warmed.push(root);
				if (warmed.length === 4) enough.resolve();
			},
		});
		// The observer's timers are unref'd, so the test, like any host, keeps its own process alive while it waits.
		const keepAlive = setInterval(() => {}, 1000);
		try {
			observer.noteActivity("/a", 1);
			observer.noteActivity("/b", 1);
			await enough.promise;
			observer.stop();
			await observer.idle();
			const passes = observer.stats().passes;
			assert.deepEqual(new Set(warmed), new Set(["/a", "/b"]));
			// Several ticks' worth of quiet: a stopped observer starts nothing more.
			await sleep(100);
			assert.equal(observer.stats().passes, passes);
			assert.equal(observer.stats().errors, 0);
		} finally {
			clearInterval(keepAlive);
		}
	});

	it("a running observer does not keep the process alive", () => {
		const script = [
			`import { BackgroundObserver } from ${JSON.stringify(observerModule)};`,
			"const observer = new BackgroundObserver({ tickMs: 60_000, enabled: true, maxRoots: 32, warm: async () => {} });",
			'observer.noteActivity("/a", 1);',
			'console.log("armed");',
		].join("\n");
		// Without unref the armed one-minute timer would hold the child open until the timeout kills it.
		const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
			encoding: "utf8",
			timeout: 30_000,
			env: { ...process.env, NODE_OPTIONS: "" },
		});
		assert.equal(output.trim(), "armed");
	});
});
