/** Whether `value` is a count: a whole number, zero or more. One rule for every input that must be one. */
export function isCount(value: unknown): value is number {
	return typeof value === "number" && Number.isInteger(value) && value >= 0;
}
