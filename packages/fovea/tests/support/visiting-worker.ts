/**
 * A parsing thread's entry for the tree-visitor tests (`engine/extract-visitors.test.ts`): the extraction service with the
 * test's visitors registered first, as a package registers its own (`worker-service.ts`).
 */
import { serveExtraction } from "../../src/engine/extract/worker-service.ts";
import { registerTestVisitors } from "./test-visitors.ts";

registerTestVisitors();
serveExtraction();
