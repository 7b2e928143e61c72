/**
 * Import resolution. Takes an import as written, the importing file and the root's file list and settings
 * (tsconfig paths, go.mod, Cargo, package.json); gives the project files it names, plus test ↔ subject links by
 * naming convention. Pure over the file list: the settings are read once, here, within bounds.
 *
 * @module
 */
export { type ResolutionContext, resolveImport } from "./imports.ts";
export { type ResolutionSettings, readResolutionSettings, settingsChanged } from "./settings.ts";
export { isTestPath, testSubjects } from "./test-links.ts";
