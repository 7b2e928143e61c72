/**
 * Words as the index counts them. Takes identifiers, paths, queries and file text; gives their terms (split at case
 * and punctuation, stemmed), a file's content terms with their counts, and what a query names precisely.
 *
 * @module
 */
export { contentTerms, forEachContentTerm } from "./content.ts";
export { withoutBoilerplate } from "./issue-boilerplate.ts";
export { rememberedTerms, terms } from "./query.ts";
export { hasBody, type NamedLiteral, readLiterals } from "./query-literals.ts";
export { type AboutRole, type NamedPath, type NamedSymbol, type QueryReading, readQuery } from "./query-reading.ts";
