#!/usr/bin/env node
/**
 * `contour`: Contour's structural review without a model, on the Git project of the current directory (or
 * `--root`). Exit codes: 0 ok, 1 findings that violate an explicit policy (`--policy FILE` or the root's
 * `.pi/contour/policy.json`), 2 usage or input error (unknown flag, non-Git or deleted root, unknown base,
 * conflicts, invalid policy). Reports and measures are cached on disk (see `contourCacheDir`), so a run on an
 * unchanged root answers from its report and a run after a one-file edit parses only that file.
 *
 *   contour review [--staged|--working-tree|--base REF] [--root DIR] [--json] [--max-tokens N] [--max-findings N]
 *                  [--policy FILE]
 *   contour status [--root DIR] [--json]
 *
 * Installed, `contour` runs this entry bundled into one JavaScript file (`bin/contour.js` picks `dist/cli.js` while it
 * is current, see `scripts/build-clis.ts`). It prepares the process for a short run before the commands
 * (`cli-commands.ts`) load: run from the sources, their stripped JavaScript comes from the cache directory
 * (`cli-module-cache.ts`); and WebAssembly stays on V8's baseline compiler. The tree-sitter grammars are large
 * WebAssembly modules; optimizing them in the background takes longer than a review of a few files parses, and while
 * it runs, file system calls of this process were seen to wait for it for one to two seconds (a run after a one-file
 * edit took twice as long). A process that parses for minutes, like the extension's host, is better served by V8's
 * defaults, so this is the CLI's choice alone.
 */
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { contourCacheDir } from "./checkpoint/cache-dir.ts";
import { cacheStrippedModules } from "./cli-module-cache.ts";

setFlagsFromString("--liftoff-only");
// Bundled (`dist/cli.js`, see `bin/contour.js`), there are no TypeScript modules left to strip.
if (import.meta.url.endsWith(".ts")) cacheStrippedModules(join(contourCacheDir(), "modules"));
const { runCli } = await import("./cli-commands.ts");
await runCli(process.argv.slice(2));
