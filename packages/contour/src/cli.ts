#!/usr/bin/env node
/**
 * `contour`: Contour's structural review without a model, on the Git project of the current directory (or
 * `--root`). Exit codes: 0 ok, 1 findings that violate an explicit policy (`--policy FILE` or the root's
 * `.pi/contour/policy.json`), 2 usage or input error (unknown flag, non-Git or deleted root, unknown base,
 * conflicts, invalid policy) or an answer that could not be written (ENOSPC, EIO). A reader that closes the pipe
 * early (`| head`) is no error: the run ends quietly with its answer's code (`pi-fovea/cli-output`). Reports and measures
 * are cached on disk (see `contourCacheDir`), so a run on an unchanged root answers from its report and a run after
 * a one-file edit parses only that file.
 *
 *   contour review [--staged|--working-tree|--base REF] [--root DIR] [--json] [--max-tokens N] [--max-findings N]
 *                  [--policy FILE]
 *   contour status [--root DIR] [--json]
 *
 * Installed, `contour` runs this entry bundled into one JavaScript file (`bin/contour.js` picks `dist/cli.js` while it
 * is current, see `scripts/build-clis.ts`). It prepares the process for a short run before the commands
 * (`cli-commands.ts`) load: run from the sources, their stripped JavaScript comes from the cache directory
 * (`cli-module-cache.ts`). The commands keep all WebAssembly on V8's baseline compiler (`useBaselineCompilerEverywhere`
 * of pi-fovea's engine), so a review never waits for V8 to optimize the tree-sitter grammars or the runtime, and its
 * JavaScript reaches V8's optimizing compiler later, as Fovea's CLI does (`pi-fovea/cli-tiering`): most functions of a
 * review are warm, not hot, and their background compiles compete with the review for the two cores. Measured with
 * the process's CPU time (user + system), 8 alternating cold reviews each: gin d9307dbc 700 → 610 ms, flask a29f88ce
 * 440 → 420 ms (medians).
 */
import { join } from "node:path";
import { useShortRunTiering } from "pi-fovea/cli-tiering";
import { contourCacheDir } from "./checkpoint/cache-dir.ts";
import { cacheStrippedModules } from "./cli-module-cache.ts";

useShortRunTiering();
// Bundled (`dist/cli.js`, see `bin/contour.js`), there are no TypeScript modules left to strip.
if (import.meta.url.endsWith(".ts")) cacheStrippedModules(join(contourCacheDir(), "modules"));
const { runCli } = await import("./cli-commands.ts");
await runCli(process.argv.slice(2));
