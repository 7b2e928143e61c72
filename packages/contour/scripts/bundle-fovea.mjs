// prepack/postpack: pi-contour imports the shared kernel from pi-fovea, which is not on the registry. `npm pack`
// only bundles dependencies found in the package's own node_modules, while npm workspaces link pi-fovea at the
// repository root, so this copies it in before packing (`add`) and removes the copy afterwards (`remove`).
import { cpSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const contour = join(dirname(fileURLToPath(import.meta.url)), "..");
const fovea = join(contour, "..", "fovea");
const target = join(contour, "node_modules", "pi-fovea");
rmSync(target, { recursive: true, force: true });
if (process.argv[2] === "add") {
	for (const part of ["package.json", "README.md", "src", "bin"]) {
		cpSync(join(fovea, part), join(target, part), { recursive: true });
	}
} else if (process.argv[2] !== "remove") {
	console.error("usage: bundle-fovea.mjs add|remove");
	process.exit(2);
}
