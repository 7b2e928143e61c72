/**
 * Routes and shared literals through the whole engine on a real Git repository (issue 31): a focus query naming a
 * route or an endpoint finds its handler first, with the route in the text and `routes` of the answer; impact says
 * `same route GET /users/:id` for a test that requests the handler's path and `shares the literal "x-request-id"`
 * for a file that only shares a header name; an edit that adds the literal to another file links it without a
 * rebuild.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { git, gitRepo } from "../../../../test/e2e/support/workspaces.ts";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { tempDirs } from "../support/temp-tree.ts";

const temps = tempDirs();
after(temps.removeAll);

/** Words of a route query, said often in a file that serves no route, so the text alone ranks it first. */
const DECOY = Array.from({ length: 30 }, (_, i) => `// get users id: users get the id of users ${i}`).join("\n");

async function app(): Promise<string> {
	const root = await temps.make();
	gitRepo(
		root,
		{
			"src/server.ts": [
				'import { getUser, listOrders } from "./handlers/users";',
				'import { health } from "./handlers/health";',
				'import items from "./routes/items";',
				"declare const app: { get(path: string, handler: unknown): void; use(path: string, router: unknown): void };",
				'app.use("/api/items", items);',
				'app.get("/users/:id", getUser);',
				'app.get("/api/orders", listOrders);',
				'app.get("/health", health);',
				"",
			].join("\n"),
			"src/handlers/users.ts": [
				"export function getUser(req: unknown): unknown {\n\treturn req;\n}",
				"export function listOrders(): unknown[] {\n\treturn [];\n}",
				"",
			].join("\n"),
			"src/routes/items.ts": [
				"declare const router: { get(path: string, handler: unknown): void };",
				"export function readItem(): void {}",
				'router.get("/:itemId", readItem);',
				"export default router;",
				"",
			].join("\n"),
			// A handler that is no symbol (an exports assignment) is its module's file.
			"src/legacy/app.js": 'var users = require("./users");\napp.get("/legacy/:id", users.view);\n',
			"src/legacy/users.js": "exports.view = function (req, res) {\n\tres.end();\n};\n",
			"src/handlers/health.ts": "export function health(): string {\n\treturn 'ok';\n}\n",
			"src/docs/users-guide.ts": `${DECOY}\nexport const guide = 1;\n`,
			"test/users.test.ts": 'declare function request(path: string): void;\nrequest("/users/42");\n',
			"src/tracing.ts": 'export function stamp(h: Record<string, string>): void {\n\th["x-request-id"] = "1";\n}\n',
			"src/logging.ts":
				'export function line(h: Record<string, string>): string {\n\treturn h["x-request-id"] ?? "";\n}\n',
			"src/unrelated.ts": "export function other(): number {\n\treturn 0;\n}\n",
			// An importer of tracing.ts shares another literal with a third file, which the change does not reach.
			"src/entry.ts": 'import { stamp } from "./tracing";\nexport const key = "x-session-key";\nstamp({});\n',
			"src/session.ts": 'export const sessionHeader = "x-session-key";\n',
		},
		{ commit: true },
	);
	return root;
}

describe("routes and shared literals", () => {
	it("a query naming a route finds its handler first, in the text and in routes", async () => {
		const map = new CodeMap(await app(), { cache: false });
		const answer = await map.focus({ text: "GET /users/:id" }, 1500);
		assert.equal(answer.files[0]?.file, "src/handlers/users.ts", answer.text);
		assert.equal(answer.symbols[0]?.name, "getUser", answer.text);
		assert.deepEqual(
			answer.routes?.map((r) => [r.method, r.path, r.handler, r.file]),
			[["GET", "/users/:id", "getUser", "src/server.ts"]],
		);
		assert.match(answer.text, /GET \/users\/:id → src\/handlers\/users\.ts:1 {2}getUser/);
		const endpoint = await map.focus({ text: "what does the /health endpoint return?" }, 1500);
		assert.equal(endpoint.files[0]?.file, "src/handlers/health.ts", endpoint.text);
		const prefixed = await map.focus({ text: "GET /v1/api/orders fails" }, 1500);
		assert.equal(prefixed.symbols[0]?.name, "listOrders", prefixed.text);
		// A route of a router mounted under a prefix in another file, named with the prefix.
		const mounted = await map.focus({ text: "GET /api/items/12 is slow" }, 1500);
		assert.deepEqual(
			mounted.routes?.map((r) => [r.path, r.handler]),
			[["/api/items/:itemId", "readItem"]],
		);
		assert.equal(mounted.files[0]?.file, "src/routes/items.ts", mounted.text);
		const legacy = await map.focus({ text: "GET /legacy/5" }, 1500);
		assert.equal(legacy.files[0]?.file, "src/legacy/users.js", legacy.text);
		assert.equal(legacy.routes?.[0]?.handler, "src/legacy/users.js");
		const local = await map.focus({ text: "curl http://localhost:3000/api/orders answers 500" }, 1500);
		assert.equal(local.routes?.[0]?.handler, "listOrders", local.text);
		// Another host's URL names no endpoint of this root, nor does a source file's path.
		const foreign = await map.focus({ text: "see https://github.com/acme/app/users/7 and /src/users/7.ts" }, 1500);
		assert.equal(foreign.routes, undefined, foreign.text);
	});

	it("impact explains a route reference and a shared literal, in the text and in the evidence", async () => {
		const root = await app();
		const map = new CodeMap(root, { cache: false });
		const handler = await map.impact({ files: [], symbols: ["getUser"] }, 1500);
		const test = handler.files.find((f) => f.file === "test/users.test.ts");
		assert.ok(test !== undefined, handler.text);
		assert.match(test.why, /^same route GET \/users\/:id(;|$)/);
		assert.equal(test.evidence?.relation, "route");
		assert.equal(test.evidence?.shares, "GET /users/:id");

		const tracing = await map.impact({ files: ["src/tracing.ts"], symbols: [] }, 1500);
		const logging = tracing.files.find((f) => f.file === "src/logging.ts");
		assert.ok(logging !== undefined, tracing.text);
		// Text likeness may add its own reason after the edge's.
		assert.match(logging.why, /^shares the literal "x-request-id"(;|$)/);
		assert.equal(logging.evidence?.shares, '"x-request-id"');
		assert.match(tracing.text, /src\/logging\.ts — shares the literal "x-request-id"/);
		// The literal is an edge of the graph for impact, not a path for focus's heat.
		const { graph } = await map.refresh({ paths: [] });
		assert.ok(graph.graph.edgeCounts.literal > 0 && graph.graph.edgeCounts.route > 0);
		const row = (path: string) => {
			const id = graph.graph.fileNode.get(path) as number;
			return [...graph.graph.targets.subarray(graph.graph.offsets[id], graph.graph.offsets[id + 1])];
		};
		assert.ok(!row("src/tracing.ts").includes(graph.graph.fileNode.get("src/logging.ts") as number));
		assert.ok(!tracing.files.some((f) => f.file === "src/unrelated.ts"), tracing.text);
		assert.ok(
			tracing.files.some((f) => f.file === "src/entry.ts"),
			tracing.text,
		);
		assert.ok(!tracing.files.some((f) => f.file === "src/session.ts"), `a literal is no path onwards: ${tracing.text}`);

		// An edit gives a third file the literal: the graph is patched, and the new holder is linked.
		await writeFile(join(root, "src/unrelated.ts"), 'export const header = "x-request-id";\n');
		git(root, "commit", "-qam", "share the header");
		const built = map.stats.graphsBuilt;
		const again = await map.impact({ files: ["src/tracing.ts"], symbols: [] }, 1500, { paths: ["src/unrelated.ts"] });
		assert.equal(map.stats.graphsBuilt, built, "patched, not rebuilt");
		assert.match(
			again.files.find((f) => f.file === "src/unrelated.ts")?.why ?? "",
			/^shares the literal "x-request-id"/,
		);
	});
});
