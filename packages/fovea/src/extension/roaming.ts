import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { envInt } from "../workspace/env.ts";
import type { ManualRoot } from "../workspace/manual-root.ts";
import {
	type AgentOrigin,
	WORKSPACE_ACCESS_EVENT,
	type WorkspaceSource,
	workspaceAccessHint,
} from "../workspace/peer-hints.ts";
import { ExecutionRoots, OBSERVED_ROOT_LIMIT } from "../workspace/roots.ts";
import { latestWorkspaceEntry } from "../workspace/session-entries.ts";

// Discovery and path parsing are loaded on the first tool result, not at startup: an idle session never pays for
// them and the extension's static import graph stays within its byte budget.
type Enrollment = typeof import("./enrollment.ts");
let enrollmentModule: Promise<Enrollment> | undefined;
function loadEnrollment(): Promise<Enrollment> {
	enrollmentModule ??= import("./enrollment.ts");
	return enrollmentModule;
}

/** How one extension takes part in roaming. */
export interface RoamingOptions {
	source: WorkspaceSource;
	/** Session custom entry type that carries this extension's ring. */
	customType: string;
	/** Environment variable that bounds the ring (clamped to 1–32). */
	limitEnv: string;
	/** Whether only Git worktrees may enroll (Contour reviews need one). */
	gitOnly?: boolean;
	/** Whether the heavy caches of a root are in memory, for status output. */
	isResident?: (root: string) => boolean;
	/** Called with roots that left the ring (rotation, reset, session replacement) so engines drop their state. */
	onRetire?: (roots: string[], reason: RetireReason) => void;
	/** Called after a successful tool result with the roots it touched (enrolled or already in the ring). */
	onActivity?: (roots: string[]) => void;
	/** Called when a session (re)starts its ring: new session, resume, fork, tree navigation; with the roots restored. */
	onSession?: (sessionId: string, roots: string[]) => void;
}

/**
 * Why roots left the ring: rotation past the limit, an explicit reset, the end of the session or branch, or the
 * root's directory found gone (deleted or moved) by the work that observes it.
 */
export type RetireReason = "rotation" | "reset" | "session" | "gone";

/** What is known of an enrolled root beyond its place in the ring. */
export interface RootInfo {
	marker: "git" | "git-file" | "manifest" | "source" | "peer" | "restored" | "explicit" | "cwd";
	admittedAt: number;
	/** The crew agent whose access enrolled the root (metadata, not authorship). */
	origin?: AgentOrigin;
}

/** A capture of a root's lease and the session lifecycle, for asynchronous work that must not publish when stale. */
export interface LeaseToken {
	root: string;
	lease: number;
	epoch: number;
}

/** The roaming layer of one extension in one Pi runtime. */
export interface Roaming {
	readonly source: WorkspaceSource;
	/** The ring of the live session, or `undefined` before `session_start` and after shutdown. */
	ring(): ExecutionRoots | undefined;
	/** Captures the lease of an enrolled root. */
	capture(root: string): LeaseToken | undefined;
	/** Whether work that captured `token` may still publish: same session lifecycle, same lease. */
	isCurrent(token: LeaseToken): boolean;
	/** Runs `job` for `root` and hands its result to `publish` only if the lease survived the wait. */
	runLeased<T>(root: string, job: () => Promise<T>, publish: (value: T) => void): Promise<boolean>;
	/**
	 * A check for work on `root` that may begin before `root` is enrolled (a tool's root enrolls once its work
	 * succeeded): true while the session lasts and, when `root` held a lease as the work began, while it holds it.
	 */
	guard(root: string): () => boolean;
	/**
	 * Enrolls a root a tool or command chose (an explicit `root` argument, or the cwd's project for an omitted one).
	 * An explicit root is honoured as named: later activity under it refreshes it instead of enrolling a wider
	 * project around it.
	 */
	enrollExplicit(root: string, explicit: boolean): void;
	/** Clears the ring and persists the empty snapshot; returns the retired roots. */
	reset(): string[];
	/**
	 * Retires `root` because its directory no longer exists (the caller found it gone), so it holds no place in the
	 * ring and no observer visits it again; persists the ring. False when the root was not in the ring. A later
	 * access to a directory at that path enrolls it afresh: a new observation boundary.
	 */
	retireGone(root: string): boolean;
	/**
	 * The root used when a command or tool names none: Fovea takes the cwd's own project (else the cwd itself);
	 * a Git-only extension takes the cwd's Git project, else the most recent Git root in the ring.
	 */
	manualRoot(cwd: string): Promise<ManualRoot | undefined>;
	/** The ring as text lines: root, marker, lease age, heavy-cache residency. */
	describe(now?: number): Promise<string[]>;
}

/**
 * Wires the roaming rules of the seed into a Pi extension: enrollment from successful tool results, the bounded
 * recency ring, branch-local persistence, restore on every session start and tree navigation, lease invalidation on
 * retirement and session replacement, and access hints exchanged with the peer extension of the same session.
 */
export function attachRoaming(pi: ExtensionAPI, options: RoamingOptions): Roaming {
	const limit = envInt(options.limitEnv, OBSERVED_ROOT_LIMIT, 1, OBSERVED_ROOT_LIMIT);
	let epoch = 0;
	let session:
		| {
				ring: ExecutionRoots;
				info: Map<string, RootInfo>;
				/** Roots chosen explicitly in this session; activity inside them does not widen them. */
				explicit: Set<string>;
				sessionId: string;
				persisted: number;
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

	/** The ring as persisted: its snapshot, and which of its roots were chosen explicitly. */
	const entry = (live: { ring: ExecutionRoots; explicit: Set<string> }) => {
		const snapshot = live.ring.snapshot();
		const explicit = snapshot.roots.filter((root) => live.explicit.has(root));
		return explicit.length === 0 ? snapshot : { ...snapshot, explicit };
	};

	const persistIfChanged = () => {
		if (session === undefined || session.ring.revision === session.persisted) return;
		session.persisted = session.ring.revision;
		pi.appendEntry(options.customType, entry(session));
	};

	const admit = (root: string, marker: RootInfo["marker"], publish: boolean, origin?: AgentOrigin) => {
		if (session === undefined) return;
		const admission = session.ring.admit(root);
		const known = session.info.get(root);
		if (admission.fresh || known === undefined) {
			session.info.set(root, { marker, admittedAt: Date.now(), ...(origin === undefined ? {} : { origin }) });
		} else {
			if (marker !== "peer" && (known.marker === "peer" || known.marker === "restored")) known.marker = marker;
			if (origin !== undefined) known.origin ??= origin;
		}
		retire(admission.retired, "rotation");
		if (admission.fresh && publish) {
			pi.events.emit(WORKSPACE_ACCESS_EVENT, workspaceAccessHint(options.source, root, session.sessionId));
		}
	};

	const restore = (ctx: ExtensionContext) => {
		const previous = session?.ring.list() ?? [];
		const snapshot = latestWorkspaceEntry(ctx.sessionManager.getBranch(), options.customType, limit);
		const ring = ExecutionRoots.restore(snapshot, limit);
		const explicit = new Set(snapshot?.explicit ?? []);
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
			stopHints,
		};
		// Restoring starts a new observation boundary: whatever engines held for the old roots, or had left to tell, is
		// stale now.
		options.onRetire?.(previous, "session");
		options.onSession?.(session.sessionId, ring.list());
	};

	const listenForPeers = () =>
		pi.events.on(WORKSPACE_ACCESS_EVENT, (payload) => {
			if (session === undefined) return;
			const self = { source: options.source, sessionId: session.sessionId };
			const started = epoch;
			void loadEnrollment()
				.then(async (enrollment) => {
					const hint = enrollment.peerWorkspaceHint(payload, self);
					if (hint === undefined || !(await enrollment.acceptsPeerRoot(hint.root, options.gitOnly === true))) return;
					if (started !== epoch) return;
					admit(hint.root, "peer", false, hint.origin);
					persistIfChanged();
				})
				.catch(() => {});
		});

	pi.on("session_start", (_event, ctx) => {
		epoch++;
		restore(ctx);
	});

	pi.on("session_tree", (_event, ctx) => {
		epoch++;
		restore(ctx);
	});

	pi.on("session_compact", () => {
		if (session === undefined) return;
		session.persisted = session.ring.revision;
		pi.appendEntry(options.customType, entry(session));
	});

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
			const enrollment = await loadEnrollment();
			const explicit = session.explicit;
			const ring = session.ring;
			const narrow =
				explicit.size === 0
					? undefined
					: (path: string) => {
							const owner = ring.owner(path);
							return owner !== undefined && explicit.has(owner) ? owner : undefined;
						};
			const found = await enrollment.ownersOf(event, ctx.cwd, options.gitOnly === true, narrow);
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
			const newlyExplicit = explicit && !session.explicit.has(root);
			admit(root, explicit ? "explicit" : "cwd", true);
			if (explicit) session.explicit.add(root);
			// A root already first in the ring does not move it, but becoming explicit is news to persist.
			if (newlyExplicit) session.persisted = -1;
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
