/**
 * How strongly each frame of a trace names where the fault is. The innermost frame is the strongest and each frame
 * further out weaker, except the frames that only report the fault: a helper that builds or throws the error
 * (`JsonParser._constructError`, `ParserMinimalBase._reportUnexpectedChar`, `throwIfClosed`, `raise_error`, `fail`)
 * is innermost in every trace it raises, whatever went wrong. Such frames at the inner end of a trace are named
 * weakly, and the first frame outside them (`ReaderBasedJsonParser.nextFieldName`) counts as the innermost. A helper
 * further out is an ordinary frame: something it called failed, so the fault may well be its own (jib's NPE inside
 * `RegistryEndpointCaller.newRegistryErrorException`, where the fix went).
 */

/** How much weaker each frame is than the next one inward. */
const FRAME_DECAY = 0.8;
/** Frames are named at least this strongly; a reporting frame exactly this strongly. */
const MIN_FRAME_WEIGHT = 0.3;
/** A function that reports, throws or asserts: `reportError`, `_report_unexpected`, `throwIfClosed`, `fail`. */
const REPORTS = /^_*(?:report|throw|raise|fail|panic|abort|assert)(?![a-z])/;
/** A function that builds an error to throw: `_constructError`, `newParseException`, `make_error`. */
const BUILDS_ERROR = /^_*(?:construct|create|make|new|build|wrap)\w*(?:error|exception)$/i;

/** Whether the frame of function `name` (qualified or not) only reports the fault; see the module comment. */
export function isReportingFrame(name: string | undefined): boolean {
	if (name === undefined) return false;
	const last = name.slice(Math.max(name.lastIndexOf("."), name.lastIndexOf(":")) + 1);
	return REPORTS.test(last) || BUILDS_ERROR.test(last);
}

/**
 * The weights of a trace's frames given their functions innermost first (undefined when a frame names none): the
 * reporting frames the trace opens with 0.3, each other frame 0.8 to the power of its place after them, at least 0.3.
 * A frame `runtime` marks (the language's own library: Java's `java.util.Objects`, Go's `runtime.sigpanic`) counts as
 * reporting there: a project's fault is not in the runtime, which only passed it on.
 */
export function frameWeights(functions: readonly (string | undefined)[], runtime: readonly boolean[] = []): number[] {
	const opens = (k: number) => runtime[k] === true || isReportingFrame(functions[k]);
	let reporting = 0;
	while (reporting < functions.length && opens(reporting)) reporting++;
	return functions.map((_, k) =>
		k < reporting ? MIN_FRAME_WEIGHT : Math.max(MIN_FRAME_WEIGHT, FRAME_DECAY ** (k - reporting)),
	);
}
