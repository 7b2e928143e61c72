import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { printable } from "pi-fovea/printable";
import type { Roaming } from "pi-fovea/roaming";
import type { CommandReport } from "pi-fovea/subcommands";
import { agoText } from "pi-fovea/time-words";
import { backgroundEnabled } from "../observer/settings.ts";
import type { ReportStore } from "../report/report-store.ts";
import { type ReportSummary, summarizeReport } from "../report/report-summary.ts";
import type { ContourReviews } from "./reviews.ts";

/** How a kept report came to be, in words. */
const ORIGIN_WORDS: Record<string, string> = {
	checkpoint: "asked for",
	background: "in the background",
	cli: "from the CLI",
};

/**
 * `/contour status` for a person: the root a review takes when none is named, the kept reports (newest of each root,
 * when, what it found, in words), whether background reviews run, and the ring. Report ids, commits and counters of
 * the background passes are details, shown on request. Loaded when the command runs.
 */
export async function contourStatus(
	ctx: ExtensionContext,
	roaming: Roaming,
	reviews: ContourReviews,
	now = Date.now(),
): Promise<CommandReport> {
	const target = await roaming.manualRoot(ctx.cwd);
	const review =
		target === undefined
			? "none: the session cwd is in no Git worktree and no Git root is enrolled"
			: `${target.root} [${target.marker}, ${target.from === "cwd" ? "session cwd's Git project" : "most recent Git root in the ring"}]`;
	const state = reviews.loaded();
	const kept = state === undefined ? undefined : keptReports(state.reports);
	const stats = state?.observer.stats();
	const background =
		state === undefined
			? "background: idle"
			: `background: ${state.observer.enabled ? "on" : `off (${backgroundEnabled() ? "setting contour.observer.enabled" : "CONTOUR_BACKGROUND=0"})`}`;
	const shown = (text: string) => ({ text: printable(text) });
	const ring = await roaming.describe(now);
	return {
		title: `Contour status: ${kept === undefined || kept.count === 0 ? "no reports yet" : `${kept.count} report${kept.count === 1 ? "" : "s"} kept`}`,
		verdict: "info",
		lines: [
			shown(`review root (no root given): ${review}`),
			shown(
				kept === undefined
					? "reports: none yet"
					: `reports: ${kept.count} kept for ${kept.newest.length} root${kept.newest.length === 1 ? "" : "s"}`,
			),
			...(kept?.newest ?? []).map(([root, s]) => shown(`  ${root}: newest ${newestWords(s, now)}`)),
			{ ...shown(background), tone: "muted" },
			...ring.map((text, i) => ({ ...shown(text), tone: i === 0 ? ("muted" as const) : ("text" as const) })),
		],
		more: [
			...(kept?.newest ?? []).map(([root, s]) =>
				shown(`${root}: report ${s.id}, ${s.head === null ? "unborn HEAD" : `HEAD ${s.head}`}`),
			),
			...(stats === undefined
				? []
				: [
						shown(
							`background passes ${stats.passes}, warmed ${stats.warmed}, aborted ${stats.aborted}, errors ${stats.errors}`,
						),
					]),
		],
	};
}

/** The kept reports: how many, and each root's newest (the most recently used root first). */
function keptReports(reports: ReportStore): { count: number; newest: [string, ReportSummary][] } {
	const roots = reports.roots();
	const newest: [string, ReportSummary][] = [];
	for (const root of roots) {
		const [first] = reports.list(root);
		if (first !== undefined) newest.push([root, summarizeReport(first)]);
	}
	return { count: roots.reduce((n, root) => n + reports.list(root).length, 0), newest };
}

/** `working-tree review of 1a2b3c4 · 1 file · 2 findings · asked for 12 s ago`. */
export function newestWords(summary: ReportSummary, now: number): string {
	const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
	const head = summary.head === null ? "an unborn HEAD" : summary.head.slice(0, 7);
	const origin = ORIGIN_WORDS[summary.origin] ?? summary.origin;
	return `${summary.target} review of ${head} · ${plural(summary.files, "file")} · ${plural(summary.findings, "finding")} · ${origin} ${agoText(summary.createdAt, now)}`;
}
