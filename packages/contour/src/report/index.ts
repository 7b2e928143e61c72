/**
 * `pi-contour/report`: immutable review reports, their bounded store, and their text and JSON forms. `report.ts` and
 * `report-store.ts` import no engine (types only), so the extension can hold a store from startup by importing them
 * directly; the text and JSON forms load `pi-fovea/engine` for its token budget.
 *
 * @module
 */

export { describeTarget, type RenderOptions, renderReport, reportHeader } from "./render-report.ts";
export {
	checkOrigin,
	emptyWork,
	freezeReport,
	type ReportDraft,
	type ReportFile,
	type ReportGap,
	type ReportSnapshot,
	type ReviewOrigin,
	type ReviewReport,
	type ReviewWork,
	reissueReport,
} from "./report.ts";
export { type RankedFinding, type ReportJson, type ReportJsonOptions, reportJson } from "./report-json.ts";
export { DEFAULT_REPORTS_PER_ROOT, ReportStore, type ReportStoreOptions } from "./report-store.ts";
export { type ReportSummary, summarizeReport, summaryLine } from "./report-summary.ts";
