import { isAbsolute, relative, sep } from "node:path";

/**
 * Which paths automatic discovery must never turn into a project root. Pure string checks, no filesystem.
 *
 * A coordinator conversation roams through many folders; enrolling `/usr/lib`, the home directory, `~/.ssh` or a
 * package inside `node_modules` would make heat and review meaningless (and widen what gets indexed), so these give
 * no root at all. Explicit roots chosen by the user are not subject to these rules.
 */

/** Top-level directories that belong to the system, not to a user's projects. */
const SYSTEM_TOPS = new Set([
	"bin",
	"boot",
	"dev",
	"etc",
	"lib",
	"lib32",
	"lib64",
	"libx32",
	"proc",
	"run",
	"sbin",
	"snap",
	"sys",
	"usr",
	"nix",
	"System",
	"Library",
	"Applications",
	"Volumes",
]);

/** Shared parents that hold unrelated projects: a path below them may be a project, they never are. */
const SHARED_PARENTS = ["/", "/tmp", "/var/tmp", "/home", "/Users", "/private/tmp", "/srv", "/opt", "/mnt", "/media"];

/** Directory names that hold third-party code wherever they appear. */
export const DEPENDENCY_DIRS: ReadonlySet<string> = new Set([
	"node_modules",
	"bower_components",
	"jspm_packages",
	".pnpm-store",
	".yarn",
	"site-packages",
	"dist-packages",
	".venv",
	"__pycache__",
	".tox",
	".nox",
	".mypy_cache",
	".pytest_cache",
	".gradle",
	"Pods",
	"Carthage",
	".bundle",
	"vendor",
]);

/** Directory names that hold build output when they sit inside a project. */
export const GENERATED_DIRS: ReadonlySet<string> = new Set([
	"dist",
	"build",
	"out",
	"target",
	"coverage",
	".next",
	".nuxt",
	".svelte-kit",
	".turbo",
	".parcel-cache",
	".output",
	".cache",
	"obj",
]);

/** Why `path` (absolute, physical) lies in a tree that discovery must not enter, or `undefined` when it may. */
export function excludedPathReason(path: string, home: string): string | undefined {
	if (!isAbsolute(path)) return "not absolute";
	const segments = path.split(sep).filter((s) => s.length > 0);
	const top = segments[0];
	if (top === undefined) return "system";
	if (SYSTEM_TOPS.has(top)) return "system";
	if (top === "var" && !(segments[1] === "tmp" || segments[1] === "folders")) return "system";
	if (top === "private" && !(segments[1] === "tmp" || (segments[1] === "var" && segments[2] === "folders"))) {
		return "system";
	}
	const inHome = relative(home, path);
	if (inHome !== "" && !inHome.startsWith("..") && !isAbsolute(inHome)) {
		const first = inHome.split(sep)[0] ?? "";
		if (first.startsWith(".") || first === "Library") return "private";
	}
	if (segments.some((s) => DEPENDENCY_DIRS.has(s))) return "dependency";
	return undefined;
}

/** Why `root` may not be a project root, given the accessed `path` inside it, or `undefined` when it may. */
export function excludedRootReason(root: string, path: string, home: string): string | undefined {
	if (root === home) return "home";
	if (SHARED_PARENTS.includes(root)) return "shared parent";
	const reason = excludedPathReason(root, home);
	if (reason !== undefined) return reason;
	const inside = relative(root, path);
	if (inside.startsWith("..") || isAbsolute(inside)) return "outside root";
	if (inside.split(sep).some((s) => GENERATED_DIRS.has(s))) return "generated";
	return undefined;
}
