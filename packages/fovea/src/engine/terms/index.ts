/**
 * Words as the index counts them. Takes identifiers, paths, queries and file text; gives their terms (split at case
 * and punctuation, stemmed) and a file's content terms with their counts.
 *
 * @module
 */
export { contentTerms, countsContentTerms, forEachContentTerm, useContentTerms } from "./content.ts";
export { rememberedTerms, terms } from "./query.ts";
