/**
 * The role of each file of one graph (`file-role.ts`), found the first time a query asks and kept by file id: a focus
 * asks for the role of every scored file, which at 100,000 files is most of them, so the roles of a graph are one
 * byte per file instead of a path lookup (or a classification) per file and query. A patched graph keeps its file ids
 * and their paths, so it keeps its roles.
 */
import type { GraphNode } from "../graph/index.ts";
import { type FileRole, fileRole } from "./file-role.ts";

/** Every role, by its code (the code is the index plus one; zero is "not asked yet"). */
const ROLES: readonly FileRole[] = ["production", "test", "benchmark", "fixture", "example", "vendored", "generated"];

/** The roles of one graph's files, by file id; see the module comment. */
export class FileRoles {
	readonly #nodes: readonly GraphNode[];
	readonly #codes: Uint8Array;

	/** Roles for the first `fileCount` nodes of `nodes` (the files). */
	constructor(nodes: readonly GraphNode[], fileCount: number) {
		this.#nodes = nodes;
		this.#codes = new Uint8Array(fileCount);
	}

	/** The role of file `id`. */
	of(id: number): FileRole {
		const code = this.#codes[id] ?? 0;
		if (code !== 0) return ROLES[code - 1] as FileRole;
		const role = fileRole(this.#nodes[id]?.path ?? "");
		if (id < this.#codes.length) this.#codes[id] = ROLES.indexOf(role) + 1;
		return role;
	}
}
