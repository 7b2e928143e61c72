import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { CREW_AGENT_ACCESS_EVENT } from "../workspace/agent-access.ts";
import type { AgentOrigin } from "../workspace/agent-access-check.ts";
import { envInt } from "../workspace/env.ts";
import { WORKSPACE_ACCESS_EVENT, workspaceAccessHint } from "../workspace/peer-hints.ts";
import { ExecutionRoots, OBSERVED_ROOT_LIMIT } from "../workspace/roots.ts";
import { latestWorkspaceEntry } from "../workspace/session-entries.ts";

// Discovery and path parsing are loaded on the first tool result, not at startup: an idle session never pays for
// them and the extension's static import graph stays within its byte budget.
type Enrollment = typeof import("../workspace/enrollment.ts");
let enrollmentModule: Promise<Enrollment> | undefined;
function loadEnrollment(): Promise<Enrollment> {
	enrollmentModule ??= import("../workspace/enrollment.ts");
	return enrollmentModule;
}

type Hinted = { root: string; origin?: AgentOrigin } | undefined;

export type { LeaseToken, RetireReason, Roaming, RoamingOptions, RootInfo } from "../workspace/roaming-contract.ts";

import type { LeaseToken, RetireReason, Roaming, RoamingOptions, RootInfo } from "../workspace/roaming-contract.ts";

/**
 * Wires the roaming rules of the seed into a Pi extension: enrollment from successful tool results, the bounded
 * recency ring, branch-local persistence, restore on every session start and tree navigation, lease invalidation on
 * retirement and session replacement, and access hints exchanged with the peer extension of the same session.
 */
export function attachRoaming(pi: ExtensionAPI, options: RoamingOptions): Roaming {
	const limit = envInt(options.limitEnv, OBSERVED_ROOT_LIMIT, 1, OBSERVED_ROOT_LIMIT);
	// The ring's entry is exactly the seed's snapshot; which of its roots were chosen explicitly (a narrow directory
	// stays narrow after a reload) is bounded root metadata of its own, restored by the same branch rules.
	const explicitType = `${options.customType}-explicit`;
	let epoch = 0;
	let session:
		| {
				ring: ExecutionRoots;
				info: Map<string, RootInfo>;
				/** Roots chosen explicitly in this session; activity inside them does not widen them. */
				explicit: Set<string>;
				sessionId: string;
				persisted: number;
				persistedExplicit: string;
				stopHints: () => void;
		  }
		| undefined;

	const retire = (roots: string[], reason: RetireReason) => {
		// A session's end is told even with an empty ring: what the session left to say ends with it.
		if (roots.length === 0 && reason !== "session") return;
		for (const root of roots) {
			session?.info.delete(root);
			session?.explicit.delete(root);
		}
		options.onRetire?.(roots, reason);
	};

	/** The explicit roots of the ring, sorted: reordering the ring changes nothing to persist. */
	const explicitOf = (ring: ExecutionRoots, explicit: Set<string>) =>
		JSON.stringify([...explicit].filter((root) => ring.has(root)).sort());

	/** Appends what changed (both entries when `fresh`: a compaction's snapshot). */
	const persist = (fresh: boolean) => {
		if (session === undefined) return;
		if (fresh || session.ring.revision !== session.persisted) {
			session.persisted = session.ring.revision;
			pi.appendEntry(options.customType, session.ring.snapshot());
		}
		const explicit = explicitOf(session.ring, session.explicit);
		if (explicit !== session.persistedExplicit || (fresh && session.explicit.size > 0)) {
			session.persistedExplicit = explicit;
			pi.appendEntry(explicitType, { version: 1, roots: JSON.parse(explicit) });
		}
	};
	const persistIfChanged = () => persist(false);

	/** Retires the roots whose directory is gone (a cleaned-up crew worktree), so none is shown. */
	const retireMissing = async () => {
		const gone = await (await loadEnrollment()).goneRoots(session?.ring.list() ?? []);
		if (gone.length === 0 || session === undefined) return;
		for (const root of gone) session.ring.retire(root);
		retire(gone, "gone");
		persistIfChanged();
	};

	const admit = (root: string, marker: RootInfo["marker"], publish: boolean, origin?: AgentOrigin) => {
		if (session === undefined) return;
		const admission = session.ring.admit(root);
		const known = session.info.get(root);
		if (admission.fresh || known === undefined) {
			session.info.set(root, { marker, admittedAt: Date.now(), ...(origin === undefined ? {} : { origin }) });
		} else {
			if (marker !== "peer" && (known.marker === "peer" || known.marker === "restored")) known.marker = marker;
			// An agent is the origin only of a root it brought in: the session's own use of a root makes it the session's,
			// and an agent touching a root the session already had does not claim it.
			if (marker !== "peer") delete known.origin;
			else if (known.marker === "peer" && origin !== undefined) known.origin ??= origin;
		}
		retire(admission.retired, "rotation");
		if (admission.fresh) options.onAdmit?.(root);
		if (admission.fresh && publish) {
			pi.events.emit(WORKSPACE_ACCESS_EVENT, workspaceAccessHint(options.source, root, session.sessionId));
		}
	};

	const restore = (ctx: ExtensionContext) => {
		const previous = session?.ring.list() ?? [];
		const branch = ctx.sessionManager.getBranch();
		const ring = ExecutionRoots.restore(latestWorkspaceEntry(branch, options.customType, limit), limit);
		const explicit = new Set(latestWorkspaceEntry(branch, explicitType, limit)?.roots.filter((r) => ring.has(r)));
		const info = new Map<string, RootInfo>();
		for (const root of ring.list()) {
			info.set(root, { marker: explicit.has(root) ? "explicit" : "restored", admittedAt: Date.now() });
		}
		const stopHints = session?.stopHints ?? listenForPeers();
		session = {
			ring,
			info,
			explicit,
			sessionId: ctx.sessionManager.getSessionId(),
			persisted: ring.revision,
			persistedExplicit: explicitOf(ring, explicit),
			stopHints,
		};
		// Restoring starts a new observation boundary: whatever engines held for the old roots, or had left to tell, is
		// stale now.
		options.onRetire?.(previous, "session");
		options.onSession?.(session.sessionId, ring.list());
	};

	/** Roots a peer hinted or Crew reported enroll as "peer", with the crew agent as origin; never rebroadcast. */
	const listen = (channel: string, check: (e: Enrollment, payload: unknown, sessionId: string) => Hinted) =>
		pi.events.on(channel, (payload) => {
			if (session === undefined) return;
			const sessionId = session.sessionId;
			const started = epoch;
			void loadEnrollment()
				.then(async (enrollment) => {
					const hint = check(enrollment, payload, sessionId);
					const explicit = session?.explicit ?? new Set<string>();
					if (hint === undefined || !(await enrollment.acceptsPeerRoot(hint.root, options.gitOnly === true, explicit)))
						return;
					if (started !== epoch) return;
					admit(hint.root, "peer", false, hint.origin);
					persistIfChanged();
				})
				.catch(() => {});
		});

	const listenForPeers = () => {
		const stops = [
			listen(WORKSPACE_ACCESS_EVENT, (e, payload, sessionId) => {
				const root = e.peerWorkspaceRoot(payload, { source: options.source, sessionId });
				return root === undefined ? undefined : { root };
			}),
			listen(CREW_AGENT_ACCESS_EVENT, (e, payload, sessionId) => e.crewAgentAccess(payload, { sessionId })),
		];
		return () => {
			for (const stop of stops) stop();
		};
	};

	pi.on("session_start", (_event, ctx) => {
		epoch++;
		restore(ctx);
	});

	pi.on("session_tree", (_event, ctx) => {
		epoch++;
		restore(ctx);
	});

	pi.on("session_compact", () => persist(true));

	pi.on("session_shutdown", () => {
		epoch++;
		const ending = session;
		session = undefined;
		ending?.stopHints();
		if (ending !== undefined) retire(ending.ring.list(), "session");
	});

	pi.on("tool_result", async (event, ctx) => {
		if (session === undefined || event.isError) return;
		const started = epoch;
		try {
			const { explicit, ring } = session;
			const { activityOwners } = await import("./activity-owners.ts");
			const found = await activityOwners(event, ctx.cwd, options.gitOnly === true, explicit, ring);
			if (started !== epoch) return;
			for (const project of found) admit(project.root, project.marker, true);
			persistIfChanged();
			if (found.length > 0) options.onActivity?.(found.map((project) => project.root));
		} catch {
			// Enrollment is an observation; it must never turn a successful tool result into a failure.
		}
	});

	const capture = (root: string): LeaseToken | undefined => {
		const lease = session?.ring.lease(root);
		return lease === undefined ? undefined : { root, lease, epoch };
	};
	const isCurrent = (token: LeaseToken) =>
		token.epoch === epoch && session?.ring.holds(token.root, token.lease) === true;

	return {
		source: options.source,
		ring: () => session?.ring,
		capture,
		isCurrent,
		async runLeased(root, job, publish) {
			const token = capture(root);
			if (token === undefined) return false;
			const value = await job();
			if (!isCurrent(token)) return false;
			publish(value);
			return true;
		},
		guard(root) {
			const token = capture(root);
			const started = epoch;
			return () => started === epoch && session !== undefined && (token === undefined || isCurrent(token));
		},
		async manualRoot(cwd) {
			const { discovery, cwdProject, gitReviewRoot } = await loadEnrollment();
			if (options.gitOnly !== true) return cwdProject(cwd, discovery);
			return gitReviewRoot(cwd, session?.ring.list() ?? [], discovery);
		},
		enrollExplicit(root, explicit) {
			if (session === undefined) return;
			admit(root, explicit ? "explicit" : "cwd", true);
			if (explicit) session.explicit.add(root);
			persistIfChanged();
		},
		retireGone(root) {
			if (session === undefined || !session.ring.retire(root)) return false;
			retire([root], "gone");
			persistIfChanged();
			return true;
		},
		reset() {
			if (session === undefined) return [];
			const retired = session.ring.reset();
			retire(retired, "reset");
			persistIfChanged();
			return retired;
		},
		async describe(now = Date.now()) {
			await retireMissing();
			const ring = session?.ring;
			const info = session?.info;
			const { ringText } = await import("./ring-text.ts");
			return ringText(
				ring,
				(root) => info?.get(root),
				(root) => options.isResident?.(root) === true,
				now,
			);
		},
	};
}
