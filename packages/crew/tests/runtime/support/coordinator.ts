/**
 * A coordinator process for the recovery test: starts a one-task run in the workspace given as JSON in argv[2]
 * ({ ws, sessionId, instructions }), prints `{"runId", "agentId", "pid"}` once its agent is running a tool, and
 * then waits to be killed. The model and Pi settings come from the inherited environment (PI_FAUX_*,
 * PI_CODING_AGENT_DIR).
 */
import { FAUX_MODEL_EXTENSION } from "../../../../../test/e2e/support/pi-cli.ts";
import { CrewRuntime, LiveAgentRegistry } from "../../../src/runtime/index.ts";
import { CATALOG, team } from "./crew-fixture.ts";

const config = JSON.parse(process.argv[2] ?? "{}") as { ws: string; sessionId: string; instructions: string };
const runtime = new CrewRuntime({
	registry: new LiveAgentRegistry(),
	piArgs: ["-e", FAUX_MODEL_EXTENSION, "--no-skills", "--no-context-files"],
	defaultModel: { provider: "pi-faux", model: "scripted" },
});
const scope = { cwd: config.ws, sessionId: config.sessionId };
await runtime.subscribe(scope, (event) => {
	if (event.type !== "agent.tool" || event.agentId === undefined) return;
	const pid = runtime.registry.get(event.agentId)?.pid;
	process.stdout.write(`${JSON.stringify({ runId: event.runId, agentId: event.agentId, pid })}\n`);
});
await runtime.startRun({
	...scope,
	team: team("crashing", [{ id: "slow", instructions: config.instructions }]),
	goal: "Survive a crash",
	catalog: CATALOG,
});
