/**
 * A coordinator process that takes run control requests, one JSON line each on stdin:
 * `{"id", "op": "resume" | "cancel", "cwd", "sessionId", "runId", "force"}`, answered by one line
 * `{"id", "ok", "status"?, "error"?}` as soon as the request returns. On stdin's end it shuts its runtime down
 * (its agents end) and exits. Model and Pi settings come from the inherited environment (PI_FAUX_*,
 * PI_CODING_AGENT_DIR), as for coordinator.ts.
 */
import { createInterface } from "node:readline";
import { FAUX_MODEL_EXTENSION } from "../../../../../test/e2e/support/pi-cli.ts";
import { CrewRuntime, LiveAgentRegistry } from "../../../src/runtime/index.ts";

interface Request {
	id: number;
	op: "resume" | "cancel";
	cwd: string;
	sessionId: string;
	runId: string;
	force: boolean;
}

const runtime = new CrewRuntime({
	registry: new LiveAgentRegistry(),
	piArgs: ["-e", FAUX_MODEL_EXTENSION, "--no-skills", "--no-context-files"],
	defaultModel: { provider: "pi-faux", model: "scripted" },
	limits: { noOutputTimeoutMs: 120_000 },
});

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
	const request = JSON.parse(line) as Request;
	const { id, op, ...scope } = request;
	const call = op === "resume" ? runtime.resume(scope) : runtime.cancel(scope);
	call.then(
		(run) => process.stdout.write(`${JSON.stringify({ id, ok: true, status: run.manifest.status })}\n`),
		(error: unknown) => process.stdout.write(`${JSON.stringify({ id, ok: false, error: String(error) })}\n`),
	);
});
lines.on("close", () => {
	void runtime.shutdown().finally(() => process.exit(0));
});
process.stdout.write(`${JSON.stringify({ ready: process.pid })}\n`);
