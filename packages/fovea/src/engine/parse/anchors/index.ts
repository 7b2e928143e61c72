/**
 * Anchors: what links files beyond imports and calls. Routes a web framework serves (`routes.ts`, one extractor per
 * framework family; `model/route-path.ts` gives every framework's path one spelling) and string literals files may share
 * (`literals.ts`). Pure text-level extraction; the graph decides which anchors link which files.
 *
 * @module
 */
export { anchorsOf } from "./anchors.ts";
