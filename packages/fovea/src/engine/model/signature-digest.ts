/**
 * A digest of a file's symbols' signatures, kept by a summary whose signatures are paged out (`refresh/fact-budget.ts`):
 * what the file's semantic fingerprint (`observe/fingerprint.ts`) reads in their place, so a change of a signature
 * is still a change of meaning while the signatures themselves stay on disk. Whitespace, and a comma before a closing
 * bracket, are left out of it, as the fingerprint leaves them out of a signature: a formatter's edit is no change.
 */
import type { SymbolFact } from "./facts.ts";

/** FNV-1a (32-bit) of `symbols`' signatures in order, each ended by a newline, as 8 hex digits. */
export function signatureDigest(symbols: readonly SymbolFact[]): string {
	let hash = 0x811c9dc5;
	const add = (code: number) => {
		hash = Math.imul(hash ^ code, 0x01000193);
	};
	for (const { signature } of symbols) {
		for (let i = 0; i < signature.length; i++) {
			const code = signature.charCodeAt(i);
			if (isSpace(code) || (code === 44 && closesNext(signature, i + 1))) continue;
			add(code);
		}
		add(10);
	}
	return (hash >>> 0).toString(16).padStart(8, "0");
}

/** Whether the first character after `from` that is not whitespace closes a bracket (`)`, `]`, `}`, `>`). */
function closesNext(text: string, from: number): boolean {
	for (let i = from; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (isSpace(code)) continue;
		return code === 41 || code === 93 || code === 125 || code === 62;
	}
	return false;
}

/** Whether `code` is whitespace as a regular expression's `\s` reads it (the characters signatures hold). */
function isSpace(code: number): boolean {
	return (
		code === 32 ||
		(code >= 9 && code <= 13) ||
		code === 160 ||
		code === 0xfeff ||
		(code >= 0x2000 && code <= 0x200a) ||
		code === 0x2028 ||
		code === 0x2029 ||
		code === 0x202f ||
		code === 0x205f ||
		code === 0x3000 ||
		code === 0x1680
	);
}
