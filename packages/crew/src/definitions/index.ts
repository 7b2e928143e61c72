/**
 * `pi-crew/definitions`: agents and teams as Markdown files with YAML front matter, looked up in the built-ins,
 * then the user's Pi directory, then the project. A later layer adds names and never shadows an earlier one.
 *
 * @module
 */
export {
	type AgentDefinition,
	DEFINITION_NAME_PATTERN,
	type DefinitionLayer,
	parseAgentDefinition,
	THINKING_LEVELS,
	type ThinkingLevel,
} from "./agent.ts";
export { DefinitionCatalog, type DefinitionProblem, loadDefinitions } from "./catalog.ts";
export { DefinitionError } from "./errors.ts";
export { type FrontMatter, readFrontMatter } from "./front-matter.ts";
export {
	BUILTIN_DEFINITIONS_DIR,
	type DefinitionDir,
	type DefinitionSources,
	definitionDirs,
	resolveAgentDir,
} from "./locations.ts";
export {
	parseTeamDefinition,
	type TeamDefinition,
	type TeamRole,
	type WorkflowStep,
	workflowTasks,
} from "./team.ts";
