// prepack/postpack of pi-contour and pi-crew: both import the shared kernel from pi-fovea, which is not on the
// registry (a foreign package of that name is). `npm pack` only bundles dependencies found in the package's own
// node_modules, while npm workspaces link pi-fovea at the repository root, so this copies it into the package being
// packed (npm runs lifecycle scripts in the package's folder) before packing (`add`) and removes the copy afterwards
// (`remove`). Only the kernel's sources travel: no build step, nothing of the checkout's node_modules.
import { cpSync, existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const fovea = join(dirname(fileURLToPath(import.meta.url)), "..", "packages", "fovea");
const pkg = process.cwd();
if (!existsSync(join(pkg, "package.json")) || pkg === fovea) {
	console.error(`bundle-fovea.mjs: run it from the package being packed, not ${pkg}`);
	process.exit(2);
}
const target = join(pkg, "node_modules", "pi-fovea");
rmSync(target, { recursive: true, force: true });
if (process.argv[2] === "add") {
	for (const part of ["package.json", "README.md", "src", "bin"]) {
		cpSync(join(fovea, part), join(target, part), { recursive: true });
	}
} else if (process.argv[2] !== "remove") {
	console.error("usage: bundle-fovea.mjs add|remove");
	process.exit(2);
}
