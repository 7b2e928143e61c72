/**
 * The CLI's cache of stripped TypeScript: a source is stripped once per content and Node version, later processes
 * load the stored JavaScript, an edit is a new entry, and a directory others may write is not used. Real processes,
 * since module loading is per process.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { cleanup, tempDir } from "./git/support.ts";

after(cleanup);

const PROBE = fileURLToPath(new URL("./support/module-cache-probe.ts", import.meta.url));

interface ProbeRun {
	stats: { hits: number; stripped: number } | null;
	values: unknown[];
	stderr: string;
}

function probe(dir: string, ...modules: string[]): ProbeRun {
	const run = spawnSync(process.execPath, [PROBE, dir, ...modules], {
		encoding: "utf8",
		env: { ...process.env, NODE_OPTIONS: "" },
	});
	assert.equal(run.status, 0, run.stderr);
	return { ...(JSON.parse(run.stdout) as Omit<ProbeRun, "stderr">), stderr: run.stderr };
}

describe("stripped-module cache", () => {
	it("strips a source once; the next process loads the stored JavaScript; an edit is a new entry", () => {
		const sources = tempDir("contour-modules-src-");
		const cache = join(tempDir("contour-modules-cache-"), "modules");
		const module = join(sources, "answer.ts");
		writeFileSync(
			module,
			"interface Box { n: number }\nconst box: Box = { n: 41 };\nexport const value: number = box.n + 1;\n",
		);
		const first = probe(cache, module);
		assert.deepEqual(first.values, [42]);
		assert.deepEqual(first.stats, { hits: 0, stripped: 1 });
		assert.equal(first.stderr, "", "no notice that the stripping function is experimental");
		assert.equal(readdirSync(cache).filter((name) => name.endsWith(".js")).length, 1);
		const second = probe(cache, module);
		assert.deepEqual([second.stats, second.values], [{ hits: 1, stripped: 0 }, [42]]);
		writeFileSync(module, "export const value: string = 'edited';\n");
		const edited = probe(cache, module);
		assert.deepEqual([edited.stats, edited.values], [{ hits: 0, stripped: 1 }, ["edited"]]);
	});

	it("a directory that others may write is not used: Node loads every module itself", () => {
		const cache = tempDir("contour-modules-open-");
		chmodSync(cache, 0o777);
		const module = join(tempDir("contour-modules-src-"), "plain.ts");
		writeFileSync(module, "export const value: number = 7;\n");
		const run = probe(cache, module);
		assert.deepEqual([run.stats, run.values], [null, [7]]);
		assert.deepEqual(readdirSync(cache), []);
	});
});
