// Many enrolled roots in one process, as Pi holds them: each root is used in turn through the process's residency
// store (`sharedResidentMaps`, FOVEA_CACHE_ROOTS resident at once, 2 by default, the rest paged out by `evict`), with
// a first `focus` on each (a cold index, the graph build and an answer, as a first `fovea_focus` does). Measured: peak
// RSS (sampled every 5 ms, and the process's maxRSS), RSS and V8 heap after each root, and what a paged-out root
// keeps: how much the V8 heap, after a full collection, grows with each root paged out once the resident ones are
// full (the least-squares slope over the roots), beside the entries the engine itself still accounts for them (facts
// resident, graph, snapshot).
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { sharedResidentMaps } from "../../packages/fovea/src/engine/residency.ts";

const MB = 1024 * 1024;

/** After each root's first focus. */
export interface RootStep {
	root: number;
	focusMs: number;
	filesParsed: number;
	rssMB: number;
	heapUsedMB: number;
	/** V8 heap after a full collection: what stays. */
	liveHeapMB: number;
	maxRssSoFarMB: number;
}

/** What many enrolled roots cost one process. */
export interface EnrolledRoots {
	roots: number;
	filesPerRoot: number;
	residentLimit: number;
	steps: RootStep[];
	peakRssSampledMB: number;
	maxRssMB: number;
	/** After every root was used and a full collection: RSS and V8 heap. */
	settled: { rssMB: number; heapUsedMB: number; arrayBuffersMB: number; externalMB: number };
	/**
	 * KB of live V8 heap (after a full collection) and of RSS each further root adds once `residentLimit` roots are
	 * resident: the slope over the roots, what one root keeps while it is paged out.
	 */
	perPagedOutRoot: { heapKB: number; rssKB: number };
	/** What the engine still accounts for the paged-out roots: facts resident, graphs and snapshots held (all 0). */
	pagedOutHeld: { residentFactBytes: number; graphs: number; snapshots: number };
}

/** A full garbage collection, without starting Node with `--expose-gc`. */
function collect(): void {
	setFlagsFromString("--expose-gc");
	const gc = runInNewContext("gc") as () => void;
	gc();
	gc();
}

/** The least-squares slope of y over x; 0 for fewer than two points. */
function slope(points: readonly (readonly [number, number])[]): number {
	if (points.length < 2) return 0;
	const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
	const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
	let num = 0;
	let den = 0;
	for (const [x, y] of points) {
		num += (x - meanX) * (y - meanY);
		den += (x - meanX) ** 2;
	}
	return den === 0 ? 0 : num / den;
}

/**
 * Uses each of `roots` in turn through the process's residency store, as Pi does, and measures the memory it takes.
 * The fact cache is FOVEA_CACHE_DIR (the caller sets it); every root must hold `filesPerRoot` supported files.
 */
export async function measureEnrolledRoots(roots: readonly string[], filesPerRoot: number): Promise<EnrolledRoots> {
	let peak = process.memoryUsage.rss();
	const sampler = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage.rss());
	}, 5);
	const maps = sharedResidentMaps("enrolled-roots-bench");
	const steps: RootStep[] = [];
	try {
		for (const [i, root] of roots.entries()) {
			const map = maps.use(root);
			const start = performance.now();
			const answer = await map.focus({ text: "parse the configuration and report errors" }, 1500);
			if (answer.snapshot.files.size !== filesPerRoot) {
				throw new Error(`${root}: ${answer.snapshot.files.size} files mapped, ${filesPerRoot} expected`);
			}
			const memory = process.memoryUsage();
			peak = Math.max(peak, memory.rss);
			collect();
			steps.push({
				root: i,
				focusMs: Math.round(performance.now() - start),
				filesParsed: map.index.stats.filesParsed,
				rssMB: Math.round(memory.rss / MB),
				heapUsedMB: Math.round(memory.heapUsed / MB),
				liveHeapMB: Math.round((process.memoryUsage().heapUsed / MB) * 1000) / 1000,
				maxRssSoFarMB: Math.round(process.resourceUsage().maxRSS / 1024),
			});
			process.stderr.write(`root ${i + 1}/${roots.length}: rss ${steps.at(-1)?.rssMB} MB\n`);
		}
		// The last evictions flush their manifests in the background: let them finish before measuring.
		await new Promise((resolve) => setTimeout(resolve, 500));
		const paged = roots.filter((root) => !maps.isResident(root));
		const held = { residentFactBytes: 0, graphs: 0, snapshots: 0 };
		for (const root of paged) {
			const map = maps.get(root);
			if (map === undefined) continue;
			held.residentFactBytes += map.index.residentFacts.bytes;
			if (map.resident) held.graphs++;
			if (map.index.snapshot !== undefined) held.snapshots++;
		}
		collect();
		const settled = process.memoryUsage();
		const full = steps.filter((step) => step.root >= maps.limit);
		maps.retire(roots);
		return {
			roots: roots.length,
			filesPerRoot,
			residentLimit: maps.limit,
			steps,
			peakRssSampledMB: Math.round(peak / MB),
			maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
			settled: {
				rssMB: Math.round(settled.rss / MB),
				heapUsedMB: Math.round(settled.heapUsed / MB),
				arrayBuffersMB: Math.round(settled.arrayBuffers / MB),
				externalMB: Math.round(settled.external / MB),
			},
			perPagedOutRoot: {
				heapKB: Math.round(slope(full.map((step) => [step.root, step.liveHeapMB])) * 1024),
				rssKB: Math.round(slope(full.map((step) => [step.root, step.rssMB])) * 1024),
			},
			pagedOutHeld: held,
		};
	} finally {
		clearInterval(sampler);
	}
}
