/**
 * Words as the index counts them. Takes identifiers, paths, queries and file text; gives their terms (split at case
 * and punctuation, stemmed) and a file's content terms with their counts.
 *
 * @module
 */
export { contentTerms, forEachContentTerm } from "./content.ts";
export { rememberedTerms, terms } from "./query.ts";
