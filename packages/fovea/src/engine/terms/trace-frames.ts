/**
 * The frames of the traces that print the innermost frame first: a Java stack trace, a Go goroutine dump and a Rust
 * backtrace. Each frame names its function and where it is, on its line (Java) or on an indented line below (Go, Rust):
 *
 * ```
 *     at com.x.json.ReaderBasedJsonParser.nextFieldName(ReaderBasedJsonParser.java:915)       Java
 *     at com.x.maven.BuildTarMojo.execute (BuildTarMojo.java:140)                                Java, as Maven prints it
 * github.com/x/grpc.(*ClientConn).handleServiceConfig(0xc43dc7ac00, 0x1a7)                       Go
 *         /go/src/github.com/x/grpc/clientconn.go:1046 +0x299
 *    2: <fd::cli::Opts as clap::FromArgMatches>::from_arg_matches_mut                            Rust
 *              at ./src/cli.rs:30:9
 * ```
 *
 * (an issue's text often has a dump's tabs turned to spaces, and a Rust frame may have no location). Read as a trace,
 * the frames are weighed as other languages' traces are (`reporting-frames.ts`): the frames the trace opens with that
 * only report the fault, or that are the language's own runtime (Java's `java.util.Objects.requireNonNull`, Go's
 * `runtime.sigpanic`, Rust's `core::panicking::panic_fmt`), are named weakly, and the first frame after them is the
 * innermost: the runtime is not where a project's fault is. A Java trace prints the exception that was thrown last
 * first and what caused it below (`Caused by: …`); the deepest cause was thrown first, so its frames are the
 * innermost, and each enclosing exception's frames follow it outward.
 *
 * A frame's function is written as the code names it: Java's nested classes (`Outer$Inner`) and lambdas left out; Go's
 * import path and package dropped, the receiver unwrapped, closures (`.func1`) and type arguments left out
 * (`(*Engine[...]).handle.func1` is `Engine.handle`); Rust's type arguments left out and a qualified path's type taken
 * for its trait (`<T as Trait>::f` is `T::f`, as `rustPath` reads).
 */
import { frameWeights } from "./reporting-frames.ts";

/** A frame of a trace: its function as the code names it, and where it is, when printed. */
export interface TraceFrame {
	name?: string;
	path?: string;
	line?: number;
	/** How strongly the frame names where the fault is (`frameWeights`). */
	weight: number;
}

/** A Go frame: its function line, then its indented `file.go:line` (`created by` frames too: where it started). */
const GO_FRAME =
	/^[ \t]*(?:created by )?([^\s()]*\.\(\*?[^\s()]+\)[^\s()]*|[^\s()]+)(?:\([^\n]*\))?(?: in goroutine \d+)?[ \t]*\n[ \t]+(\S+\.go):(\d+)/gm;
/** A header opening a goroutine's frames: `goroutine 7 [running]:`. */
const GOROUTINE = /^goroutine \d+ \[/gm;
/** A Rust frame: `  3: path::to::function`, or `  3: 0x55c4e0 - path::h0123`, then maybe `at file.rs:line:col`. */
const RUST_FRAME = /^[ \t]*(\d+): +(?:0x[0-9a-f]+ - )?(\S[^\n]*?)[ \t]*(?:\n[ \t]+at (\S+\.rs):(\d+)(?::\d+)?)?$/gm;
/** The hash Rust's older backtraces append to a symbol: `::h1f2e3d4c5b6a7980`. */
const SYMBOL_HASH = /::h[0-9a-f]{16}$/;
/** Java (and Kotlin) frames: `at com.pkg.Class.method(Class.java:12)`, Maven's with a space before the parenthesis. */
const JAVA_FRAME = /\bat ((?:[\w$]+\.)+[\w$<>]+) ?\(([\w$]+\.(?:java|kt)):(\d+)\)/g;
/** The line opening an exception's cause in a Java trace. */
const JAVA_CAUSE = /^[^\n]*\bCaused by: /gm;
/**
 * Functions of a language's own runtime: Java's and Kotlin's standard library, Go's `runtime` package, Rust's panic
 * machinery.
 */
const RUNTIME =
	/^(?:(?:java|javax|jdk|sun|kotlin)\.|runtime\.|rust_begin_unwind$|__rust_|(?:std|core|alloc)::(?:panicking|rt|sys_common::backtrace|result::unwrap_failed|option::(?:unwrap|expect)_failed)\b)/;
/** A trace's frames innermost first, each function as the trace prints it, for `frameWeights`. */
const traceWeights = (functions: readonly (string | undefined)[]) =>
	frameWeights(
		functions,
		functions.map((name) => name !== undefined && RUNTIME.test(name)),
	);

/**
 * `frames` without a frame the same as the one before it (a recursion, or a line pasted twice): a repeat is no
 * further from the fault than its first print.
 */
function withoutRepeats<T>(frames: readonly T[], key: (frame: T) => string): T[] {
	return frames.filter((frame, k) => k === 0 || key(frame) !== key(frames[k - 1] as T));
}

/**
 * How many of `starts` (ascending positions where a section of a text opens: a cause, a goroutine) are at or before
 * `at`: the number of the section `at` is in. A binary search: a long dump has thousands of sections and frames.
 */
function sectionOf(starts: readonly number[], at: number): number {
	let low = 0;
	let high = starts.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if ((starts[middle] as number) <= at) low = middle + 1;
		else high = middle;
	}
	return low;
}

/** The frames of every Java trace in `text`, deepest cause first; see the module comment. */
export function javaFrames(text: string): Required<TraceFrame>[] {
	const causes = [0, ...[...text.matchAll(JAVA_CAUSE)].map((m) => m.index)];
	const frames = [...text.matchAll(JAVA_FRAME)].map((m) => ({
		qualified: m[1] as string,
		path: m[2] as string,
		line: Number(m[3]),
		cause: sectionOf(causes, m.index),
	}));
	frames.sort((a, b) => b.cause - a.cause);
	const distinct = withoutRepeats(frames, (f) => `${f.qualified} ${f.path}:${f.line}`);
	const weights = traceWeights(distinct.map((f) => f.qualified));
	return distinct.map((f, k) => ({
		name: f.qualified.replace(/\$\w*/g, "").replace(/\.lambda$/, ""),
		path: f.path,
		line: f.line,
		weight: weights[k] as number,
	}));
}

/** The frames of every goroutine dump in `text`, each dump weighed as its own trace. */
export function goFrames(text: string): TraceFrame[] {
	const starts = [...text.matchAll(GOROUTINE)].map((m) => m.index);
	const traces = new Map<number, { qualified: string; path: string; line: number }[]>();
	for (const m of text.matchAll(GO_FRAME)) {
		const trace = sectionOf(starts, m.index);
		const frames = traces.get(trace) ?? [];
		frames.push({ qualified: goFunction(m[1] as string), path: m[2] as string, line: Number(m[3]) });
		traces.set(trace, frames);
	}
	return [...traces.values()].flatMap((frames) => {
		const weights = traceWeights(frames.map((f) => f.qualified));
		return frames.map((f, k) => {
			const name = f.qualified.slice(f.qualified.indexOf(".") + 1);
			return { path: f.path, line: f.line, weight: weights[k] as number, ...(name === "" ? {} : { name }) };
		});
	});
}

/**
 * A Go frame's function with its package (`pkg.Type.method`, `pkg.func`): the import path dropped, the receiver's
 * parentheses and pointer, type arguments and closures' `.funcN` / `.gowrapN` left out.
 */
function goFunction(written: string): string {
	const unqualified = written.slice(written.lastIndexOf("/") + 1);
	return unqualified
		.replace(/\[[^\]]*\]/g, "")
		.replace(/\(\*?([^()]+)\)/, "$1")
		.replace(/(?:\.(?:func|gowrap)\d+)+$/, "")
		.replace(/\.\.\.$/, "");
}

/** The frames of every Rust backtrace in `text`; a trace starts again at frame 0. */
export function rustFrames(text: string): TraceFrame[] {
	const traces: { name: string | undefined; symbol: string; path?: string; line?: number }[][] = [];
	for (const m of text.matchAll(RUST_FRAME)) {
		const symbol = rustPath((m[2] as string).replace(SYMBOL_HASH, ""));
		if (symbol === undefined) continue;
		if (m[1] === "0" || traces.length === 0) traces.push([]);
		traces[traces.length - 1]?.push({
			name: symbol.includes("::") ? symbol : undefined,
			symbol,
			...(m[3] === undefined ? {} : { path: m[3], line: Number(m[4]) }),
		});
	}
	return traces.flatMap((frames) => {
		const weights = traceWeights(frames.map((f) => f.symbol));
		return frames.map((f, k) => ({
			...(f.name === undefined ? {} : { name: f.name }),
			...(f.path === undefined ? {} : { path: f.path, line: f.line }),
			weight: weights[k] as number,
		}));
	});
}

/** A Rust path as written: `a::b::C<T, S>::f`, `<a::C<T> as x::Trait>::f::{{closure}}`, `Vec::<u8>::push`. */
const RUST_PATH = /^[<\w:{}&, >()[\];'*]+$/;

/**
 * The path a Rust symbol names, without type arguments, closures or a trait qualifier: `a::b::C<T, S>::f` is
 * `a::b::C::f`, `<a::C<T> as x::Trait>::f` is `a::C::f` (the type that implements it, where the code is), and
 * `Vec::<u8>::new` is `Vec::new`. Undefined when `written` is not a path: identifiers joined by `::`, or one alone
 * (`main`, `rust_begin_unwind`).
 */
export function rustPath(written: string): string | undefined {
	if (!RUST_PATH.test(written)) return undefined;
	let path = written.replace(/::\{\{closure\}\}|::\{closure#\d+\}/g, "");
	// `<Type as Trait>::rest` → `Type::rest`, innermost first so nested qualifiers unwrap.
	for (let before = ""; before !== path; ) {
		before = path;
		path = path.replace(/<([\w:]+(?:<[^<>]*>)?) as [^<>]*(?:<[^<>]*>[^<>]*)*>/, "$1");
	}
	for (let before = ""; before !== path; ) {
		before = path;
		path = path.replace(/(?:::)?<[^<>]*>/g, "");
	}
	return /^[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*$/.test(path) ? path : undefined;
}
