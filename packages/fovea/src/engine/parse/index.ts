/**
 * In-process tree-sitter. Takes a file's source text and language; gives its facts (symbols, imports, calls,
 * content terms). `parser.ts` loads the grammars (on V8's baseline compiler, `grammar-compiler.ts`); `languages/`
 * holds one extractor per language family.
 *
 * @module
 */
export { baselineCompilerEverywhere, expectExtraction, useBaselineCompilerEverywhere } from "./grammar-compiler.ts";
export { type Extractor, hashOf, isEngineExtractor, loadExtractor, withSyntaxTree, withSyntaxTrees } from "./parser.ts";
