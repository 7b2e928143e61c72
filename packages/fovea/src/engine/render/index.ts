/**
 * Answers as text. Takes ranked nodes (or an impact's reach), facts and coverage; gives text within a token budget, with what it could
 * not cover said in the room left.
 *
 * @module
 */
export { BudgetedText, budgetChars, estimateTokens } from "./budget.ts";
export { type FocusItem, focusItems, type RouteItem, renderFocus } from "./focus.ts";
export { type DependeeItem, type ImpactItem, impactItems, renderImpact, whyOf } from "./impact.ts";
export { renderSketch } from "./sketch.ts";
