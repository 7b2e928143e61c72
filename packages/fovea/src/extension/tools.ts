import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import type { FoveaMaps, Observer } from "./extension-contract.ts";
import type { Roaming } from "./roaming.ts";
import { toolRenderers } from "./tool-rendering.ts";

// The engine (parser, graph, heat) and the tool bodies load on the first tool call, never at startup.
type Engine = typeof import("../engine/index.ts");
type Runs = typeof import("./tool-runs.ts");
let engineModule: Promise<Engine> | undefined;
let runsModule: Promise<Runs> | undefined;
const loadEngine = (): Promise<Engine> => {
	engineModule ??= import("../engine/index.ts");
	return engineModule;
};
const loadRuns = (): Promise<Runs> => {
	runsModule ??= import("./tool-runs.ts");
	return runsModule;
};

const rootParameter = Type.Optional(
	Type.String({
		description:
			"Project root (absolute, or relative to the session cwd). Omitted: the session cwd's own project (nearest Git marker or manifest, else the cwd). Name it whenever you work outside the cwd's project.",
	}),
);
const maxTokensParameter = Type.Optional(
	Type.Number({ description: "Token budget of the answer (200–20000, default 1500)." }),
);

export type { FoveaMaps } from "./extension-contract.ts";

/** Creates the lazily loaded registry; nothing is imported or allocated until a tool result or tool needs it. */
export function foveaMaps(): FoveaMaps {
	let registry: InstanceType<Engine["ResidentMaps"]> | undefined;
	let observer: Observer | undefined;
	const maps = async () => {
		const engine = await loadEngine();
		// The process's one map per root, shared with Contour (FOVEA_CACHE_ROOTS and FOVEA_WATCH apply to both).
		registry ??= engine.sharedResidentMaps("pi-fovea");
		return registry;
	};
	return {
		maps,
		async observer() {
			const [registry, module] = await Promise.all([maps(), import("../engine/observe/index.ts")]);
			observer ??= new module.Observer(registry);
			return observer;
		},
		loadedObserver: () => observer,
		isResident: (root) => registry?.isResident(root) === true,
		residentSnapshot: (root) => (registry?.isResident(root) === true ? registry.get(root)?.index.snapshot : undefined),
		residentCoupling: (root) => (registry?.isResident(root) === true ? registry.get(root)?.coupling.status : undefined),
		retire: (roots, reason) => {
			registry?.retire(roots);
			observer?.retire(roots, reason === "rotation");
			if (reason === "session") observer?.endSession();
		},
	};
}

/** Registers `fovea_focus`, `fovea_dwell`, `fovea_impact` and `fovea_sketch`; their bodies live in `tool-runs.ts`. */
export function registerFoveaTools(pi: ExtensionAPI, roaming: Roaming, maps: FoveaMaps): void {
	/** What every tool body gets: the call's signal, update and context, the roaming layer and the engine state. */
	const context = async (signal: AbortSignal | undefined, onUpdate: unknown, ctx: ExtensionContext) => ({
		signal,
		onUpdate: onUpdate as Parameters<Runs["runFocus"]>[1]["onUpdate"],
		ctx,
		roaming,
		maps: await maps.maps(),
		observer: await maps.observer(),
	});
	pi.registerTool({
		name: "fovea_focus",
		...toolRenderers("fovea_focus"),
		label: "Fovea focus",
		description:
			"Find the files and symbols of one project that matter for a question: lexical matches seed heat that diffuses over the project's graph of files, symbols, imports, calls, inheritance and tests. Returns exact signatures with file:line near the match, one-line summaries further out, and what could not be mapped.",
		parameters: Type.Object({
			query: Type.String({ description: "What you are looking for: a question, identifiers, or a task description." }),
			path: Type.Optional(Type.String({ description: "A file (relative to the root) to seed the search from." })),
			kind: Type.Optional(
				Type.String({
					description:
						"Only rank symbols of this kind: function, method, class, interface, type, enum, struct, trait, module, constant.",
				}),
			),
			fresh: Type.Optional(Type.Boolean({ description: "Re-check every file for changes before answering." })),
			root: rootParameter,
			maxTokens: maxTokensParameter,
		}),
		async execute(_id, params, signal, onUpdate, ctx) {
			return (await loadRuns()).runFocus(params, await context(signal, onUpdate, ctx));
		},
	});

	pi.registerTool({
		name: "fovea_dwell",
		...toolRenderers("fovea_dwell"),
		label: "Fovea dwell",
		description:
			"Stay with what you have been looking at in one project: heat seeded from your recent reads, edits and focus results spreads further (factor), showing the neighbourhood you have not opened yet.",
		parameters: Type.Object({
			factor: Type.Optional(
				Type.Number({ description: "How far to spread, relative to a focus (default 2, 0.5–20)." }),
			),
			root: rootParameter,
			maxTokens: maxTokensParameter,
		}),
		async execute(_id, params, signal, onUpdate, ctx) {
			return (await loadRuns()).runDwell(params, await context(signal, onUpdate, ctx));
		},
	});

	pi.registerTool({
		name: "fovea_impact",
		...toolRenderers("fovea_impact"),
		label: "Fovea impact",
		description:
			"What a change exposes in one project: the code that depends on the changed files and symbols (or the uncommitted changes, or the changes since a base revision): importers, callers, tests, subclasses and implementers, transitively, each with why it ranked. What the change itself depends on is listed apart, not as exposure. Modelled exposure, not severity.",
		parameters: Type.Object({
			files: Type.Optional(Type.Array(Type.String(), { description: "Changed files, relative to the root." })),
			symbols: Type.Optional(
				Type.Array(Type.String(), {
					description:
						"Changed symbol names: a simple name (greet) or qualified by its container as answers print it (Greeter.greet).",
				}),
			),
			includeUncommitted: Type.Optional(
				Type.Boolean({ description: "Add the root's uncommitted and untracked files (Git)." }),
			),
			base: Type.Optional(
				Type.String({ description: "Add files changed between the merge base with this revision and HEAD." }),
			),
			root: rootParameter,
			maxTokens: maxTokensParameter,
		}),
		async execute(_id, params, signal, onUpdate, ctx) {
			return (await loadRuns()).runImpact(params, await context(signal, onUpdate, ctx));
		},
	});

	pi.registerTool({
		name: "fovea_sketch",
		...toolRenderers("fovea_sketch"),
		label: "Fovea sketch",
		description:
			"An overview of one project: languages, size, its most connected files with their main symbols, directories, and files that could not be mapped. Use it when entering a project you have not seen.",
		parameters: Type.Object({ root: rootParameter, maxTokens: maxTokensParameter }),
		async execute(_id, params, signal, onUpdate, ctx) {
			return (await loadRuns()).runSketch(params, await context(signal, onUpdate, ctx));
		},
	});
}
