/**
 * Three files a focus for "invoice rounding" ranks in a known order by their words alone, for the tests of the
 * history priors (`focus-recency-prior.test.ts`, `focus-commit-messages.test.ts`): the invoice first, then the
 * currency file, then the ledger; `n` varies a file's text so that each commit changes it.
 */

/** The best match of "invoice rounding": its name and its text say both words. */
export const INVOICE =
	"export function invoiceRounding(total: number): number {\n\t// invoice rounding to cents\n\treturn Math.round(total * 100) / 100;\n}\n";
/** Says "rounding" twice: the words of the code rank it before the ledger. */
export const CURRENCY = (n: number): string =>
	`export function currencyRounding(value: number): number {\n\t// rounding of currency, rounding mode ${n}\n\treturn Math.round(value);\n}\n`;
/** Says "rounding" once. */
export const LEDGER = (n: number): string =>
	`export function ledgerBalance(entries: number[]): number {\n\t// sum, no rounding (${n})\n\treturn entries.reduce((a, b) => a + b, 0);\n}\n`;
