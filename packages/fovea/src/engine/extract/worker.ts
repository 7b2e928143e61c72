/**
 * The entry of the extract pool's worker threads (`pool.ts`): serves extraction (`worker-service.ts`) with no tree
 * visitor of its own. An esbuild entry point of its own: no top-level await, no path derived from this file's name.
 */
import { serveExtraction } from "./worker-service.ts";

serveExtraction();
