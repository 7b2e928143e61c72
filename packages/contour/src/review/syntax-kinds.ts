/**
 * What the syntax walk needs to know of a node type, asked of the grammar and the language's profile once per type
 * id and kept in arrays by id. The walk visits every node of a file (a quarter of a million in this repository), so
 * the per-node questions (is it a comment, a literal, a decision, a callable…) must cost an array read, not a lookup
 * of the type's name in several sets.
 */
import type { LanguageId } from "pi-fovea/engine";
import type { Language } from "web-tree-sitter";
import { needlessCandidates } from "./needless-code.ts";
import { isLiteral, profileOf, type SyntaxProfile } from "./syntax-profile.ts";

/** Flags of a node type; see {@link SyntaxKinds.flags}. */
export const KIND = {
	named: 1,
	comment: 1 << 1,
	literal: 1 << 2,
	interpolatedString: 1 << 3,
	interpolation: 1 << 4,
	decision: 1 << 5,
	repeatedDecision: 1 << 6,
	needlessCandidate: 1 << 7,
	namedFunction: 1 << 8,
	anonymousFunction: 1 << 9,
	classLike: 1 << 10,
	/** Some of its anonymous children are decisions (`&&` of a binary expression). */
	leafDecisionParent: 1 << 11,
	/** The cursor's own `nodeType` for an id without a name: the error symbol. */
	error: 1 << 12,
} as const;

/** The node types of one grammar as one language's walk sees them. */
export class SyntaxKinds {
	readonly #language: Language;
	readonly #profile: SyntaxProfile;
	readonly #candidates: ReadonlySet<string>;
	readonly #names: string[] = [];
	readonly #flags: number[] = [];
	readonly #tokens: string[] = [];

	constructor(language: Language, profile: SyntaxProfile, needlessCandidates: ReadonlySet<string>) {
		this.#language = language;
		this.#profile = profile;
		this.#candidates = needlessCandidates;
	}

	/** The type's name ("ERROR" for the error symbol). */
	name(id: number): string {
		return this.#names[id] ?? this.#learn(id).name;
	}

	/** The type's `KIND` flags. */
	flags(id: number): number {
		return this.#flags[id] ?? this.#learn(id).flags;
	}

	/** The normalized token a leaf of this type stands for: its name if anonymous, `ID` for identifiers. */
	token(id: number): string {
		return this.#tokens[id] ?? this.#learn(id).token;
	}

	#learn(id: number): { name: string; flags: number; token: string } {
		const profile = this.#profile;
		const name = this.#language.types[id] || "ERROR";
		const named = this.#language.nodeTypeIsNamed(id);
		let flags = named ? KIND.named : 0;
		const flag = (on: boolean, bit: number) => {
			if (on) flags |= bit;
		};
		flag(name === "ERROR", KIND.error);
		flag(profile.comments.has(name), KIND.comment);
		flag(isLiteral(profile, name), KIND.literal);
		flag(profile.interpolatedStrings.has(name), KIND.interpolatedString);
		flag(profile.interpolations.has(name), KIND.interpolation);
		flag(profile.decisions.has(name), KIND.decision);
		flag(profile.repeatedDecisions.has(name), KIND.repeatedDecision);
		flag(this.#candidates.has(name), KIND.needlessCandidate);
		flag(profile.namedFunctions.has(name), KIND.namedFunction);
		flag(profile.anonymousFunctions.has(name), KIND.anonymousFunction);
		flag(profile.classLikes.has(name), KIND.classLike);
		flag(profile.leafDecisions.has(name), KIND.leafDecisionParent);
		const token = !named ? name : name.includes("identifier") ? "ID" : name;
		this.#names[id] = name;
		this.#flags[id] = flags;
		this.#tokens[id] = token;
		return { name, flags, token };
	}
}

/** The kinds of each grammar, by the language id its walk uses, kept while the grammar lives. */
const KINDS = new WeakMap<Language, Map<LanguageId, SyntaxKinds>>();

/** The node types of `grammar` as `language`'s walk sees them, learnt once per process and grammar. */
export function kindsOf(grammar: Language, language: LanguageId): SyntaxKinds {
	let byLanguage = KINDS.get(grammar);
	if (byLanguage === undefined) {
		byLanguage = new Map();
		KINDS.set(grammar, byLanguage);
	}
	let kinds = byLanguage.get(language);
	if (kinds === undefined) {
		kinds = new SyntaxKinds(grammar, profileOf(language), needlessCandidates(language));
		byLanguage.set(language, kinds);
	}
	return kinds;
}
