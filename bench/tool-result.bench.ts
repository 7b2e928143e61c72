// What the roaming layer's `tool_result` handler adds to each successful tool call, measured on the real handler
// (registered by the real extension factories) against real Git repositories in a temp dir. Prints JSON.
//
//   npm run bench            (or: node bench/tool-result.bench.ts [--iterations N])
//
// Cases: `cached` repeats a path whose discovery is in the 1-second metadata cache; `uncached` clears the cache
// before every call, so each call walks and probes; `burst` feeds 1,000 results spread over 32 repositories to a
// ring of 32. `empty` times an async no-op through the same harness, so its median is the measurement floor.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import foveaExtension from "../packages/fovea/src/extension/index.ts";
import { discovery } from "../packages/fovea/src/workspace/enrollment.ts";

type Handler = (event: unknown, ctx: unknown) => unknown;

const { values } = parseArgs({ options: { iterations: { type: "string", default: "2000" } } });
const iterations = Math.max(10, Number.parseInt(values.iterations ?? "2000", 10) || 2000);

const base = mkdtempSync(join(tmpdir(), "fovea-bench-"));
const repos = Array.from({ length: 32 }, (_, i) => {
	const repo = join(base, `repo-${String(i).padStart(2, "0")}`);
	mkdirSync(join(repo, ".git"), { recursive: true });
	mkdirSync(join(repo, "src", "deep", "er"), { recursive: true });
	writeFileSync(join(repo, "src", "deep", "er", "main.ts"), "export const x = 1;\n");
	return repo;
});

const handlers = new Map<string, Handler[]>();
let appended = 0;
const pi = {
	on: (event: string, handler: Handler) => handlers.set(event, [...(handlers.get(event) ?? []), handler]),
	registerCommand: () => {},
	registerTool: () => {},
	appendEntry: () => {
		appended++;
	},
	events: { on: () => () => {}, emit: () => {} },
};
foveaExtension(pi as never);
const ctx = {
	cwd: base,
	hasUI: false,
	sessionManager: { getBranch: () => [], getSessionId: () => "bench-session" },
};
const fire = async (event: string, payload: unknown) => {
	for (const handler of handlers.get(event) ?? []) await handler(payload, ctx);
};
await fire("session_start", { type: "session_start", reason: "startup" });

const readOf = (repo: string) => ({
	type: "tool_result",
	toolName: "read",
	toolCallId: "call",
	input: { path: join(repo, "src", "deep", "er", "main.ts") },
	content: [],
	isError: false,
});

async function measure(label: string, count: number, before: (i: number) => void, event: (i: number) => unknown) {
	const samples: number[] = [];
	for (let i = 0; i < count; i++) {
		before(i);
		const payload = event(i);
		const start = process.hrtime.bigint();
		await fire("tool_result", payload);
		samples.push(Number(process.hrtime.bigint() - start) / 1000);
	}
	samples.sort((a, b) => a - b);
	const at = (q: number) => round(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0);
	return {
		label,
		calls: count,
		medianMicros: at(0.5),
		p95Micros: at(0.95),
		totalMillis: round(samples.reduce((s, x) => s + x, 0) / 1000),
	};
}

const round = (n: number) => Math.round(n * 100) / 100;
const first = repos[0] as string;

// Warm the lazily loaded enrollment module and the JIT once, outside every measurement.
for (let i = 0; i < 200; i++) await fire("tool_result", readOf(first));

const emptyHandlers = handlers.get("tool_result");
handlers.set("tool_result", [async () => {}]);
const empty = await measure(
	"empty",
	iterations,
	() => {},
	() => readOf(first),
);
handlers.set("tool_result", emptyHandlers ?? []);

const cached = await measure(
	"cached",
	iterations,
	() => {},
	() => readOf(first),
);
const uncached = await measure(
	"uncached",
	Math.min(iterations, 500),
	() => discovery.clear(),
	() => readOf(first),
);
const appendsBefore = appended;
const probesBefore = discovery.stats.probes;
const burst = await measure(
	"burst",
	1000,
	() => {},
	(i) => readOf(repos[i % repos.length] as string),
);

rmSync(base, { recursive: true, force: true });
const target = { cachedMedianMicros: 50 };
process.stdout.write(
	`${JSON.stringify(
		{
			benchmark: "tool_result handler cost per call",
			node: process.version,
			iterations,
			cases: [
				empty,
				cached,
				uncached,
				{ ...burst, entriesAppended: appended - appendsBefore, probes: discovery.stats.probes - probesBefore },
			],
			target,
			cachedMeetsTarget: cached.medianMicros < target.cachedMedianMicros,
		},
		null,
		2,
	)}\n`,
);
