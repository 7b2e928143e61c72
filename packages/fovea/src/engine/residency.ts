import { cacheRootsLimit } from "./cache-roots.ts";
import { CodeMap, type CodeMapOptions } from "./map/code-map.ts";

/**
 * Code maps by root, with heavy state (graph, in-memory facts) resident for at most `limit` roots, least recently
 * used evicted first. Evicted maps keep their identity and on-disk facts, so returning to a root rebuilds its graph
 * without parsing. A map is forgotten when every user that took it has retired its root. Maps are made by the user
 * that first asks (`create`), with that user's copy of the engine: a store shared through `globalThis` may outlive
 * the copy of pi-fovea that created it.
 */
class MapStore {
	#limit: number;
	readonly #maps = new Map<string, CodeMap>();
	/** Who took each root's map; the map is forgotten when the last of them retires the root. */
	readonly #users = new Map<string, Set<string>>();
	/** Roots whose heavy state is in memory, least recently used first. */
	readonly #resident: string[] = [];

	constructor(limit: number) {
		this.#limit = Math.max(1, Math.floor(limit));
	}

	get limit(): number {
		return this.#limit;
	}

	/** A new bound, evicting beyond it at the next `use`. */
	configure(limit: number): void {
		this.#limit = Math.max(1, Math.floor(limit));
	}

	use(root: string, user: string, create: (root: string) => CodeMap): CodeMap {
		let map = this.#maps.get(root);
		if (map === undefined) {
			map = create(root);
			this.#maps.set(root, map);
		}
		const users = this.#users.get(root) ?? new Set<string>();
		this.#users.set(root, users);
		users.add(user);
		const at = this.#resident.indexOf(root);
		if (at >= 0) this.#resident.splice(at, 1);
		this.#resident.push(root);
		while (this.#resident.length > this.#limit) {
			const coldest = this.#resident.shift() as string;
			void this.#maps.get(coldest)?.evict();
		}
		return map;
	}

	isResident(root: string): boolean {
		return this.#resident.includes(root) && this.#maps.get(root)?.resident === true;
	}

	release(roots: readonly string[], user: string): void {
		for (const root of roots) {
			const users = this.#users.get(root);
			users?.delete(user);
			if (users !== undefined && users.size > 0) continue;
			this.#users.delete(root);
			void this.#maps.get(root)?.close();
			this.#maps.delete(root);
			const at = this.#resident.indexOf(root);
			if (at >= 0) this.#resident.splice(at, 1);
		}
	}

	get(root: string): CodeMap | undefined {
		return this.#maps.get(root);
	}
}

/**
 * One user's handle on a set of code maps (see MapStore): `use` takes a root's map and marks it most recently used,
 * `retire` gives the user's roots back. `new ResidentMaps(limit)` holds maps of its own (a CLI, a test);
 * `sharedResidentMaps(user)` is the process's one set, so each root has one map, one graph and one copy of its facts
 * however many extensions ask.
 */
export class ResidentMaps {
	readonly #store: MapStore;
	readonly #user: string;
	readonly #options: CodeMapOptions;

	constructor(limit: number, options: CodeMapOptions = {}, store?: MapStore, user = "") {
		this.#store = store ?? new MapStore(limit);
		this.#user = user;
		this.#options = options;
	}

	/** How many roots' heavy state may be in memory at once. */
	get limit(): number {
		return this.#store.limit;
	}

	/** The map of `root`, marked as most recently used; evicts the least recently used beyond the limit. */
	use(root: string): CodeMap {
		return this.#store.use(root, this.#user, (at) => new CodeMap(at, this.#options));
	}

	/** Whether `root`'s heavy state is in memory. */
	isResident(root: string): boolean {
		return this.#store.isResident(root);
	}

	/** This user is done with `roots`; a map no other user holds is forgotten and its watch closed. */
	retire(roots: readonly string[]): void {
		this.#store.release(roots, this.#user);
	}

	get(root: string): CodeMap | undefined {
		return this.#store.get(root);
	}
}

/**
 * The key of the process's map store on `globalThis`: a registered symbol, so a second copy of pi-fovea in the same
 * process (pi-contour's tarball bundles its own) finds the same store instead of building every graph again.
 */
const SHARED_STORE = Symbol.for("pi-fovea.resident-maps.v1");

/**
 * The process's code maps seen by `user` (an extension's name): one map per root for every extension, resident for
 * at most FOVEA_CACHE_ROOTS roots (default 2) across all of them, watched unless FOVEA_WATCH=0. Both settings are
 * read at each call (an extension calls once per session), so a new session follows the environment it starts in.
 */
export function sharedResidentMaps(user: string): ResidentMaps {
	const holder = globalThis as { [SHARED_STORE]?: MapStore };
	const limit = cacheRootsLimit();
	const options = { watch: process.env.FOVEA_WATCH !== "0" };
	const store = holder[SHARED_STORE] ?? new MapStore(limit);
	store.configure(limit);
	holder[SHARED_STORE] = store;
	return new ResidentMaps(limit, options, store, user);
}
