/**
 * The entry of Contour's parsing threads (the bundled CLI points Fovea's extract pool at its build): Fovea's
 * extraction service with Contour's measure visitor registered first (`measure-visitor.ts`). An esbuild entry of its
 * own: no top-level await, no path derived from this file's name.
 */
import { serveExtraction } from "pi-fovea/extract-service";
import { registerMeasureVisitor } from "./measure-visitor.ts";

registerMeasureVisitor();
serveExtraction();
