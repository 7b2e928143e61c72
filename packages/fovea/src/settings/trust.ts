/**
 * Whether the user trusts a repository, as Pi records it: a saved "yes" in Pi's project trust store
 * (`<agentDir>/trust.json`, written by `/trust` or a remembered answer to the trust prompt) for the repository's
 * directory or its nearest decided ancestor. A per-repository settings file applies only then: Pi's own notion of a
 * trusted session cwd also covers folders that merely have nothing to guard, which is no decision of the user's.
 *
 * @module
 */

/** The trust decision for `root`, or why it could not be read (an unreadable store counts as not trusted). */
export async function repositoryTrust(root: string, agentDir: string): Promise<{ trusted: boolean; problem?: string }> {
	try {
		const { ProjectTrustStore } = await import("@earendil-works/pi-coding-agent");
		return { trusted: new ProjectTrustStore(agentDir).get(root) === true };
	} catch (error) {
		return { trusted: false, problem: error instanceof Error ? error.message : String(error) };
	}
}
