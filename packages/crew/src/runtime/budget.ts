import { FieldReader } from "../state/field-reader.ts";
import type { AgentUsage } from "./agent-capture.ts";

/** What a budget can limit: model turns, tool calls, tokens and cost (US dollars), as the runtime sums them. */
export const BUDGET_KEYS = ["turns", "toolCalls", "tokens", "cost"] as const;

/** One limited quantity. */
export type BudgetKey = (typeof BUDGET_KEYS)[number];

/** Limits on an agent's (or a whole run's) spending; an absent key is unlimited. */
export type Budget = Partial<Record<BudgetKey, number>>;

/** What was spent, in the budget's terms. */
export type Spent = Record<BudgetKey, number>;

/** A limit that was reached. */
export interface BudgetBreach {
	key: BudgetKey;
	spent: number;
	limit: number;
}

const WORDS: Record<BudgetKey, string> = { turns: "turns", toolCalls: "tool calls", tokens: "tokens", cost: "cost" };

/** Nothing spent. */
export function nothingSpent(): Spent {
	return { turns: 0, toolCalls: 0, tokens: 0, cost: 0 };
}

/** The spending an agent's summed usage amounts to. */
export function spentOf(usage: Partial<AgentUsage> | undefined): Spent {
	return {
		turns: usage?.turns ?? 0,
		toolCalls: usage?.toolCalls ?? 0,
		tokens: usage?.totalTokens ?? 0,
		cost: usage?.cost ?? 0,
	};
}

/** The sum of several spendings (a run's agents). */
export function addSpent(...all: Spent[]): Spent {
	const total = nothingSpent();
	for (const spent of all) for (const key of BUDGET_KEYS) total[key] += spent[key];
	return total;
}

/**
 * Reads the budget at `key` of `reader` (a definition's front matter, a tool call, a manifest): an object of
 * `turns`, `toolCalls`, `tokens` (positive integers) and `cost` (a positive number of dollars). Unknown keys and
 * bad values are errors naming the field, as every other field of those files.
 */
export function readBudget(reader: FieldReader, key: string): Budget | undefined {
	const raw = reader.optionalObject(key);
	if (raw === undefined) return undefined;
	const r = FieldReader.of(raw, reader.field(key), reader.fail);
	r.onlyKeys(BUDGET_KEYS);
	const budget: Budget = {};
	for (const k of ["turns", "toolCalls", "tokens"] as const) {
		const value = r.optionalInteger(k, 1, 1_000_000_000_000);
		if (value !== undefined) budget[k] = value;
	}
	if (r.has("cost")) {
		const cost = r.value.cost;
		if (typeof cost !== "number" || !Number.isFinite(cost) || cost <= 0) {
			throw r.error(`expected a positive number of US dollars, got ${JSON.stringify(cost)}`, "cost");
		}
		budget.cost = cost;
	}
	if (Object.keys(budget).length === 0) throw reader.error(`name at least one of ${BUDGET_KEYS.join(", ")}`, key);
	return budget;
}

/** A budget given as data from outside (a tool call), checked; `what` names it in errors. */
export function checkedBudget(value: unknown, what: string): Budget | undefined {
	if (value === undefined) return undefined;
	const fail = (message: string, field: string | undefined) =>
		new Error(`${what}: field "${field ?? what}": ${message}`);
	return readBudget(FieldReader.of({ [what]: value }, "", fail), what);
}

/** The tightest of several budgets, key by key (an agent's own and the one its run gives each agent). */
export function tighterBudget(...budgets: (Budget | undefined)[]): Budget | undefined {
	const result: Budget = {};
	for (const budget of budgets) {
		for (const key of BUDGET_KEYS) {
			const limit = budget?.[key];
			if (limit !== undefined) result[key] = Math.min(result[key] ?? limit, limit);
		}
	}
	return Object.keys(result).length === 0 ? undefined : result;
}

/** The first limit of `budget` that `spent` has reached, if any. */
export function budgetBreach(spent: Spent, budget: Budget | undefined): BudgetBreach | undefined {
	if (budget === undefined) return undefined;
	for (const key of BUDGET_KEYS) {
		const limit = budget[key];
		if (limit !== undefined && spent[key] >= limit) return { key, spent: spent[key], limit };
	}
	return undefined;
}

function amount(key: BudgetKey, value: number): string {
	return key === "cost" ? `$${value.toFixed(value < 1 ? 4 : 2)}` : String(Math.round(value));
}

/** The status of a task stopped by its budget, e.g. `budget-exceeded: turns 12/12` or `… run tokens 5000/5000`. */
export function breachText(breach: BudgetBreach, scope: "agent" | "run" = "agent"): string {
	const what = `${scope === "run" ? "run " : ""}${WORDS[breach.key]}`;
	return `budget-exceeded: ${what} ${amount(breach.key, breach.spent)}/${amount(breach.key, breach.limit)}`;
}

/** Spent against limit for each limited key, e.g. `turns 3/12, tokens 1200/50000`; undefined without a budget. */
export function budgetText(spent: Spent, budget: Budget | undefined): string | undefined {
	if (budget === undefined) return undefined;
	const parts = BUDGET_KEYS.filter((key) => budget[key] !== undefined).map(
		(key) => `${WORDS[key]} ${amount(key, spent[key])}/${amount(key, budget[key] as number)}`,
	);
	return parts.length === 0 ? undefined : parts.join(", ");
}

/**
 * A budget written as `/team run` flag text, `turns=12,toolCalls=40,tokens=200000,cost=0.5`, checked like any
 * other (`flag` names it in errors).
 */
export function parseBudgetWords(text: string, flag: string): Budget {
	const data: Record<string, unknown> = {};
	for (const part of text.split(",").filter((p) => p.trim() !== "")) {
		const [key, value, ...rest] = part.split("=");
		const number = Number(value);
		if (key === undefined || value === undefined || rest.length > 0 || value.trim() === "" || Number.isNaN(number)) {
			throw new Error(
				`${flag}: expected key=number pairs separated by commas (${BUDGET_KEYS.join(", ")}), got ${part}`,
			);
		}
		data[key.trim()] = number;
	}
	return checkedBudget(data, flag) ?? {};
}
