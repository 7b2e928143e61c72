/**
 * Import resolution (`engine/resolve/imports.ts`) and test ↔ subject links (`engine/resolve/test-links.ts`), both pure
 * functions over a set of root-relative paths: every rule of each language, and unresolvable specifiers → `[]`.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ImportFact, LanguageId } from "../../src/engine/model/facts.ts";
import { joinPath } from "../../src/engine/model/project-paths.ts";
import { type ResolutionContext, resolveImport } from "../../src/engine/resolve/imports.ts";
import { type LocalPackage, localPackageOf, subpathImportsOf } from "../../src/engine/resolve/local-packages.ts";
import { isTestPath, testSubjects } from "../../src/engine/resolve/test-links.ts";

function resolver(files: string[], extra: Omit<ResolutionContext, "files"> = {}) {
	const context: ResolutionContext = { files: new Set(files), ...extra };
	return (path: string, language: LanguageId, specifier: string, names?: string[]): string[] => {
		const imported: ImportFact = names === undefined ? { specifier, line: 1 } : { specifier, line: 1, names };
		return resolveImport({ path, language }, imported, context);
	};
}

describe("resolveImport: TypeScript / JavaScript", () => {
	const files = [
		"src/app.ts",
		"src/config.ts",
		"src/util/index.ts",
		"src/view.tsx",
		"src/types.d.ts",
		"src/legacy.js",
		"src/widget.jsx",
		"src/both.ts",
		"src/both.js",
		"src/esm.mts",
		"src/data.json",
		"lib/helper.mjs",
		"packages/ui/src/button.tsx",
		"packages/ui/src/index.ts",
		"vendor/lib.ts",
	];
	const resolve = resolver(files);

	it("probes extensions for relative specifiers", () => {
		assert.deepEqual(resolve("src/app.ts", "typescript", "./config"), ["src/config.ts"]);
		assert.deepEqual(resolve("src/app.ts", "typescript", "./view"), ["src/view.tsx"]);
		assert.deepEqual(resolve("src/app.ts", "typescript", "./types"), ["src/types.d.ts"]);
		assert.deepEqual(resolve("src/app.ts", "typescript", "./legacy"), ["src/legacy.js"]);
		assert.deepEqual(resolve("src/app.ts", "typescript", "../lib/helper"), ["lib/helper.mjs"]);
		assert.deepEqual(resolve("src/app.ts", "typescript", "./data.json"), ["src/data.json"]);
	});

	it("resolves directories to index files", () => {
		assert.deepEqual(resolve("src/app.ts", "typescript", "./util"), ["src/util/index.ts"]);
		assert.deepEqual(resolve("src/util/index.ts", "typescript", ".."), []);
		assert.deepEqual(resolve("packages/ui/src/button.tsx", "tsx", "."), ["packages/ui/src/index.ts"]);
	});

	it("maps .js written for a TypeScript source, preferring the source", () => {
		assert.deepEqual(resolve("src/app.ts", "typescript", "./config.js"), ["src/config.ts"]);
		assert.deepEqual(resolve("src/app.ts", "typescript", "./view.jsx"), ["src/view.tsx"]);
		assert.deepEqual(resolve("src/app.ts", "typescript", "./both.js"), ["src/both.ts"]);
		assert.deepEqual(resolve("src/app.ts", "typescript", "./esm.mjs"), ["src/esm.mts"]);
		assert.deepEqual(resolve("src/app.ts", "typescript", "./legacy.js"), ["src/legacy.js"]);
		assert.deepEqual(resolve("src/legacy.js", "javascript", "./config.js"), ["src/config.ts"]);
		// `allowJs`: a .js specifier names the .jsx beside it when no .js or TypeScript source is there.
		assert.deepEqual(resolve("src/app.ts", "typescript", "./widget.js"), ["src/widget.jsx"]);
		assert.deepEqual(resolve("src/legacy.js", "javascript", "./widget.js"), ["src/widget.jsx"]);
	});

	it("resolves a monorepo's own packages by name: exports, entry fields, their sources, subpaths", () => {
		const packages = new Map([
			["@acme/lib", localPackageOf({ name: "@acme/lib", main: "./dist/index.js" }, "packages/lib")?.pkg],
			[
				"@acme/ui",
				localPackageOf(
					{
						name: "@acme/ui",
						exports: {
							".": { types: "./dist/main.d.ts", import: "./dist/main.mjs" },
							"./icons/*": "./dist/icons/*.js",
						},
					},
					"packages/ui",
				)?.pkg,
			],
			["plain", localPackageOf({ name: "plain" }, "tools/plain")?.pkg],
		]) as Map<string, LocalPackage>;
		const resolve = resolver(
			[
				"packages/lib/src/index.ts",
				"packages/lib/src/util/date.ts",
				"packages/ui/src/main.tsx",
				"packages/ui/src/icons/star.tsx",
				"tools/plain/index.js",
				"shared/x.ts",
			],
			{ packages, tsconfig: { baseDir: "", paths: { "@acme/lib": ["shared/x.ts"] } } },
		);
		const from = "apps/web/main.ts";
		assert.deepEqual(resolve(from, "typescript", "@acme/lib"), ["shared/x.ts"], "an alias comes first");
		assert.deepEqual(resolve(from, "typescript", "@acme/lib/util/date"), ["packages/lib/src/util/date.ts"]);
		assert.deepEqual(resolve(from, "typescript", "@acme/ui"), ["packages/ui/src/main.tsx"]);
		assert.deepEqual(resolve(from, "typescript", "@acme/ui/icons/star"), ["packages/ui/src/icons/star.tsx"]);
		assert.deepEqual(resolve(from, "javascript", "plain"), ["tools/plain/index.js"]);
		assert.deepEqual(resolve(from, "typescript", "@acme/other"), [], "not a package of the root");
		assert.deepEqual(resolve(from, "typescript", "plainly"), [], "a name is matched whole");
		const noAlias = resolver(["packages/lib/src/index.ts"], { packages });
		assert.deepEqual(noAlias(from, "typescript", "@acme/lib"), ["packages/lib/src/index.ts"], "main's source");
	});

	it("takes a subpath that `exports` maps to null as private to its package", () => {
		const packages = new Map([
			[
				"@acme/kit",
				localPackageOf(
					{ name: "@acme/kit", exports: { ".": "./dist/index.js", "./internal/*": null, "./*": "./dist/*.js" } },
					"packages/kit",
				)?.pkg,
			],
		]) as Map<string, LocalPackage>;
		const resolve = resolver(
			["packages/kit/src/index.ts", "packages/kit/src/format.ts", "packages/kit/src/internal/cache.ts"],
			{ packages },
		);
		assert.deepEqual(resolve("apps/web/main.ts", "typescript", "@acme/kit"), ["packages/kit/src/index.ts"]);
		assert.deepEqual(resolve("apps/web/main.ts", "typescript", "@acme/kit/format"), ["packages/kit/src/format.ts"]);
		assert.deepEqual(resolve("apps/web/main.ts", "typescript", "@acme/kit/internal/cache"), []);
	});

	it("resolves `#` subpath imports through the package.json nearest above the importing file", () => {
		const packages = new Map([
			["@acme/lib", localPackageOf({ name: "@acme/lib", main: "./dist/index.js" }, "packages/lib")?.pkg],
		]) as Map<string, LocalPackage>;
		const packageImports = new Map([
			[
				"",
				subpathImportsOf({
					imports: {
						"#db": "./src/db/index.ts",
						"#util/*": "./dist/util/*.js",
						"#env": { node: "./src/env-node.ts", default: "./src/env-web.ts" },
						"#lib": "@acme/lib",
						"#blocked": null,
						"#loop": "#db",
					},
				}),
			],
			["packages/app", subpathImportsOf({ imports: { "#config": "./config/main.ts" } })],
			["packages/bare", subpathImportsOf({ name: "bare" })],
		]);
		const resolve = resolver(
			[
				"src/app.ts",
				"src/db/index.ts",
				"src/util/date.ts",
				"src/env-node.ts",
				"src/env-web.ts",
				"packages/lib/src/index.ts",
				"packages/app/config/main.ts",
				"packages/app/src/deep/run.ts",
				"packages/bare/src/main.ts",
			],
			{ packages, packageImports },
		);
		assert.deepEqual(resolve("src/app.ts", "typescript", "#db"), ["src/db/index.ts"]);
		assert.deepEqual(resolve("src/app.ts", "typescript", "#util/date"), ["src/util/date.ts"], "build output's source");
		assert.deepEqual(resolve("src/app.ts", "typescript", "#env"), ["src/env-node.ts"], "conditions in order");
		assert.deepEqual(resolve("src/app.ts", "typescript", "#lib"), ["packages/lib/src/index.ts"], "a bare target");
		assert.deepEqual(resolve("src/app.ts", "typescript", "#blocked"), []);
		assert.deepEqual(resolve("src/app.ts", "typescript", "#loop"), [], "a target is never another # name");
		assert.deepEqual(resolve("src/app.ts", "typescript", "#missing"), []);
		assert.deepEqual(resolve("packages/app/src/deep/run.ts", "typescript", "#config"), ["packages/app/config/main.ts"]);
		assert.deepEqual(resolve("packages/app/src/deep/run.ts", "typescript", "#db"), [], "its own manifest's only");
		assert.deepEqual(resolve("packages/bare/src/main.ts", "typescript", "#db"), [], "Node looks no further up");
		assert.deepEqual(resolver(["src/db/index.ts"])("src/app.ts", "typescript", "#db"), [], "no manifest read");
		const aliased = resolver(["src/db/index.ts", "lib/db.ts", "src/util/date.ts"], {
			packageImports,
			tsconfig: { baseDir: "", paths: { "#db": ["lib/db.ts"] } },
		});
		assert.deepEqual(aliased("src/app.ts", "typescript", "#db"), ["lib/db.ts"], "tsconfig paths come first");
		assert.deepEqual(aliased("src/app.ts", "typescript", "#util/date"), ["src/util/date.ts"], "then the imports");
	});

	it("resolves aliases with the configuration nearest above the importing file, else the root's", () => {
		const resolve = resolver(["packages/ui/src/button.tsx", "packages/ui/src/index.ts", "shared/button.ts"], {
			tsconfig: { baseDir: "", paths: { "~/*": ["shared/*"] } },
			nestedTsconfigs: new Map([
				["packages/ui", { baseDir: "packages/ui", paths: { "~/*": ["./src/*"] } }],
				["packages/ui/src/legacy", null],
			]),
		});
		assert.deepEqual(resolve("packages/ui/src/index.ts", "typescript", "~/button"), ["packages/ui/src/button.tsx"]);
		assert.deepEqual(resolve("apps/web/main.ts", "typescript", "~/button"), ["shared/button.ts"]);
		assert.deepEqual(resolve("packages/ui/src/legacy/old.ts", "typescript", "~/button"), [], "its own sets none");
	});

	it("resolves tsconfig paths (exact, wildcard, longest prefix, target order) and baseUrl", () => {
		const withPaths = resolver(files, {
			tsconfig: {
				baseDir: "",
				baseUrl: ".",
				paths: {
					"@ui": ["packages/ui/src/index.ts"],
					"@ui/*": ["packages/ui/src/*"],
					"@/*": ["missing/*", "src/*"],
					"@/util/*": ["src/util/*"],
				},
			},
		});
		assert.deepEqual(withPaths("src/app.ts", "typescript", "@ui"), ["packages/ui/src/index.ts"]);
		assert.deepEqual(withPaths("src/app.ts", "typescript", "@ui/button"), ["packages/ui/src/button.tsx"]);
		assert.deepEqual(withPaths("src/app.ts", "typescript", "@/config.js"), ["src/config.ts"]);
		assert.deepEqual(withPaths("src/app.ts", "typescript", "@/util/index"), ["src/util/index.ts"]);
		assert.deepEqual(withPaths("src/app.ts", "typescript", "vendor/lib"), ["vendor/lib.ts"]);
		// paths relative to the tsconfig's own directory when there is no baseUrl
		const nested = resolver(files, { tsconfig: { baseDir: "packages/ui", paths: { "~/*": ["./src/*"] } } });
		assert.deepEqual(nested("packages/ui/src/index.ts", "typescript", "~/button"), ["packages/ui/src/button.tsx"]);
		assert.deepEqual(nested("packages/ui/src/index.ts", "typescript", "src/button"), []);
	});

	it("returns [] for packages, missing files, paths outside the root and self-imports", () => {
		assert.deepEqual(resolve("src/app.ts", "typescript", "react"), []);
		assert.deepEqual(resolve("src/app.ts", "typescript", "node:fs"), []);
		assert.deepEqual(resolve("src/app.ts", "typescript", "./missing"), []);
		assert.deepEqual(resolve("src/app.ts", "typescript", "../../outside"), []);
		assert.deepEqual(resolve("src/app.ts", "typescript", "./app.js"), []);
		assert.deepEqual(resolve("src/app.ts", "typescript", "/abs/path"), []);
	});
});

describe("resolveImport: Python", () => {
	const files = [
		"app/__init__.py",
		"app/main.py",
		"app/models.py",
		"app/core/__init__.py",
		"app/core/base.py",
		"app/core/util/helpers.py",
		"src/lib/__init__.py",
		"src/lib/tools.py",
		"src/lib/stubs.pyi",
		"scripts/run.py",
		"scripts/common.py",
	];
	const resolve = resolver(files);

	it("resolves absolute modules to modules or packages, under the root or src/", () => {
		assert.deepEqual(resolve("app/main.py", "python", "app.models"), ["app/models.py"]);
		assert.deepEqual(resolve("app/main.py", "python", "app.core"), ["app/core/__init__.py"]);
		assert.deepEqual(resolve("app/main.py", "python", "lib.tools"), ["src/lib/tools.py"]);
		assert.deepEqual(resolve("app/main.py", "python", "lib.stubs"), ["src/lib/stubs.pyi"]);
		assert.deepEqual(resolve("scripts/run.py", "python", "common"), ["scripts/common.py"]);
	});

	it("resolves into the other Python projects of a monorepo, at their top or under their src/", () => {
		const monorepo = resolver(
			[
				"libs/core/src/acme_core/__init__.py",
				"libs/core/src/acme_core/db.py",
				"libs/util/acme_util.py",
				"services/api/acme_api/main.py",
			],
			{ pythonProjects: ["libs/core", "libs/util", "services/api"] },
		);
		const from = "services/api/acme_api/main.py";
		assert.deepEqual(monorepo(from, "python", "acme_core.db"), ["libs/core/src/acme_core/db.py"]);
		assert.deepEqual(monorepo(from, "python", "acme_util"), ["libs/util/acme_util.py"]);
		assert.deepEqual(resolve(from, "python", "acme_core.db"), [], "without the projects");
	});

	it("resolves from-imports of submodules as well as the module", () => {
		assert.deepEqual(resolve("app/main.py", "python", "app.core", ["base", "Thing"]), [
			"app/core/__init__.py",
			"app/core/base.py",
		]);
		assert.deepEqual(resolve("app/main.py", "python", "app.core.util", ["helpers"]), ["app/core/util/helpers.py"]);
	});

	it("resolves relative imports from the importing file's package", () => {
		assert.deepEqual(resolve("app/main.py", "python", ".models", ["Item"]), ["app/models.py"]);
		assert.deepEqual(resolve("app/core/base.py", "python", "..models"), ["app/models.py"]);
		assert.deepEqual(resolve("app/core/base.py", "python", ".util.helpers"), ["app/core/util/helpers.py"]);
		assert.deepEqual(resolve("app/main.py", "python", ".", ["models"]), ["app/__init__.py", "app/models.py"]);
		assert.deepEqual(resolve("app/core/util/helpers.py", "python", "...models"), ["app/models.py"]);
	});

	it("returns [] for the standard library, third-party and out-of-root relative imports", () => {
		assert.deepEqual(resolve("app/main.py", "python", "os.path"), []);
		assert.deepEqual(resolve("app/main.py", "python", "requests", ["get"]), []);
		assert.deepEqual(resolve("app/main.py", "python", "...too.far"), []);
	});

	it("probes no file under a root where neither the module's directory nor its parent exists", () => {
		/** The files, counting the paths probed. */
		class Probed extends Set<string> {
			probes = 0;
			override has(path: string): boolean {
				this.probes++;
				return super.has(path);
			}
		}
		const deep = "svc/py/a/b/c/d/e/f/main.py";
		const probed = new Probed([deep, "svc/py/pkg/mod.py", "ns/space/sub/__init__.py"]);
		const resolveIn = (spec: string, names?: string[]) => {
			probed.probes = 0;
			const imported: ImportFact =
				names === undefined ? { specifier: spec, line: 1 } : { specifier: spec, line: 1, names };
			return resolveImport({ path: deep, language: "python" }, imported, { files: probed });
		};
		// Ten roots to try (the root, src/ and eight ancestors): none holds `requests`.
		assert.deepEqual(resolveIn("requests.adapters", ["HTTPAdapter", "Retry"]), []);
		assert.equal(probed.probes, 0);
		assert.deepEqual(resolveIn("pkg.mod", ["run"]), ["svc/py/pkg/mod.py"]);
		assert.ok(probed.probes <= 4, `${probed.probes} paths probed`);
		// A namespace package (a directory holding only packages) still resolves its subpackages.
		assert.deepEqual(resolveIn("ns.space", ["sub"]), ["ns/space/sub/__init__.py"]);
	});
});

describe("resolveImport: Go", () => {
	const files = [
		"go.mod",
		"cmd/server/main.go",
		"internal/store/store.go",
		"internal/store/cache.go",
		"internal/store/store_test.go",
		"internal/store/testdata/x.go",
		"root.go",
		"svc/go.mod",
		"svc/api/api.go",
	];

	it("maps module import paths to the non-test .go files of the directory", () => {
		const resolve = resolver(files, { goModule: "example.com/app" });
		assert.deepEqual(resolve("cmd/server/main.go", "go", "example.com/app/internal/store"), [
			"internal/store/cache.go",
			"internal/store/store.go",
		]);
		assert.deepEqual(resolve("cmd/server/main.go", "go", "example.com/app"), ["root.go"]);
		assert.deepEqual(resolve("cmd/server/main.go", "go", "example.com/app/internal/missing"), []);
		assert.deepEqual(resolve("cmd/server/main.go", "go", "example.com/application"), []);
		assert.deepEqual(resolve("cmd/server/main.go", "go", "fmt"), []);
		assert.deepEqual(resolve("cmd/server/main.go", "go", "github.com/other/lib"), []);
	});

	it("honours a go.mod below the root and needs a module path", () => {
		const nested = resolver(files, { goModule: "example.com/svc", goModuleDir: "svc" });
		assert.deepEqual(nested("svc/main.go", "go", "example.com/svc/api"), ["svc/api/api.go"]);
		assert.deepEqual(resolver(files)("cmd/server/main.go", "go", "example.com/app/internal/store"), []);
	});

	it("resolves into every module of the root; a nested module's packages are not its parent's", () => {
		const resolve = resolver(files, {
			goModule: "example.com/app",
			goModules: [{ module: "example.com/app/svc", dir: "svc" }],
		});
		assert.deepEqual(resolve("cmd/server/main.go", "go", "example.com/app/svc/api"), ["svc/api/api.go"]);
		assert.deepEqual(resolve("svc/main.go", "go", "example.com/app/internal/store"), [
			"internal/store/cache.go",
			"internal/store/store.go",
		]);
		const apart = resolver(files, { goModules: [{ module: "github.com/acme/svc", dir: "svc" }] });
		assert.deepEqual(apart("cmd/server/main.go", "go", "github.com/acme/svc/api"), ["svc/api/api.go"]);
	});
});

describe("resolveImport: Rust", () => {
	const files = [
		"Cargo.toml",
		"src/lib.rs",
		"src/main.rs",
		"src/model.rs",
		"src/store/mod.rs",
		"src/store/cache.rs",
		"src/store/index/mod.rs",
		"src/net/http.rs",
		"src/net.rs",
		"src/net/http/client.rs",
		"crates/core/src/lib.rs",
		"crates/core/src/parse.rs",
	];
	const resolve = resolver(files);

	it("resolves crate:: paths to the longest prefix that is a module file, else the crate root", () => {
		assert.deepEqual(resolve("src/store/cache.rs", "rust", "crate::model::Item"), ["src/model.rs"]);
		assert.deepEqual(resolve("src/model.rs", "rust", "crate::store::cache::Cache"), ["src/store/cache.rs"]);
		assert.deepEqual(resolve("src/model.rs", "rust", "crate::store::Store"), ["src/store/mod.rs"]);
		assert.deepEqual(resolve("src/model.rs", "rust", "crate::net::http::client::get"), ["src/net/http/client.rs"]);
		assert.deepEqual(resolve("src/model.rs", "rust", "crate::net::http::Request"), ["src/net/http.rs"]);
		assert.deepEqual(resolve("src/model.rs", "rust", "crate::Config"), ["src/lib.rs"]);
		assert.deepEqual(resolve("crates/core/src/lib.rs", "rust", "crate::parse::run"), ["crates/core/src/parse.rs"]);
	});

	it("resolves a path that starts with another crate of the workspace into that crate", () => {
		const workspace = resolver(files, { rustCrates: new Map([["acme_core", "crates/core"]]) });
		assert.deepEqual(workspace("src/main.rs", "rust", "acme_core::parse::run"), ["crates/core/src/parse.rs"]);
		assert.deepEqual(workspace("src/main.rs", "rust", "acme_core::Config"), ["crates/core/src/lib.rs"]);
		assert.deepEqual(workspace("src/main.rs", "rust", "serde::Serialize"), [], "not a crate of the root");
		assert.deepEqual(resolve("src/main.rs", "rust", "acme_core::parse::run"), [], "without the workspace's crates");
	});

	it("resolves self:: and super:: from the importing module", () => {
		assert.deepEqual(resolve("src/store/mod.rs", "rust", "self::cache::Cache"), ["src/store/cache.rs"]);
		assert.deepEqual(resolve("src/store/cache.rs", "rust", "super::index::Index"), ["src/store/index/mod.rs"]);
		assert.deepEqual(resolve("src/store/cache.rs", "rust", "super::super::model::Item"), ["src/model.rs"]);
		assert.deepEqual(resolve("src/net.rs", "rust", "self::http::client"), ["src/net/http/client.rs"]);
		assert.deepEqual(resolve("src/store/cache.rs", "rust", "self::Local"), []);
	});

	it("resolves mod declarations beside mod.rs/lib.rs or in the directory named after the file", () => {
		assert.deepEqual(resolve("src/lib.rs", "rust", "mod:model"), ["src/model.rs"]);
		assert.deepEqual(resolve("src/lib.rs", "rust", "mod:store"), ["src/store/mod.rs"]);
		assert.deepEqual(resolve("src/store/mod.rs", "rust", "mod:index"), ["src/store/index/mod.rs"]);
		assert.deepEqual(resolve("src/net.rs", "rust", "mod:http"), ["src/net/http.rs"]);
		assert.deepEqual(resolve("src/net/http.rs", "rust", "mod:client"), ["src/net/http/client.rs"]);
		assert.deepEqual(resolve("src/lib.rs", "rust", "mod:missing"), []);
	});

	it("treats a first segment naming a crate-root module as crate-relative, others as external", () => {
		assert.deepEqual(resolve("src/main.rs", "rust", "store::cache"), ["src/store/cache.rs"]);
		assert.deepEqual(resolve("src/main.rs", "rust", "serde::Deserialize"), []);
		assert.deepEqual(resolve("src/main.rs", "rust", "std::collections::HashMap"), []);
		assert.deepEqual(resolve("src/lib.rs", "rust", "serde"), []);
		assert.deepEqual(resolve("src/lib.rs", "rust", "super::x"), []);
	});
});

describe("resolveImport: Java", () => {
	const files = [
		"core/src/main/java/com/acme/model/Item.java",
		"core/src/main/java/com/acme/model/Order.java",
		"core/src/main/java/com/acme/model/package-info.txt",
		"app/src/main/java/com/acme/app/Main.java",
		"app/src/main/java/com/acme/util/Strings.java",
		"legacy/com/acme/model/Item.java",
	];
	const resolve = resolver(files);
	const from = "app/src/main/java/com/acme/app/Main.java";

	it("resolves a class to every file at that package path", () => {
		assert.deepEqual(resolve(from, "java", "com.acme.model.Item"), [
			"core/src/main/java/com/acme/model/Item.java",
			"legacy/com/acme/model/Item.java",
		]);
		assert.deepEqual(resolve(from, "java", "com.acme.util.Strings"), ["app/src/main/java/com/acme/util/Strings.java"]);
	});

	it("resolves static and nested-class imports to the outer class file", () => {
		assert.deepEqual(resolve(from, "java", "com.acme.util.Strings.isBlank"), [
			"app/src/main/java/com/acme/util/Strings.java",
		]);
		assert.deepEqual(resolve(from, "java", "com.acme.model.Order.Line"), [
			"core/src/main/java/com/acme/model/Order.java",
		]);
		assert.deepEqual(resolve(from, "java", "com.acme.util.Strings.*"), [
			"app/src/main/java/com/acme/util/Strings.java",
		]);
	});

	it("resolves a wildcard to every .java file of the package directories", () => {
		assert.deepEqual(resolve(from, "java", "com.acme.model.*"), [
			"core/src/main/java/com/acme/model/Item.java",
			"core/src/main/java/com/acme/model/Order.java",
			"legacy/com/acme/model/Item.java",
		]);
	});

	it("returns [] for the JDK and unknown classes", () => {
		assert.deepEqual(resolve(from, "java", "java.util.List"), []);
		assert.deepEqual(resolve(from, "java", "java.util.*"), []);
		assert.deepEqual(resolve(from, "java", "com.acme.model.Missing"), []);
	});
});

describe("resolveImport: unsupported input", () => {
	it("returns [] for a language without rules and refreshes its index when the set grows", () => {
		const files = new Set(["a/x.go"]);
		const context: ResolutionContext = { files, goModule: "m" };
		assert.deepEqual(resolveImport({ path: "b.go", language: "go" }, { specifier: "m/a", line: 1 }, context), [
			"a/x.go",
		]);
		files.add("a/y.go");
		assert.deepEqual(resolveImport({ path: "b.go", language: "go" }, { specifier: "m/a", line: 1 }, context), [
			"a/x.go",
			"a/y.go",
		]);
		assert.deepEqual(
			resolveImport({ path: "x.rb", language: "ruby" as never }, { specifier: "./y", line: 1 }, context),
			[],
		);
	});

	it("joins paths without leaving the root", () => {
		assert.equal(joinPath("a/b", "../c", "./d"), "a/c/d");
		assert.equal(joinPath("", "x"), "x");
		assert.equal(joinPath("a", "../.."), undefined);
	});
});

describe("testSubjects", () => {
	it("links TS/JS tests beside, in __tests__, and across test/ ↔ src/", () => {
		const files = new Set([
			"src/store.ts",
			"src/store.test.ts",
			"src/view.tsx",
			"src/view.spec.tsx",
			"src/__tests__/util.ts",
			"src/util.js",
			"lib/__tests__/format.test.js",
			"lib/format.mjs",
			"packages/fovea/src/engine/graph.ts",
			"packages/fovea/test/engine/graph.test.ts",
			"packages/fovea/src/workspace/roots.ts",
			"packages/fovea/test/roots.test.ts",
			"packages/fovea/test/orphan.test.ts",
			"pkg/test/plain.test.ts",
			"pkg/plain.ts",
		]);
		assert.deepEqual(testSubjects("src/store.test.ts", files), ["src/store.ts"]);
		assert.deepEqual(testSubjects("src/view.spec.tsx", files), ["src/view.tsx"]);
		assert.deepEqual(testSubjects("src/__tests__/util.ts", files), ["src/util.js"]);
		assert.deepEqual(testSubjects("lib/__tests__/format.test.js", files), ["lib/format.mjs"]);
		assert.deepEqual(testSubjects("packages/fovea/test/engine/graph.test.ts", files), [
			"packages/fovea/src/engine/graph.ts",
		]);
		assert.deepEqual(testSubjects("packages/fovea/test/roots.test.ts", files), [
			"packages/fovea/src/workspace/roots.ts",
		]);
		assert.deepEqual(testSubjects("pkg/test/plain.test.ts", files), ["pkg/plain.ts"]);
		assert.deepEqual(testSubjects("packages/fovea/test/orphan.test.ts", files), []);
		assert.deepEqual(testSubjects("src/store.ts", files), []);
	});

	it("links Python test_x.py / x_test.py beside or across tests/ (or testing/) ↔ the package", () => {
		const files = new Set([
			"app/models.py",
			"app/test_models.py",
			"app/views.py",
			"app/views_test.py",
			"src/shop/cart.py",
			"tests/test_cart.py",
			"tests/unit/test_models.py",
			"tests/conftest.py",
			"src/_pytest/junitxml.py",
			"testing/test_junitxml.py",
		]);
		assert.deepEqual(testSubjects("app/test_models.py", files), ["app/models.py"]);
		// pytest's own layout: tests under testing/, the package under src/.
		assert.deepEqual(testSubjects("testing/test_junitxml.py", files), ["src/_pytest/junitxml.py"]);
		assert.deepEqual(testSubjects("app/views_test.py", files), ["app/views.py"]);
		assert.deepEqual(testSubjects("tests/test_cart.py", files), ["src/shop/cart.py"]);
		assert.deepEqual(testSubjects("tests/unit/test_models.py", files), ["app/models.py"]);
		assert.deepEqual(testSubjects("tests/conftest.py", files), []);
	});

	it("links a Python test of a package to its __init__.py, beside or across tests/", () => {
		const files = new Set([
			"src/_pytest/config/__init__.py",
			"src/_pytest/config/argparsing.py",
			"testing/test_config.py",
			"shop/orders/__init__.py",
			"shop/test_orders.py",
			"testing/test_argparsing.py",
		]);
		assert.deepEqual(testSubjects("testing/test_config.py", files), ["src/_pytest/config/__init__.py"]);
		assert.deepEqual(testSubjects("shop/test_orders.py", files), ["shop/orders/__init__.py"]);
		assert.deepEqual(testSubjects("testing/test_argparsing.py", files), ["src/_pytest/config/argparsing.py"]);
	});

	it("links Go x_test.go to the package's other files, x.go first", () => {
		const files = new Set(["store/a.go", "store/store.go", "store/store_test.go", "store/other_test.go", "x_test.go"]);
		assert.deepEqual(testSubjects("store/store_test.go", files), ["store/store.go", "store/a.go"]);
		assert.deepEqual(testSubjects("store/other_test.go", files), ["store/a.go", "store/store.go"]);
		assert.deepEqual(testSubjects("x_test.go", files), []);
		assert.deepEqual(testSubjects("store/store.go", files), []);
	});

	it("links Java XTest/XTests/XIT/TestX from src/test/java to src/main/java", () => {
		const files = new Set([
			"core/src/main/java/com/acme/Store.java",
			"core/src/test/java/com/acme/StoreTest.java",
			"core/src/test/java/com/acme/StoreTests.java",
			"core/src/test/java/com/acme/StoreIT.java",
			"core/src/test/java/com/acme/TestStore.java",
			"src/main/java/org/x/Cache.java",
			"src/test/java/org/x/CacheTest.java",
			"other/src/test/java/moved/StoreTest.java",
		]);
		for (const test of ["StoreTest", "StoreTests", "StoreIT", "TestStore"]) {
			assert.deepEqual(testSubjects(`core/src/test/java/com/acme/${test}.java`, files), [
				"core/src/main/java/com/acme/Store.java",
			]);
		}
		assert.deepEqual(testSubjects("src/test/java/org/x/CacheTest.java", files), ["src/main/java/org/x/Cache.java"]);
		assert.deepEqual(testSubjects("other/src/test/java/moved/StoreTest.java", files), [
			"core/src/main/java/com/acme/Store.java",
		]);
	});

	it("links Rust integration tests to src/x.rs or the library root", () => {
		const files = new Set([
			"src/lib.rs",
			"src/parser.rs",
			"tests/parser.rs",
			"tests/e2e.rs",
			"crates/a/src/main.rs",
			"crates/a/tests/cli.rs",
		]);
		assert.deepEqual(testSubjects("tests/parser.rs", files), ["src/parser.rs"]);
		assert.deepEqual(testSubjects("tests/e2e.rs", files), ["src/lib.rs"]);
		assert.deepEqual(testSubjects("crates/a/tests/cli.rs", files), ["crates/a/src/main.rs"]);
		assert.deepEqual(testSubjects("src/parser.rs", files), []);
	});

	it("classifies test paths", () => {
		for (const path of [
			"a.test.ts",
			"b/__tests__/c.js",
			"test_x.py",
			"x_test.py",
			"x_test.go",
			"FooTest.java",
			"tests/it.rs",
		]) {
			assert.ok(isTestPath(path), path);
		}
		for (const path of ["a.ts", "testing.py", "contest.go", "Test.java", "src/tests.rs", "README.md"]) {
			assert.ok(!isTestPath(path), path);
		}
	});
});
