/**
 * The walk of a root. Takes a root directory (or a few named paths of it) and its ignore rules; gives the source
 * files to index with their metadata (never their content), the settings files, and the coverage gaps of what it
 * cannot map. Also reads one file's content within bounds and tells source from binary, minified or generated text.
 *
 * @module
 */
export { classifyName } from "./classification.ts";
export { contentGap, type ReadOutcome, readBounded, readBoundedSync } from "./file-content.ts";
export { type ScannedFile, unchanged } from "./file-metadata.ts";
export { forgetIgnoreRules, rememberedIgnoreFiles } from "./ignore-rules.ts";
export { scanPaths } from "./path-check.ts";
export { ensureRootPresent, RootGoneError } from "./root-presence.ts";
export { isSettingsPath } from "./settings-files.ts";
export { skippedDirGap } from "./skip-dirs.ts";
export { DEFAULT_MAX_FILE_BYTES, type ScanResult, scanRoot } from "./walk.ts";
