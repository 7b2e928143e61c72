import type { AutocompleteItem } from "@earendil-works/pi-tui";
import { printable } from "pi-fovea/printable";
import { loadDefinitions } from "../definitions/catalog.ts";
import type { CrewSession } from "./crew-session.ts";

/**
 * Completions after `/team run `: the teams defined for this session's workspace whose name starts with `prefix`,
 * each with its description. The value repeats `run` because Pi replaces the whole argument text with it.
 */
export async function teamCompletions(
	session: CrewSession,
	prefix: string,
	env: NodeJS.ProcessEnv,
): Promise<AutocompleteItem[] | null> {
	const catalog = await loadDefinitions({ root: session.identity.workspace, env });
	const items = [...catalog.teams.values()]
		.filter((team) => team.name.startsWith(prefix))
		.map((team) => ({
			value: `run ${team.name} `,
			label: team.name,
			description: printable(`${team.workspaceMode}: ${team.description}`),
		}));
	return items.length > 0 ? items : null;
}
