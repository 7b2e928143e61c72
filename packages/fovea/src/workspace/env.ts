/**
 * Reads a bounded integer setting from the environment.
 *
 * Unset, blank or non-integer values (including `1.5` or `12abc`) give `fallback`; whatever results is clamped
 * to `[min, max]`, so a misconfigured limit degrades to a safe value instead of throwing at startup.
 */
export function envInt(
	name: string,
	fallback: number,
	min: number,
	max: number,
	env: Record<string, string | undefined> = process.env,
): number {
	const raw = env[name]?.trim();
	const parsed = raw !== undefined && /^[+-]?\d+$/.test(raw) ? Number(raw) : fallback;
	return Math.min(max, Math.max(min, Number.isSafeInteger(parsed) ? parsed : fallback));
}
