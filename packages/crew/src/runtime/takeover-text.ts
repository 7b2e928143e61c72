/**
 * The sentence that makes a force takeover visible wherever it is answered (tool, `/team`, CLI): that force was
 * used, and whose run it was. Pure.
 */
export function takeoverText(previousSessionId: string, previousPid: number): string {
	return `Forced: taken over from session ${previousSessionId} (process ${previousPid}), whose session had ended; this session owns it now.`;
}
