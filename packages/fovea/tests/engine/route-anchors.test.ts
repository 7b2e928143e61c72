/**
 * Route anchors and anchor literals, per framework (pure): each extractor finds the routes its framework declares
 * with their method, one normal path form and the handler's name, and leaves alike-looking calls alone (an HTTP
 * client's `axios.get("/x")`, a `map.get("/x")`). Issue 31, "Routes and shared literals".
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { normalizeRoutePath, routeMatches, segmentsOf } from "../../src/engine/model/index.ts";
import { anchorsOf } from "../../src/engine/parse/anchors/anchors.ts";
import { anchorLiterals } from "../../src/engine/parse/anchors/literals.ts";
import { routesOf } from "../../src/engine/parse/anchors/routes.ts";

/** `METHOD path handler@line` of each route, for compact comparison. */
function routes(path: string, language: Parameters<typeof routesOf>[1], source: string): string[] {
	return routesOf(path, language, source).map((r) => `${r.method} ${r.path} ${r.handler ?? "-"}@${r.line}`);
}

describe("route paths", () => {
	it("writes every framework's parameters as :name, with one leading and no trailing slash", () => {
		assert.equal(normalizeRoutePath("/users/<int:id>/"), "/users/:id");
		assert.equal(normalizeRoutePath("users/{id}"), "/users/:id");
		assert.equal(normalizeRoutePath("/files/*filepath"), "/files/:filepath");
		assert.equal(normalizeRoutePath("/blog/[...slug]"), "/blog/:slug");
		assert.equal(normalizeRoutePath("/a/{id:[0-9]+}"), "/a/:id");
		assert.equal(normalizeRoutePath("^articles/(?P<year>[0-9]{4})/$", { regex: true }), "/articles/:year");
		assert.equal(normalizeRoutePath("/"), "/");
		assert.equal(normalizeRoutePath("/has space"), undefined);
	});

	it("matches a concrete path, and a prefixed one by its tail", () => {
		const route = segmentsOf("/users/:id");
		assert.equal(routeMatches(route, segmentsOf("/users/42")), "exact");
		assert.equal(routeMatches(route, segmentsOf("/api/v1/users/42")), "tail");
		assert.equal(routeMatches(route, segmentsOf("/orders/42")), undefined);
		assert.equal(routeMatches(segmentsOf("/:id"), segmentsOf("/orders")), undefined, "a bare parameter names nothing");
	});
});

describe("JavaScript and TypeScript routes", () => {
	it("Express, Hono and Koa-router calls with their handlers; not HTTP clients or maps", () => {
		const source = [
			'app.get("/users/:id", show);',
			"router.post('/users', users.create);",
			"app.delete(`/users/:id`, async (req, res) => res.end());",
			'router.get("user", "/named/:id", named);',
			'axios.get("/users/1", { params });',
			'cache.get("/not-a-route");',
			'app.route("/book").get(getBook).put(putBook);',
		].join("\n");
		assert.deepEqual(routes("src/server.ts", "typescript", source), [
			"GET /users/:id show@1",
			"POST /users users.create@2",
			"DELETE /users/:id -@3",
			"GET /named/:id named@4",
			"GET /book getBook@7",
			"PUT /book putBook@7",
		]);
	});

	it("a router mounted under a prefix: app.use with a name or a require", () => {
		const source =
			'app.use("/api/users", usersRouter);\napp.use("/admin", require("./routes/admin.js"));\napp.use(cors());\n';
		assert.deepEqual(routes("app.js", "javascript", source), [
			"MOUNT /api/users usersRouter@1",
			"MOUNT /admin admin@2",
		]);
	});

	it("Fastify's route objects", () => {
		const source = 'fastify.route({ method: ["GET", "HEAD"], url: "/items/:id", handler: getItem });\n';
		assert.deepEqual(routes("server.js", "javascript", source), [
			"GET /items/:id getItem@1",
			"HEAD /items/:id getItem@1",
		]);
	});

	it("Next.js pages and App Router, SvelteKit, by the file's path", () => {
		assert.deepEqual(routes("pages/users/[id].tsx", "tsx", "export default function User() {}\n"), [
			"ANY /users/:id -@1",
		]);
		assert.deepEqual(routes("src/pages/index.tsx", "tsx", ""), ["ANY / -@1"]);
		assert.deepEqual(routes("pages/_app.tsx", "tsx", ""), []);
		assert.deepEqual(
			routes(
				"app/(shop)/api/orders/[id]/route.ts",
				"typescript",
				"export async function GET() {}\nexport const POST = h;\n",
			),
			["GET /api/orders/:id GET@1", "POST /api/orders/:id POST@2"],
		);
		assert.deepEqual(routes("app/dashboard/page.tsx", "tsx", ""), ["GET /dashboard -@1"]);
		assert.deepEqual(routes("src/routes/items/[id]/+server.ts", "typescript", "export function DELETE() {}\n"), [
			"DELETE /items/:id DELETE@1",
		]);
		assert.deepEqual(routes("src/routes/about/+page.ts", "typescript", ""), ["GET /about -@1"]);
	});
});

describe("Python routes", () => {
	it("Flask routes and blueprints with methods, the decorated def as handler", () => {
		const source = [
			'bp = Blueprint("auth", __name__, url_prefix="/auth")',
			'@bp.route("/login", methods=["GET", "POST"])',
			"def login():",
			"    pass",
			'@app.route("/users/<int:user_id>")',
			"def user(user_id):",
			"    pass",
		].join("\n");
		assert.deepEqual(routes("app/auth.py", "python", source), [
			"GET /auth/login login@2",
			"POST /auth/login login@2",
			"GET /users/:user_id user@5",
		]);
	});

	it("FastAPI routers with a same-file prefix", () => {
		const source = [
			'router = APIRouter(prefix="/items", tags=["items"])',
			'@router.get("/{item_id}", response_model=Item)',
			"async def read_item(item_id: int):",
			"    ...",
			'@router.post("/")',
			"def create_item(item: Item):",
			"    ...",
		].join("\n");
		assert.deepEqual(routes("app/items.py", "python", source), [
			"GET /items/:item_id read_item@2",
			"POST /items create_item@5",
		]);
	});

	it("Django path() and re_path(), class views by their class; include() is not a route", () => {
		const source = [
			"urlpatterns = [",
			'    path("articles/<int:year>/", views.year_archive),',
			'    re_path(r"^users/(?P<pk>[0-9]+)/$", views.UserDetail.as_view(), name="user"),',
			'    path("api/", include("api.urls")),',
			"]",
		].join("\n");
		assert.deepEqual(routes("blog/urls.py", "python", source), [
			"ANY /articles/:year views.year_archive@2",
			"ANY /users/:pk views.UserDetail@3",
		]);
	});

	it("FastAPI include_router and Flask register_blueprint with a prefix mount the module named first", () => {
		const source = [
			'api_router.include_router(items.router, prefix="/items", tags=["items"])',
			"api_router.include_router(login.router)",
			'app.register_blueprint(auth.bp, url_prefix="/auth")',
		].join("\n");
		assert.deepEqual(routes("app/api/main.py", "python", source), ["MOUNT /items items@1", "MOUNT /auth auth@3"]);
	});

	it("Starlette Route(...) with methods", () => {
		const source = 'routes = [Route("/health", endpoint=health), Route("/users", list_users, methods=["POST"])]\n';
		assert.deepEqual(routes("app.py", "python", source), ["GET /health health@1", "POST /users list_users@1"]);
	});
});

describe("Go routes", () => {
	it("Gin with nested groups, chi and net/http (Go 1.22 method patterns too)", () => {
		const source = [
			'v1 := r.Group("/v1")',
			'admin := v1.Group("/admin")',
			'r.GET("/ping", ping)',
			'v1.POST("/login", handlers.Login)',
			'admin.DELETE("/users/:id", func(c *gin.Context) {})',
			'mux.HandleFunc("GET /items/{id}", getItem)',
			'http.HandleFunc("/health", health)',
			'router.Get("/articles/{articleID}", getArticle)',
			'c.Get("key")',
		].join("\n");
		assert.deepEqual(routes("main.go", "go", source), [
			"GET /ping ping@3",
			"POST /v1/login handlers.Login@4",
			"DELETE /v1/admin/users/:id -@5",
			"GET /items/:id getItem@6",
			"ANY /health health@7",
			"GET /articles/:articleID getArticle@8",
		]);
	});
});

describe("Rust routes", () => {
	it("Axum method routers, Actix attributes and resources", () => {
		const source = [
			'let app = Router::new().route("/users/{id}", get(show_user).delete(delete_user))',
			'    .route("/health", get(handlers::health));',
			'#[get("/items/{id}")]',
			"async fn get_item(path: web::Path<u32>) -> impl Responder { todo!() }",
			'App::new().service(web::resource("/orders").route(web::post().to(create_order)));',
		].join("\n");
		assert.deepEqual(routes("src/main.rs", "rust", source), [
			"GET /users/:id show_user@1",
			"DELETE /users/:id delete_user@1",
			"GET /health handlers.health@2",
			"GET /items/:id get_item@3",
			"POST /orders create_order@5",
		]);
	});
});

describe("Java routes", () => {
	it("Spring mappings under the class's @RequestMapping", () => {
		const source = [
			"@RestController",
			'@RequestMapping("/owners")',
			"public class OwnerController {",
			'  @GetMapping("/{ownerId}")',
			"  public Owner show(@PathVariable int ownerId) { return null; }",
			'  @RequestMapping(value = "/new", method = RequestMethod.POST)',
			"  public String create() { return null; }",
			"  @DeleteMapping",
			"  public void removeAll() {}",
			"}",
		].join("\n");
		assert.deepEqual(routes("src/main/java/OwnerController.java", "java", source), [
			"GET /owners/:ownerId show@4",
			"POST /owners/new create@6",
			"DELETE /owners removeAll@8",
		]);
	});
});

describe("anchor literals", () => {
	it("keeps name-like, path-like and option literals once, not plain words, file names or prose", () => {
		const source = [
			'headers["x-request-id"] = id;',
			'parser.addoption("--setup-show", "-v", "--x", "--Setup");',
			'emit("user:created", user); emit("user:created", other);',
			'const key = "database.pool_size";',
			'log("error"); import x from "./local-file.js";',
			"const msg = 'it is fine';",
			`fetch("/api/orders/42"); fetch(\`\${base}/users/\${id}\`); get("http://localhost:8000/health")`,
		].join("\n");
		assert.deepEqual(anchorLiterals(source), [
			"x-request-id",
			"--setup-show",
			"user:created",
			"database.pool_size",
			"/api/orders/42",
			`/users/\${id}`,
			"/health",
		]);
	});
});

describe("comments", () => {
	it("a route or literal in a comment or docstring is not the file's; strings holding // are not comments", () => {
		const go =
			'// r.GET("/doc", h)\n/* r.GET("/block", h) */\nu := "http://host/x-api-key"\nr.GET("/real", h) // "x-comment-only"\n';
		const found = anchorsOf("main.go", "go", go);
		assert.deepEqual(
			found.routes.map((r) => `${r.path}@${r.line}`),
			["/real@4"],
		);
		assert.deepEqual(found.literals, ["/x-api-key", "/real"]);
		const python =
			'"""Example:\n\n    @app.route("/doc")\n"""\n# @app.route("/hash")\n@app.route("/real")\ndef real():\n    pass\n';
		assert.deepEqual(
			anchorsOf("app.py", "python", python).routes.map((r) => `${r.path}@${r.line}`),
			["/real@6"],
		);
	});
});
