/**
 * The contract of the roaming layer (`roaming.ts`): its options, the reasons roots retire, what is known of a root,
 * lease tokens, and the interface each extension works with. Types only, imported as types: nothing of this file
 * loads at run time, so it costs the extensions' startup nothing.
 */

import type { AgentOrigin } from "./agent-access-check.ts";
import type { ManualRoot } from "./manual-root.ts";
import type { WorkspaceSource } from "./peer-hints.ts";
import type { ExecutionRoots } from "./roots.ts";

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
	/**
	 * Called with a root newly admitted to the ring, however it came (a tool result, a peer's hint, an explicit or
	 * default root of a command), so an engine that visits every root of the ring knows it without waiting for
	 * activity there.
	 */
	onAdmit?: (root: string) => void;
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
	/**
	 * The ring as text lines: root, marker, lease age, heavy-cache residency. Roots whose directory is gone retire
	 * first, so the lines never name a deleted root.
	 */
	describe(now?: number): Promise<string[]>;
}
