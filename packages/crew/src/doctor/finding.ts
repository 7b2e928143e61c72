/** One result of `crew doctor`: what was checked, how it stands, what was found and, for a problem, its fix. */
export interface DoctorFinding {
	/** The area: `pi`, `git`, `ripgrep`, `fd`, `definitions`, `runs`, `worktrees`, `state`. */
	check: string;
	status: "ok" | "warn" | "error";
	message: string;
	/** What to do about it (problems only). */
	fix?: string;
}

/** A finding that is fine. */
export function ok(check: string, message: string): DoctorFinding {
	return { check, status: "ok", message };
}

/** A problem with its fix. */
export function problem(check: string, status: "warn" | "error", message: string, fix: string): DoctorFinding {
	return { check, status, message, fix };
}

/**
 * The findings as a person reads them: one line each, problems first marked `!` (error) or `~` (warning) with
 * `fix:` under them, then a count. The caller makes the text printable (paths and messages may hold anything).
 */
export function doctorText(findings: readonly DoctorFinding[]): string {
	const order = { error: 0, warn: 1, ok: 2 } as const;
	const sorted = [...findings].sort((a, b) => order[a.status] - order[b.status]);
	const mark = { error: "!", warn: "~", ok: " " } as const;
	const lines: string[] = [];
	for (const f of sorted) {
		lines.push(`${mark[f.status]} ${f.check}: ${f.message}`);
		if (f.fix) lines.push(`    fix: ${f.fix}`);
	}
	const errors = findings.filter((f) => f.status === "error").length;
	const warnings = findings.filter((f) => f.status === "warn").length;
	lines.push(
		errors + warnings === 0
			? "crew doctor: everything looks fine."
			: `crew doctor: ${errors} error(s), ${warnings} warning(s).`,
	);
	return lines.join("\n");
}
