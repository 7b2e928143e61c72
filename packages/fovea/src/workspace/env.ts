/**
 * Reads a bounded integer setting from the environment.
 *
 * Unset, blank or non-integer values (including `1.5`, `12abc` or `1e3`) give `fallback`; any integer, however
 * large or small, and the fallback are clamped to `[min, max]`, so a misconfigured limit degrades to the nearest
 * safe value instead of throwing at startup.
 */
export function envInt(
	name: string,
	fallback: number,
	min: number,
	max: number,
	env: Record<string, string | undefined> = process.env,
): number {
	const raw = env[name]?.trim();
	// Digits only, so Number() reads them as a decimal integer; past 2^53 it rounds and past ~1e308 it becomes
	// ±Infinity, and either still clamps to the bound on its side.
	const parsed = raw !== undefined && /^[+-]?\d+$/.test(raw) ? Number(raw) : fallback;
	return Math.min(max, Math.max(min, parsed));
}
