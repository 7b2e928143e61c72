/**
 * The version of every file measure (`measure.ts`). Apart from the measuring code so that what only keys caches by it
 * (the snapshot's analysis key, the measure cache) does not load the parser: a review answered from a kept report
 * loads no more than it needs.
 */

/** Bump when any measured value would change for the same content. */
export const MEASURE_VERSION = 6;
