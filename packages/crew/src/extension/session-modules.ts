/**
 * Everything the crew extension loads after startup, in one module: the entry imports it once (in the background
 * after session start, or on the first `team` call or `/team` command) and takes every lazy part from it. One
 * import, not several: Pi loads extensions with jiti without a module cache, and modules of one graph imported by
 * several concurrent imports were seen half-evaluated (a class not yet defined).
 */
export { CrewSession } from "./crew-session.ts";
export { questionMessageComponent, runMessageComponent } from "./run-message.ts";
export { shownText } from "./run-text.ts";
export { teamAction } from "./team-actions.ts";
export { runTeamCommand } from "./team-command-run.ts";
export { teamCompletions } from "./team-completions.ts";
export { workspaceOf } from "./workspace.ts";
