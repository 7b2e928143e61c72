/**
 * How work on the main thread gives way: time slices, file system calls synchronous while they are fast, and
 * progress reported at a pace a person can read. Takes a loop's work; gives the event loop its turns.
 *
 * @module
 */
export { settlesWithin } from "./patience.ts";
export { pacedProgress } from "./progress.ts";
export { type Pace, syncWhileFast } from "./sync-while-fast.ts";
export { TimeSlice } from "./time-slice.ts";
