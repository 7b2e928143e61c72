/**
 * What marks a directory as a project when no Git marker is nearer: build manifests of the common ecosystems,
 * probed by exact name (never by listing the directory), and the file extensions of source files the engine can
 * read, whose containing directory is the last-resort root.
 */
export const MANIFEST_NAMES: readonly string[] = [
	"package.json",
	"deno.json",
	"deno.jsonc",
	"Cargo.toml",
	"go.mod",
	"go.work",
	"pyproject.toml",
	"setup.py",
	"setup.cfg",
	"Pipfile",
	"pom.xml",
	"build.gradle",
	"build.gradle.kts",
	"settings.gradle",
	"settings.gradle.kts",
	"build.sbt",
	"composer.json",
	"Gemfile",
	"mix.exs",
	"Package.swift",
	"pubspec.yaml",
	"dune-project",
	"stack.yaml",
	"build.zig",
	"CMakeLists.txt",
	"meson.build",
];

const SOURCE_EXTENSIONS = new Set([
	"ts",
	"tsx",
	"mts",
	"cts",
	"js",
	"jsx",
	"mjs",
	"cjs",
	"py",
	"go",
	"rs",
	"java",
	"kt",
	"kts",
	"scala",
	"c",
	"h",
	"cc",
	"cpp",
	"hpp",
	"cs",
	"rb",
	"php",
	"swift",
	"ex",
	"exs",
	"lua",
	"zig",
	"dart",
	"vue",
	"svelte",
]);

/** Whether a file name has the extension of a supported source language. */
export function isSourceFile(name: string): boolean {
	const dot = name.lastIndexOf(".");
	return dot > 0 && SOURCE_EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}
