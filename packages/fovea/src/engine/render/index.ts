/**
 * Answers as text. Takes ranked nodes, facts and coverage; gives text within a token budget, with what it could
 * not cover said in the room left.
 *
 * @module
 */
export { BudgetedText, budgetChars, estimateTokens } from "./budget.ts";
export { type FocusItem, focusItems, renderFocus } from "./focus.ts";
export { renderSketch } from "./sketch.ts";
