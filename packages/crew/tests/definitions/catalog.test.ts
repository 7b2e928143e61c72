import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type TestContext, test } from "node:test";
import {
	BUILTIN_DEFINITIONS_DIR,
	type DefinitionCatalog,
	loadDefinitions,
	resolveAgentDir,
	workflowTasks,
} from "../../src/definitions/index.ts";

interface Layers {
	agentDir: string;
	root: string;
	load: () => Promise<DefinitionCatalog>;
	write: (layer: "user" | "project", rel: string, text: string) => Promise<string>;
}

async function layers(t: TestContext): Promise<Layers> {
	const base = await mkdtemp(join(tmpdir(), "crew-defs-"));
	t.after(() => rm(base, { recursive: true, force: true }));
	const agentDir = join(base, "agent");
	const root = join(base, "project");
	return {
		agentDir,
		root,
		load: () => loadDefinitions({ agentDir, root }),
		write: async (layer, rel, text) => {
			const file = join(layer === "user" ? join(agentDir, "crew") : join(root, ".pi", "crew"), rel);
			await mkdir(dirname(file), { recursive: true });
			await writeFile(file, text);
			return file;
		},
	};
}

const agent = (name: string, extra = "") =>
	`---\nname: ${name}\ndescription: ${name} agent\n${extra}---\n\nYou are ${name}.\n`;

test("built-ins load: explorer, implementer, reviewer and two teams whose agents exist", async (t) => {
	const { load } = await layers(t);
	const catalog = await load();
	assert.deepEqual(catalog.problems, []);
	assert.deepEqual([...catalog.agents.keys()].sort(), ["explorer", "implementer", "reviewer"]);
	assert.deepEqual([...catalog.teams.keys()].sort(), ["parallel-explore", "plan-implement-review"]);
	for (const readOnly of ["explorer", "reviewer"]) {
		const tools = catalog.agent(readOnly).tools ?? [];
		assert.deepEqual(
			tools.filter((tool) => ["bash", "edit", "write"].includes(tool)),
			[],
			`${readOnly} is read-only`,
		);
	}
	assert.ok(catalog.agent("implementer").tools?.includes("edit"));
	const team = catalog.team("plan-implement-review");
	assert.equal(team.layer, "builtin");
	assert.equal(team.workspaceMode, "single");
	assert.deepEqual(
		workflowTasks(team).map((task) => [task.id, task.agent, task.dependsOn]),
		[
			["plan", "explorer", []],
			["implement", "implementer", ["plan"]],
			["review", "reviewer", ["implement"]],
		],
	);
	assert.deepEqual([...catalog.teamAgents(team).keys()], ["planner", "implementer", "reviewer"]);
	assert.equal(catalog.team("parallel-explore").concurrency, 3);
	assert.ok(catalog.agent("explorer").systemPrompt.startsWith("You are an explorer"));
});

test("user and project files add names; the project cannot shadow a built-in or user one", async (t) => {
	const { load, write } = await layers(t);
	await write(
		"user",
		"agents/tester.md",
		agent("tester", "model: anthropic/claude-haiku\ntools: read, bash\nthinking: low\n"),
	);
	const shadowUser = await write("project", "agents/tester.md", agent("tester", "tools: [bash]\n"));
	const shadowBuiltin = await write("project", "agents/my-reviewer.md", agent("reviewer", "tools: [bash, write]\n"));
	await write("project", "agents/domain.md", agent("domain"));
	const catalog = await load();

	const tester = catalog.agent("tester");
	assert.equal(tester.layer, "user");
	assert.equal(tester.model, "anthropic/claude-haiku");
	assert.deepEqual(tester.tools, ["read", "bash"]);
	assert.equal(tester.thinking, "low");
	assert.equal(catalog.agent("domain").layer, "project");
	assert.equal(catalog.agent("reviewer").layer, "builtin");
	assert.deepEqual(catalog.agent("reviewer").tools, ["read", "grep", "find", "ls"]);

	const shadowing = catalog.problems.filter((p) => p.kind === "shadowing");
	assert.deepEqual(
		shadowing.map((p) => [p.file, p.name, p.layer]).sort(),
		[
			[shadowBuiltin, "reviewer", "project"],
			[shadowUser, "tester", "project"],
		].sort(),
	);
	assert.match(
		shadowing.find((p) => p.name === "reviewer")?.message ?? "",
		/project agent "reviewer" would shadow the builtin one .* it is ignored/,
	);
});

test("a malformed file gives an error naming the file and line or field; good files still load", async (t) => {
	const { load, write } = await layers(t);
	const badYaml = await write("project", "agents/broken.md", "---\nname: broken\ndescription: [unclosed\n---\nbody\n");
	const missing = await write("project", "agents/nameless.md", "---\ndescription: no name\n---\nbody\n");
	const typo = await write("project", "agents/typo.md", agent("typo", "modle: x\n"));
	const noFront = await write("user", "agents/plain.md", "Just text, no front matter.\n");
	const emptyBody = await write("user", "agents/empty.md", "---\nname: empty\ndescription: d\n---\n\n");
	const badThinking = await write("user", "agents/think.md", agent("think", "thinking: extreme\n"));
	const catalog = await load();
	const byFile = new Map(catalog.problems.map((p) => [p.file, p]));

	assert.match(byFile.get(badYaml)?.message ?? "", new RegExp(`^${badYaml}:3: invalid YAML in the front matter`));
	assert.equal(byFile.get(badYaml)?.name, "broken");
	assert.equal(byFile.get(missing)?.message, `${missing}: field "name": required`);
	assert.match(
		byFile.get(typo)?.message ?? "",
		/typo\.md: field "modle": unknown field; allowed: name, description, model, tools, thinking/,
	);
	assert.match(byFile.get(noFront)?.message ?? "", /plain\.md: must start with YAML front matter/);
	assert.match(byFile.get(emptyBody)?.message ?? "", /empty\.md: the body .* is empty/);
	assert.match(byFile.get(badThinking)?.message ?? "", /think\.md: field "thinking": expected one of off, minimal/);
	assert.ok(catalog.problems.every((p) => p.kind === "invalid"));

	assert.throws(() => catalog.agent("broken"), /agent "broken" cannot be used: .*broken\.md:3: invalid YAML/);
	assert.equal(catalog.agent("explorer").layer, "builtin");
	assert.equal(
		await readFile(badYaml, "utf8"),
		"---\nname: broken\ndescription: [unclosed\n---\nbody\n",
		"nothing is rewritten",
	);
});

test("teams: unknown agent, unknown role, forward dependency and bad mode are errors naming file and field", async (t) => {
	const { load, write } = await layers(t);
	const team = (name: string, body: string) => `---\nname: ${name}\ndescription: d\n${body}---\n`;
	const ghost = await write(
		"project",
		"teams/ghost.md",
		team(
			"ghost",
			"roles:\n  - {role: a, agent: explorer}\n  - {role: b, agent: nobody}\nworkflow:\n  - {role: a}\n  - {role: b, dependsOn: [a]}\n",
		),
	);
	const norole = await write(
		"project",
		"teams/norole.md",
		team("norole", "roles: [{role: a, agent: explorer}]\nworkflow: [{role: z}]\n"),
	);
	const forward = await write(
		"project",
		"teams/forward.md",
		team(
			"forward",
			"roles: [{role: a, agent: explorer}]\nworkflow:\n  - {id: one, role: a, dependsOn: [two]}\n  - {id: two, role: a}\n",
		),
	);
	const mode = await write(
		"user",
		"teams/mode.md",
		team("mode", "roles: [{role: a, agent: explorer}]\nworkflow: [{role: a}]\nworkspaceMode: shared\n"),
	);
	const twice = await write(
		"user",
		"teams/twice.md",
		team("twice", "roles: [{role: a, agent: explorer}]\nworkflow: [{role: a}, {role: a}]\n"),
	);
	await write(
		"user",
		"teams/good.md",
		team(
			"good",
			"roles: [{role: a, agent: explorer}]\nworkflow: [{role: a}]\nworkspaceMode: worktree\nconcurrency: 2\n",
		),
	);
	const catalog = await load();
	const byFile = new Map(catalog.problems.map((p) => [p.file, p.message]));

	assert.match(
		byFile.get(ghost) ?? "",
		/ghost\.md: field "roles\[1\]\.agent": unknown agent "nobody"; known agents: explorer, implementer, reviewer/,
	);
	assert.match(
		byFile.get(norole) ?? "",
		/norole\.md: field "workflow\[0\]\.role": unknown role "z"; the team's roles: a/,
	);
	assert.match(
		byFile.get(forward) ?? "",
		/forward\.md: field "workflow\[0\]\.dependsOn\[0\]": "two" is not an earlier step/,
	);
	assert.match(
		byFile.get(mode) ?? "",
		/mode\.md: field "workspaceMode": expected one of single, worktree, got "shared"/,
	);
	assert.match(byFile.get(twice) ?? "", /twice\.md: field "workflow\[1\]\.role": step id "a" is used twice/);
	assert.throws(() => catalog.team("ghost"), /team "ghost" cannot be used: .*unknown agent "nobody"/);
	const good = catalog.team("good");
	assert.equal(good.workspaceMode, "worktree");
	assert.equal(good.concurrency, 2);
});

test("a definition linked to something that is not a file (a FIFO) is a problem, never waited on", {
	timeout: 10_000,
}, async (t) => {
	const { load, write, root } = await layers(t);
	await write("project", "agents/fine.md", agent("fine"));
	const fifo = join(root, "pipe");
	execFileSync("mkfifo", [fifo]);
	await symlink(fifo, join(root, ".pi", "crew", "agents", "pipe.md"));
	const catalog = await load();
	assert.ok(catalog.agents.has("fine"), "the other definitions load");
	assert.deepEqual(
		catalog.problems.map((p) => [p.kind, p.name, /not a regular file/.test(p.message)]),
		[["unreadable", "pipe", true]],
	);
});

test("unknown agents and teams list the known names", async (t) => {
	const { load, write } = await layers(t);
	await write("user", "agents/extra.md", agent("extra"));
	const catalog = await load();
	assert.throws(
		() => catalog.team("nope"),
		/^Error: unknown team "nope"; known teams: parallel-explore, plan-implement-review$/,
	);
	assert.throws(
		() => catalog.agent("nope"),
		/unknown agent "nope"; known agents: explorer, extra, implementer, reviewer/,
	);
});

test("the user directory follows PI_CODING_AGENT_DIR, else ~/.pi/agent", () => {
	assert.equal(resolveAgentDir({}, "/home/u"), "/home/u/.pi/agent");
	assert.equal(resolveAgentDir({ PI_CODING_AGENT_DIR: "~/custom" }, "/home/u"), "/home/u/custom");
	assert.equal(resolveAgentDir({ PI_CODING_AGENT_DIR: "/opt/pi" }, "/home/u"), "/opt/pi");
	assert.equal(resolveAgentDir({ PI_CODING_AGENT_DIR: "" }, homedir()), join(homedir(), ".pi", "agent"));
	assert.ok(BUILTIN_DEFINITIONS_DIR.endsWith(join("crew", "definitions")));
});
