/**
 * Grammars compile on V8's baseline WebAssembly compiler (Liftoff) only, in every process; the runtime keeps V8's
 * defaults.
 *
 * A tree-sitter grammar is a large module whose code is mostly one huge lexer function beside its tables. With V8's
 * defaults its hot functions are optimized in the background: for the TypeScript grammar a second or more of the
 * second core in a fresh process, the core a parsing thread would use; and Node waits for that background work
 * before a process exits and whenever its event loop runs dry, which makes a short CLI run several times longer. A
 * parse spends its time in web-tree-sitter's own module (the parse loop, tree cursors, queries): small, compiled
 * first, with V8's defaults, so its hot functions are still optimized. With the grammar projects' own builds a cold
 * index takes as long either way, so nothing is lost where the optimizing compiler would have paid off (see
 * bench/HISTORY.md).
 *
 * V8 has one set of flags per process, so the flag is on only while this thread compiles grammars, and off again
 * once none is compiling: a module that another thread or another package compiles in that window is compiled the
 * same way (slower code, never different results). A process started with `--liftoff-only`, or one that asks for the
 * baseline compiler everywhere, keeps it.
 *
 * Two rules make the window exact. A grammar is compiled whole inside it (`--no-wasm-lazy-compilation`): V8 compiles a
 * function lazily, on its first call, under the flags of that moment, so a lazily compiled grammar would be optimized
 * after all once the window closed. And closing it gives back what `--liftoff-only` took: setting it also turns
 * tier-up off, and clearing it does not turn tier-up on again, so without that every module compiled afterwards in
 * the process (the runtime of a parsing thread, any other package's WebAssembly in the Pi host) would stay on the
 * baseline compiler for good. What the process was started with (`--no-wasm-tier-up` and the like) is kept.
 */
import { setFlagsFromString } from "node:v8";

/** Runs a compile with WebAssembly on the baseline compiler. */
export type CompileScope = <T>(compile: () => Promise<T>) => Promise<T>;

/** The flags of a grammar compile: the baseline compiler, every function compiled now (see the module comment). */
export const GRAMMAR_COMPILE_FLAGS = "--liftoff-only --no-wasm-lazy-compilation";

/** The command line the process was started with, V8 flags included. */
const startArgs = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];

/** Each of `names` (V8 boolean flags, on by default) as the process was started: on unless started with `--no-…`. */
function asStarted(names: readonly string[], args: readonly string[]): string {
	return names.map((name) => (args.includes(`--no-${name}`) ? `--no-${name}` : `--${name}`)).join(" ");
}

/**
 * The flags that end a grammar compile: lazy compilation back, and unless the process keeps the baseline compiler
 * (`keepBaseline`), the optimizing tiers `--liftoff-only` turned off, each as the process was started (`args`).
 */
export function afterGrammarCompileFlags(keepBaseline: boolean, args: readonly string[] = startArgs): string {
	if (keepBaseline) return asStarted(["wasm-lazy-compilation"], args);
	return `--no-liftoff-only ${asStarted(["wasm-lazy-compilation", "wasm-tier-up", "wasm-dynamic-tiering"], args)}`;
}

/**
 * A scope that turns the grammar flags on (through `setFlags`) when the first of overlapping compiles starts and off
 * when the last one ends, failed or not; the baseline compiler stays on while `keepOn()` (the whole process is meant to
 * stay on it).
 */
export function baselineCompilerScope(setFlags: (flags: string) => void, keepOn: () => boolean): CompileScope {
	let compiling = 0;
	return async (compile) => {
		if (compiling++ === 0) setFlags(GRAMMAR_COMPILE_FLAGS);
		try {
			return await compile();
		} finally {
			if (--compiling === 0) setFlags(afterGrammarCompileFlags(keepOn()));
		}
	};
}

/** Whether the process was started on the baseline compiler: then it stays there. */
const started = startArgs.includes("--liftoff-only");
/** Whether all of this process's WebAssembly stays on the baseline compiler. */
let everywhere = started;
/** Bytes of source from which an extraction takes the runtime off the baseline compiler (`expectExtraction`). */
let optimizeFrom = Number.POSITIVE_INFINITY;

/**
 * Puts all WebAssembly compiled from now on, the runtime's too, on the baseline compiler: for a short run (a CLI
 * command), where optimizing even the runtime's hot functions costs more than it returns. The extract pool's worker
 * threads follow (`baselineCompilerEverywhere`). A process switch by nature, not an option of a code map: V8's flag
 * governs every compile in the process.
 *
 * `optimizeFromBytes`: unless the process was started with `--liftoff-only`, an extraction of at least this many
 * bytes of source announced before the runtime is compiled (`expectExtraction`, a cold index right after its walk)
 * gives the runtime V8's defaults back: there the parse loop's optimized code pays for its compiles. A cold `fovea
 * status` of vuejs/core (4.4 MB) took 2.30 s of CPU so against 2.60 s; one of express (0.5 MB) 0.54 s against 0.59 s
 * on the baseline compiler. Default: never.
 */
export function useBaselineCompilerEverywhere(optimizeFromBytes = Number.POSITIVE_INFINITY): void {
	everywhere = true;
	optimizeFrom = optimizeFromBytes;
	setFlagsFromString("--liftoff-only");
}

/**
 * Announces an extraction of `bytes` bytes of source; see `useBaselineCompilerEverywhere`. The grammars stay on the
 * baseline compiler either way (`onBaselineCompiler`), and so does a runtime already compiled.
 */
export function expectExtraction(bytes: number): void {
	if (!everywhere || started || bytes < optimizeFrom) return;
	everywhere = false;
	optimizeFrom = Number.POSITIVE_INFINITY;
	// `--liftoff-only` turned tier-up off by implication when it was set; clearing it does not turn it on again.
	setFlagsFromString(afterGrammarCompileFlags(false));
}

/** Whether {@link useBaselineCompilerEverywhere} holds for this thread (or the process was started with the flag). */
export function baselineCompilerEverywhere(): boolean {
	return everywhere;
}

/** The scope each grammar's `Language.load` runs in: this thread's compiles, V8's process-wide flag. */
export const onBaselineCompiler: CompileScope = baselineCompilerScope(setFlagsFromString, () => everywhere);
