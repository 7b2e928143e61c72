/**
 * Records filesystem calls that the extensions under test make below a directory.
 *
 * Wraps path-taking functions of `node:fs` and `node:fs/promises` (and re-syncs the built-in ESM exports so named
 * imports see the wrappers). A call is recorded when one of its path arguments lies under `under` and the call stack
 * holds a frame from Fovea's or Contour's sources; Pi's own work under the cwd (AGENTS.md, settings) is ignored.
 */
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { sep } from "node:path";
import { fileURLToPath } from "node:url";

/** Source folders whose calls count as "the extensions'" (Contour reaches Fovea's kernel via `pi-fovea/*`). */
const EXTENSION_FRAMES = ["/packages/fovea/src/", "/packages/contour/src/", "/node_modules/pi-fovea/src/"];

const SYNC_AND_CALLBACK = [
	"access",
	"accessSync",
	"appendFile",
	"appendFileSync",
	"createReadStream",
	"createWriteStream",
	"exists",
	"existsSync",
	"lstat",
	"lstatSync",
	"mkdir",
	"mkdirSync",
	"open",
	"openSync",
	"opendir",
	"opendirSync",
	"readFile",
	"readFileSync",
	"readdir",
	"readdirSync",
	"readlink",
	"readlinkSync",
	"realpath",
	"realpathSync",
	"stat",
	"statSync",
	"watch",
	"watchFile",
	"writeFile",
	"writeFileSync",
] as const;

const PROMISES = [
	"access",
	"appendFile",
	"lstat",
	"mkdir",
	"open",
	"opendir",
	"readFile",
	"readdir",
	"readlink",
	"realpath",
	"stat",
	"watch",
	"writeFile",
] as const;

export interface FsCall {
	fn: string;
	path: string;
}

export interface FsProbe {
	/** Calls recorded so far. */
	readonly calls: FsCall[];
	/** Undo every patch. */
	restore(): void;
}

function pathOf(value: unknown): string | undefined {
	if (typeof value === "string") return value;
	if (value instanceof URL && value.protocol === "file:") return fileURLToPath(value);
	if (Buffer.isBuffer(value)) return value.toString();
	return undefined;
}

/** Start recording extension filesystem calls below `under` (an absolute, physical directory). */
export function probeFilesystem(under: string): FsProbe {
	const calls: FsCall[] = [];
	const undo: (() => void)[] = [];
	const previousLimit = Error.stackTraceLimit;
	Error.stackTraceLimit = Math.max(previousLimit, 100);

	const inside = (path: string) => path === under || path.startsWith(under.endsWith(sep) ? under : under + sep);
	const wrap = (target: Record<string, unknown>, name: string, label: string) => {
		const original = target[name];
		if (typeof original !== "function") return;
		const wrapper = function (this: unknown, ...args: unknown[]) {
			const path = args
				.slice(0, 2)
				.map(pathOf)
				.find((p) => p !== undefined && inside(p));
			if (path !== undefined) {
				const stack = new Error().stack ?? "";
				if (EXTENSION_FRAMES.some((frame) => stack.includes(frame))) calls.push({ fn: label, path });
			}
			return (original as (...a: unknown[]) => unknown).apply(this, args);
		};
		// Keep attached properties such as `realpath.native` and `util.promisify.custom`.
		for (const key of Reflect.ownKeys(original)) {
			if (key === "length" || key === "name" || key === "prototype") continue;
			const descriptor = Object.getOwnPropertyDescriptor(original, key);
			if (descriptor) Object.defineProperty(wrapper, key, descriptor);
		}
		target[name] = wrapper;
		undo.push(() => {
			target[name] = original;
		});
	};

	for (const name of SYNC_AND_CALLBACK) wrap(fs as unknown as Record<string, unknown>, name, `fs.${name}`);
	for (const name of PROMISES) wrap(fs.promises as unknown as Record<string, unknown>, name, `fs.promises.${name}`);
	syncBuiltinESMExports();

	return {
		calls,
		restore() {
			for (const fn of undo.reverse()) fn();
			syncBuiltinESMExports();
			Error.stackTraceLimit = previousLimit;
		},
	};
}
