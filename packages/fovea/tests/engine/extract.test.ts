/**
 * The tree-sitter extraction engine (`engine/parse/parser.ts`, `engine/extract/*`, `engine/model/languages.ts`): for each language
 * a realistic file yields exactly the expected symbols (kind, lines, container, signature, exported), imports as
 * written, calls with their callers, inheritance and package; broken sources still give facts with
 * `parseErrors > 0`; empty and large files work; the content hash and unsupported languages behave as documented.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { before, describe, it } from "node:test";
import { callList, EXTRACTOR_VERSION, type FileFacts, noCalls, type SymbolFact } from "../../src/engine/model/facts.ts";
import { LANGUAGES, languageOf } from "../../src/engine/model/languages.ts";
import { partialEntries } from "../../src/engine/model/partial-coverage.ts";
import { pythonModule } from "../../src/engine/parse/languages/python.ts";
import { expandUse, rustModule } from "../../src/engine/parse/languages/rust.ts";
import { type Extractor, hashOf, loadExtractor, withSyntaxTree } from "../../src/engine/parse/parser.ts";

let extractor: Extractor;
before(async () => {
	extractor = await loadExtractor([...LANGUAGES]);
});

type Expected = [name: string, kind: SymbolFact["kind"], line: number, endLine: number, signature: string];

function sym(
	[name, kind, line, endLine, signature]: Expected,
	extra: { container?: string; exported?: boolean } = {},
): SymbolFact {
	const fact: SymbolFact = { name, kind, line, endLine, signature };
	if (extra.container !== undefined) fact.container = extra.container;
	if (extra.exported !== undefined) fact.exported = extra.exported;
	return fact;
}

function calls(facts: FileFacts): string[] {
	return callList(facts.calls).map((call) => `${call.caller ?? "-"} -> ${call.callee} @${call.line}`);
}

function inherits(facts: FileFacts): string[] {
	return facts.inherits.map((fact) => `${fact.symbol} ${fact.relation} ${fact.base} @${fact.line}`);
}

const TS_SOURCE = `import { readFile } from "node:fs/promises";
import type { Config } from "./config.js";
import * as path from "node:path";
import defaultThing, { helper as h } from "../util/index.ts";
export { render } from "./render.ts";
export * from "./types.ts";

export interface Store<T> extends Iterable<T>, Disposable {
	get(key: string): T | undefined;
	size: number;
}

export type Listener = (event: string) => void;

export enum Mode {
	Fast,
	Slow,
}

export const DEFAULT_LIMIT = 10;

export abstract class Base {
	abstract load(): Promise<void>;
}

export class FileStore<T> extends Base implements Store<T> {
	#items = new Map<string, T>();
	private cache?: T;

	constructor(private readonly root: string) {
		super();
	}

	get(key: string): T | undefined {
		return this.#items.get(key);
	}

	async load(): Promise<void> {
		const text = await readFile(path.join(this.root, "store.json"), "utf8");
		this.#parse(text);
	}

	#parse(text: string): void {
		JSON.parse(text);
	}

	private validate(): boolean {
		return h(this.cache);
	}

	onChange = (listener: Listener): void => {
		listener("change");
	};
}

function internal(config: Config): FileStore<string> {
	const store = new FileStore<string>(config.root);
	return store;
}

export const createStore = async (root: string) => {
	const lazy = await import("./lazy.ts");
	return lazy.make(root);
};

export default function main(): void {
	internal({ root: "." });
}
`;

describe("TypeScript", () => {
	it("extracts symbols with kinds, lines, containers, signatures and export status", () => {
		const facts = extractor.extract("src/store.ts", TS_SOURCE);
		assert.equal(facts.language, "typescript");
		assert.equal(facts.parseErrors, 0);
		assert.equal(facts.lines, 68);
		assert.equal(facts.package, undefined);
		const exported = { exported: true };
		const inFileStore = { container: "FileStore", exported: true };
		assert.deepEqual(facts.symbols, [
			sym(["Store", "interface", 8, 11, "export interface Store<T> extends Iterable<T>, Disposable"], exported),
			sym(["get", "method", 9, 9, "get(key: string): T | undefined"], { container: "Store", exported: true }),
			sym(["Listener", "type", 13, 13, "export type Listener = (event: string) => void"], exported),
			sym(["Mode", "enum", 15, 18, "export enum Mode"], exported),
			sym(["DEFAULT_LIMIT", "constant", 20, 20, "export const DEFAULT_LIMIT = 10"], exported),
			sym(["Base", "class", 22, 24, "export abstract class Base"], exported),
			sym(["load", "method", 23, 23, "abstract load(): Promise<void>"], { container: "Base", exported: true }),
			sym(["FileStore", "class", 26, 54, "export class FileStore<T> extends Base implements Store<T>"], exported),
			sym(["constructor", "method", 30, 32, "constructor(private readonly root: string)"], inFileStore),
			sym(["get", "method", 34, 36, "get(key: string): T | undefined"], inFileStore),
			sym(["load", "method", 38, 41, "async load(): Promise<void>"], inFileStore),
			sym(["#parse", "method", 43, 45, "#parse(text: string): void"], { container: "FileStore", exported: false }),
			sym(["validate", "method", 47, 49, "private validate(): boolean"], { container: "FileStore", exported: false }),
			sym(["onChange", "method", 51, 53, "onChange = (listener: Listener): void =>"], inFileStore),
			sym(["internal", "function", 56, 59, "function internal(config: Config): FileStore<string>"], {
				exported: false,
			}),
			sym(["createStore", "function", 61, 64, "export const createStore = async (root: string) =>"], exported),
			sym(["main", "function", 66, 68, "export default function main(): void"], exported),
		]);
	});

	it("extracts imports as written, with imported names", () => {
		const facts = extractor.extract("src/store.ts", TS_SOURCE);
		assert.deepEqual(facts.imports, [
			{ specifier: "node:fs/promises", line: 1, names: ["readFile"] },
			{ specifier: "./config.js", line: 2, names: ["Config"] },
			{ specifier: "node:path", line: 3, names: ["*"] },
			{ specifier: "../util/index.ts", line: 4, names: ["default", "helper"] },
			{ specifier: "./render.ts", line: 5, names: ["render"] },
			{ specifier: "./types.ts", line: 6, names: ["*"] },
			{ specifier: "./lazy.ts", line: 62 },
		]);
	});

	it("extracts calls with Container.method callers, and inheritance", () => {
		const facts = extractor.extract("src/store.ts", TS_SOURCE);
		assert.deepEqual(calls(facts), [
			"FileStore -> Map @27",
			"FileStore.get -> get @35",
			"FileStore.load -> readFile @39",
			"FileStore.load -> join @39",
			"FileStore.load -> #parse @40",
			"FileStore.#parse -> parse @44",
			"FileStore.validate -> h @48",
			"FileStore.onChange -> listener @52",
			"internal -> FileStore @57",
			"createStore -> make @63",
			"main -> internal @67",
		]);
		assert.deepEqual(inherits(facts), [
			"Store extends Iterable @8",
			"Store extends Disposable @8",
			"FileStore extends Base @26",
			"FileStore implements Store @26",
		]);
	});

	it("reads declaration files: export declare, ambient constants, import = require", () => {
		const source = [
			"export declare function f(a: number): void;",
			"export declare class A extends B { m(): void; private q; }",
			"export declare const y: string;",
			"declare const x: number;",
			'import Q = require("q");',
			"export { x };",
		].join("\n");
		const facts = extractor.extract("types/index.d.ts", source);
		assert.deepEqual(facts.symbols, [
			sym(["f", "function", 1, 1, "export declare function f(a: number): void"], { exported: true }),
			sym(["A", "class", 2, 2, "export declare class A extends B"], { exported: true }),
			sym(["m", "method", 2, 2, "m(): void"], { container: "A", exported: true }),
			sym(["y", "constant", 3, 3, "export declare const y: string"], { exported: true }),
			sym(["x", "constant", 4, 4, "declare const x: number"], { exported: true }),
		]);
		assert.deepEqual(facts.imports, [{ specifier: "q", line: 5 }]);
	});

	it("treats capitalised JSX elements as calls in TSX", () => {
		const source = `import React, { useState } from "react";
import { Button } from "./Button";

export function Panel({ title }: { title: string }) {
	const [open, setOpen] = useState(false);
	return (
		<section>
			<Button onClick={() => setOpen(!open)} />
			<Header.Title>{title}</Header.Title>
		</section>
	);
}
`;
		const facts = extractor.extract("src/Panel.tsx", source);
		assert.equal(facts.language, "tsx");
		assert.deepEqual(facts.symbols, [
			sym(["Panel", "function", 4, 12, "export function Panel({ title }: { title: string })"], { exported: true }),
		]);
		assert.deepEqual(calls(facts), [
			"Panel -> useState @5",
			"Panel -> Button @8",
			"Panel -> setOpen @8",
			"Panel -> Title @9",
		]);
		assert.deepEqual(facts.imports, [
			{ specifier: "react", line: 1, names: ["default", "useState"] },
			{ specifier: "./Button", line: 2, names: ["Button"] },
		]);
	});
});

describe("JavaScript", () => {
	it("extracts CommonJS modules: require imports, module.exports / exports.x as exported", () => {
		const source = `const fs = require("fs");
const { join } = require("./paths");

function load(file) {
	return fs.readFileSync(join(__dirname, file), "utf8");
}

class Cache extends Map {
	get(key) {
		return super.get(key) ?? load(key);
	}
}

const helper = () => new Cache();
function hidden() {}

module.exports = { load, Cache };
exports.helper = helper;
`;
		const facts = extractor.extract("lib/legacy.cjs", source);
		assert.equal(facts.language, "javascript");
		assert.deepEqual(facts.symbols, [
			sym(["load", "function", 4, 6, "function load(file)"], { exported: true }),
			sym(["Cache", "class", 8, 12, "class Cache extends Map"], { exported: true }),
			sym(["get", "method", 9, 11, "get(key)"], { container: "Cache", exported: true }),
			sym(["helper", "function", 14, 14, "const helper = () =>"], { exported: true }),
			sym(["hidden", "function", 15, 15, "function hidden()"], { exported: false }),
		]);
		assert.deepEqual(facts.imports, [
			{ specifier: "fs", line: 1 },
			{ specifier: "./paths", line: 2 },
		]);
		assert.deepEqual(calls(facts), [
			"load -> readFileSync @5",
			"load -> join @5",
			"Cache.get -> get @10",
			"Cache.get -> load @10",
			"helper -> Cache @14",
		]);
		assert.deepEqual(inherits(facts), ["Cache extends Map @8"]);
	});

	it("parses ESM with JSX through the JavaScript grammar", () => {
		const source =
			'import x, { a as b } from "./x.js";\nexport class A extends B.C { foo() { import("./d"); bar(); } }\nconst el = <Panel />;\n';
		const facts = extractor.extract("src/app.jsx", source);
		assert.deepEqual(
			facts.imports.map((i) => i.specifier),
			["./x.js", "./d"],
		);
		assert.deepEqual(facts.imports[0]?.names, ["default", "a"]);
		assert.deepEqual(calls(facts), ["A.foo -> bar @2", "el -> Panel @3"]);
		assert.deepEqual(inherits(facts), ["A extends C @2"]);
	});
});

const PY_SOURCE = `"""Inventory service."""
import os
import collections.abc as cabc
from typing import Optional
from .models import Item, Order as O
from ..core import base
from . import utils

MAX_ITEMS = 100
_registry = {}


class Repository(base.Store, cabc.Mapping):
    """Keeps items."""

    def __init__(self, root: str) -> None:
        super().__init__()
        self.root = os.path.abspath(root)

    @property
    def size(self) -> int:
        return len(self._items())

    def _items(self):
        return utils.load(self.root)


def create(root: str,
           limit: int = MAX_ITEMS) -> Repository:
    def check():
        return limit > 0
    check()
    return Repository(root)


async def _main():
    repo = create(".")
    print(repo.size)
`;

describe("Python", () => {
	it("extracts symbols, imports, calls, bases and the module path", () => {
		const facts = extractor.extract("src/shop/inventory.py", PY_SOURCE);
		assert.equal(facts.language, "python");
		assert.equal(facts.package, "shop.inventory");
		const member = (exported: boolean) => ({ container: "Repository", exported });
		assert.deepEqual(facts.symbols, [
			sym(["MAX_ITEMS", "constant", 9, 9, "MAX_ITEMS = 100"], { exported: true }),
			sym(["Repository", "class", 13, 25, "class Repository(base.Store, cabc.Mapping)"], { exported: true }),
			sym(["__init__", "method", 16, 18, "def __init__(self, root: str) -> None"], member(false)),
			sym(["size", "method", 21, 22, "def size(self) -> int"], member(true)),
			sym(["_items", "method", 24, 25, "def _items(self)"], member(false)),
			sym(["create", "function", 28, 33, "def create(root: str, limit: int = MAX_ITEMS) -> Repository"], {
				exported: true,
			}),
			sym(["check", "function", 30, 31, "def check()"], { exported: false }),
			sym(["_main", "function", 36, 38, "async def _main()"], { exported: false }),
		]);
		assert.deepEqual(facts.imports, [
			{ specifier: "os", line: 2 },
			{ specifier: "collections.abc", line: 3 },
			{ specifier: "typing", line: 4, names: ["Optional"] },
			{ specifier: ".models", line: 5, names: ["Item", "Order"] },
			{ specifier: "..core", line: 6, names: ["base"] },
			{ specifier: ".", line: 7, names: ["utils"] },
		]);
		assert.deepEqual(calls(facts), [
			"Repository.__init__ -> super @17",
			"Repository.__init__ -> __init__ @17",
			"Repository.__init__ -> abspath @18",
			"Repository.size -> len @22",
			"Repository.size -> _items @22",
			"Repository._items -> load @25",
			"create -> check @32",
			"create -> Repository @33",
			"_main -> create @37",
			"_main -> print @38",
		]);
		assert.deepEqual(inherits(facts), ["Repository extends Store @13", "Repository extends Mapping @13"]);
	});

	it("derives module paths from file paths", () => {
		assert.equal(pythonModule("src/pkg/mod.py"), "pkg.mod");
		assert.equal(pythonModule("pkg/__init__.py"), "pkg");
		assert.equal(pythonModule("tools/run.py"), "tools.run");
		assert.equal(pythonModule("stubs/x.pyi"), "stubs.x");
		assert.equal(pythonModule("tools/gui.pyw"), "tools.gui");
	});
});

const GO_SOURCE = `package inventory

import (
	"context"
	"fmt"
	store "example.com/app/internal/store"
)

const DefaultLimit = 10

type Item struct {
	store.Base
	Name string
}

type Repository interface {
	fmt.Stringer
	Find(ctx context.Context, name string) (*Item, error)
}

type memRepo struct {
	items map[string]*Item
}

func NewRepository() Repository {
	return &memRepo{items: make(map[string]*Item)}
}

func (r *memRepo) Find(ctx context.Context, name string) (*Item, error) {
	item, ok := r.items[name]
	if !ok {
		return nil, fmt.Errorf("missing %s", name)
	}
	return item, nil
}

func (r memRepo) String() string { return fmt.Sprint(len(r.items)) }
`;

describe("Go", () => {
	it("extracts symbols, receivers as containers, imports, calls, embedding and the package clause", () => {
		const facts = extractor.extract("internal/inventory/repo.go", GO_SOURCE);
		assert.equal(facts.package, "inventory");
		assert.deepEqual(facts.symbols, [
			sym(["DefaultLimit", "constant", 9, 9, "const DefaultLimit = 10"], { exported: true }),
			sym(["Item", "struct", 11, 14, "type Item struct"], { exported: true }),
			sym(["Repository", "interface", 16, 19, "type Repository interface"], { exported: true }),
			sym(["Find", "method", 18, 18, "Find(ctx context.Context, name string) (*Item, error)"], {
				container: "Repository",
				exported: true,
			}),
			sym(["memRepo", "struct", 21, 23, "type memRepo struct"], { exported: false }),
			sym(["NewRepository", "function", 25, 27, "func NewRepository() Repository"], { exported: true }),
			sym(["Find", "method", 29, 35, "func (r *memRepo) Find(ctx context.Context, name string) (*Item, error)"], {
				container: "memRepo",
				exported: true,
			}),
			sym(["String", "method", 37, 37, "func (r memRepo) String() string"], { container: "memRepo", exported: true }),
		]);
		assert.deepEqual(facts.imports, [
			{ specifier: "context", line: 4 },
			{ specifier: "fmt", line: 5 },
			{ specifier: "example.com/app/internal/store", line: 6 },
		]);
		assert.deepEqual(calls(facts), [
			"NewRepository -> make @26",
			"memRepo.Find -> Errorf @32",
			"memRepo.String -> Sprint @37",
			"memRepo.String -> len @37",
		]);
		assert.deepEqual(inherits(facts), ["Item extends Base @12", "Repository extends Stringer @17"]);
	});
});

const RUST_SOURCE = `use std::collections::HashMap;
use crate::model::{Item, Order as O};
use super::config::*;

mod cache;
pub mod index;

pub const LIMIT: usize = 10;

pub trait Store: Send {
    fn get(&self, key: &str) -> Option<&Item>;
    fn len(&self) -> usize { 0 }
}

#[derive(Default)]
pub struct MemStore {
    items: HashMap<String, Item>,
}

pub(crate) enum Kind { Hot, Cold }

impl MemStore {
    pub fn new() -> Self {
        MemStore { items: HashMap::new() }
    }

    fn evict(&mut self) {
        cache::clear(&mut self.items);
        self.items.clear();
    }
}

impl Store for MemStore {
    fn get(&self, key: &str) -> Option<&Item> {
        self.items.get(key)
    }
}

pub fn open() -> MemStore {
    let store = MemStore::new();
    store
}
`;

describe("Rust", () => {
	it("extracts items, impl methods with the type as container, use trees, mod declarations and impls", () => {
		const facts = extractor.extract("src/store/mod.rs", RUST_SOURCE);
		assert.equal(facts.package, "crate::store");
		assert.deepEqual(facts.symbols, [
			sym(["LIMIT", "constant", 8, 8, "pub const LIMIT: usize = 10"], { exported: true }),
			sym(["Store", "trait", 10, 13, "pub trait Store: Send"], { exported: true }),
			sym(["get", "method", 11, 11, "fn get(&self, key: &str) -> Option<&Item>"], {
				container: "Store",
				exported: true,
			}),
			sym(["len", "method", 12, 12, "fn len(&self) -> usize"], { container: "Store", exported: true }),
			sym(["MemStore", "struct", 16, 18, "pub struct MemStore"], { exported: true }),
			sym(["Kind", "enum", 20, 20, "pub(crate) enum Kind"], { exported: false }),
			sym(["new", "method", 23, 25, "pub fn new() -> Self"], { container: "MemStore", exported: true }),
			sym(["evict", "method", 27, 30, "fn evict(&mut self)"], { container: "MemStore", exported: false }),
			sym(["get", "method", 34, 36, "fn get(&self, key: &str) -> Option<&Item>"], {
				container: "MemStore",
				exported: true,
			}),
			sym(["open", "function", 39, 42, "pub fn open() -> MemStore"], { exported: true }),
		]);
		assert.deepEqual(facts.imports, [
			{ specifier: "std::collections::HashMap", line: 1, names: ["HashMap"] },
			{ specifier: "crate::model::Item", line: 2, names: ["Item"] },
			{ specifier: "crate::model::Order", line: 2, names: ["Order"] },
			{ specifier: "super::config", line: 3, names: ["*"] },
			{ specifier: "mod:cache", line: 5 },
			{ specifier: "mod:index", line: 6 },
		]);
		assert.deepEqual(calls(facts), [
			"MemStore.new -> new @24",
			"MemStore.evict -> clear @28",
			"MemStore.evict -> clear @29",
			"MemStore.get -> get @35",
			"open -> new @40",
		]);
		assert.deepEqual(inherits(facts), ["Store extends Send @10", "MemStore implements Store @33"]);
	});

	it("expands use trees and derives module paths", () => {
		assert.deepEqual(expandUse("a::{b, c::{D as E, self}, f::*}"), [
			["a::b", "b"],
			["a::c::D", "D"],
			["a::c", "c"],
			["a::f", "*"],
		]);
		assert.deepEqual(expandUse("extern_crate::Thing"), [["extern_crate::Thing", "Thing"]]);
		assert.equal(rustModule("src/lib.rs"), "crate");
		assert.equal(rustModule("src/main.rs"), "crate");
		assert.equal(rustModule("src/a/b.rs"), "crate::a::b");
		assert.equal(rustModule("src/a/mod.rs"), "crate::a");
		assert.equal(rustModule("crates/core/src/x.rs"), "crate::x");
		assert.equal(rustModule("tests/it.rs"), "crate");
		assert.equal(rustModule("src/bin/tool.rs"), "crate");
	});
});

const JAVA_SOURCE = `package com.acme.store;

import java.util.List;
import java.util.*;
import static java.util.Objects.requireNonNull;
import com.acme.model.Item;

/** Stores items in files. */
@Service
public class FileStore extends AbstractStore implements Store, AutoCloseable {
    public static final int LIMIT = 10;
    private final Map<String, Item> items = new HashMap<>();

    public FileStore(String root) {
        super(root);
        requireNonNull(root);
    }

    @Override
    public Item get(String key) {
        return items.get(key);
    }

    void evict() {
        items.clear();
    }

    @Override
    public void close() {
        evict();
    }
}

interface Store extends Iterable<Item> {
    Item get(String key);
}
`;

describe("Java", () => {
	it("extracts types, members, constants, imports (static too), calls, extends/implements and the package", () => {
		const facts = extractor.extract("src/main/java/com/acme/store/FileStore.java", JAVA_SOURCE);
		assert.equal(facts.package, "com.acme.store");
		const member = (exported: boolean) => ({ container: "FileStore", exported });
		assert.deepEqual(facts.symbols, [
			sym(
				["FileStore", "class", 10, 32, "public class FileStore extends AbstractStore implements Store, AutoCloseable"],
				{
					exported: true,
				},
			),
			sym(["LIMIT", "constant", 11, 11, "public static final int LIMIT = 10"], member(true)),
			sym(["FileStore", "method", 14, 17, "public FileStore(String root)"], member(true)),
			sym(["get", "method", 20, 22, "public Item get(String key)"], member(true)),
			sym(["evict", "method", 24, 26, "void evict()"], member(false)),
			sym(["close", "method", 29, 31, "public void close()"], member(true)),
			sym(["Store", "interface", 34, 36, "interface Store extends Iterable<Item>"], { exported: false }),
			sym(["get", "method", 35, 35, "Item get(String key)"], { container: "Store", exported: true }),
		]);
		assert.deepEqual(facts.imports, [
			{ specifier: "java.util.List", line: 3, names: ["List"] },
			{ specifier: "java.util.*", line: 4, names: ["*"] },
			{ specifier: "java.util.Objects.requireNonNull", line: 5, names: ["requireNonNull"] },
			{ specifier: "com.acme.model.Item", line: 6, names: ["Item"] },
		]);
		assert.deepEqual(calls(facts), [
			"FileStore -> HashMap @12",
			"FileStore.FileStore -> requireNonNull @16",
			"FileStore.get -> get @21",
			"FileStore.evict -> clear @25",
			"FileStore.close -> evict @30",
		]);
		assert.deepEqual(inherits(facts), [
			"FileStore extends AbstractStore @10",
			"FileStore implements Store @10",
			"FileStore implements AutoCloseable @10",
			"Store extends Iterable @34",
		]);
	});
});

describe("current language syntax", () => {
	// Each of these failed to parse with the grammars Fovea shipped before (tree-sitter-wasms 0.1.13): the file was
	// then mapped best effort, with parse errors. They come from the grammar projects' own current packages now.
	const current: Array<[path: string, source: string, symbols: string[], call: string]> = [
		[
			"types.ts",
			'export type Options = import("./options").Options;\nexport class Store {\n\taccessor size = 0;\n\tload() { return read(this.size); }\n}\n',
			["Options", "Store", "load"],
			"Store.load -> read @4",
		],
		[
			"resource.js",
			"export function run() {\n\tusing handle = open();\n\treturn handle.read();\n}\n",
			["run"],
			"run -> open @2",
		],
		[
			"closures.rs",
			'pub fn spawn() {\n    let task = async || 1;\n    let name = c"worker";\n    start(task, name);\n}\n',
			["spawn"],
			"spawn -> start @4",
		],
	];
	for (const [path, source, symbols, call] of current) {
		it(`parses ${path} without syntax errors`, () => {
			const facts = extractor.extract(path, source);
			assert.equal(facts.parseErrors, 0);
			assert.deepEqual(
				facts.symbols.map((s) => s.name),
				symbols,
			);
			assert.ok(calls(facts).includes(call), calls(facts).join(", "));
		});
	}

	it("takes a Go interface's embedded interface as inherited, never a union of its type set", () => {
		const facts = extractor.extract(
			"kinds.go",
			"package kinds\n\ntype Number interface {\n\t~int | ~float64\n}\n\ntype Named interface {\n\tfmt.Stringer\n\tName() string\n}\n",
		);
		assert.equal(facts.parseErrors, 0);
		assert.deepEqual(inherits(facts), ["Named extends Stringer @8"]);
	});
});

describe("robustness", () => {
	const broken: Array<[path: string, source: string, expected: string[], call: string]> = [
		[
			"broken.ts",
			"export function ok(a: number) {\n\treturn a + 1;\n}\n\nexport function broken(a: number {\n\tcall(a\n}\n\nclass Later {\n\tm() { ok(1); }\n}\n",
			["ok", "broken", "Later", "m"],
			"Later.m -> ok @10",
		],
		[
			"broken.py",
			"def ok():\n    return 1\n\ndef broken(:\n    pass\n\nclass Later:\n    def m(self):\n        ok()\n",
			["ok", "broken", "Later", "m"],
			"Later.m -> ok @9",
		],
		[
			"broken.go",
			"package x\n\nfunc Ok() int { return 1 }\n\nfunc Broken( {\n}\n\nfunc Later() { Ok() }\n",
			["Ok", "Broken", "Later"],
			"Later -> Ok @8",
		],
		[
			"broken.rs",
			"fn ok() -> i32 { 1 }\n\nfn broken( {\n}\n\nfn later() { ok(); }\n",
			["ok", "broken", "later"],
			"later -> ok @6",
		],
		[
			"Broken.java",
			"class A {\n  void ok() { }\n  void broken( { }\n  void later() { ok(); }\n}\n",
			["A", "ok", "broken", "later"],
			"A.later -> ok @4",
		],
	];
	for (const [path, source, expected, call] of broken) {
		it(`counts syntax errors and keeps best-effort facts (${path})`, () => {
			const facts = extractor.extract(path, source);
			assert.ok(facts.parseErrors > 0, `parseErrors of ${path}`);
			assert.deepEqual(
				facts.symbols.map((s) => s.name),
				expected,
			);
			assert.ok(calls(facts).includes(call), calls(facts).join(", "));
		});
	}

	it("cuts a file nested thousands deep short within its query budget and maps it best effort", () => {
		// 200,000 unclosed brackets: tree-sitter's query cursor took minutes over such a tree (its time grows with the
		// square of the depth), and so did counting the syntax errors with a query.
		const brackets = `${"[".repeat(200_000)}${"]".repeat(100_000)}`.replace(/.{60}/g, "$&\n");
		const facts = extractor.extract("deep.py", `x = ${brackets}\ndef after(): pass\n`);
		assert.equal(facts.cutShort, true);
		assert.ok(facts.parseErrors > 0);
		assert.deepEqual(
			partialEntries("deep.py", facts).map((entry) => entry.reason),
			["parse-errors", "cut-short"],
		);
		assert.equal(extractor.extract("ok.py", "def ok():\n    return [[[1]]]\n").cutShort, undefined);
	});

	it("handles an empty file", () => {
		for (const path of ["empty.ts", "empty.py", "empty.go", "empty.rs", "Empty.java", "empty.js", "empty.tsx"]) {
			const facts = extractor.extract(path, "");
			assert.deepEqual(
				{ ...facts, hash: "", language: "typescript" },
				{
					path,
					language: "typescript",
					hash: "",
					bytes: 0,
					lines: 0,
					symbols: [],
					imports: [],
					calls: noCalls(),
					inherits: [],
					parseErrors: 0,
					contentTerms: "",
					...(facts.package === undefined ? {} : { package: facts.package }),
				},
			);
			assert.equal(facts.hash, hashOf(""));
		}
	});

	it("extracts a 200 KB file", () => {
		const chunk = (i: number) =>
			`export function handler${i}(input: string): number {\n\tconst parsed = parse${i}(input);\n\treturn parsed.length + ${i};\n}\n\n`;
		let source = "";
		let count = 0;
		while (source.length < 200_000) source += chunk(count++);
		const facts = extractor.extract("src/big.ts", source);
		assert.equal(facts.parseErrors, 0);
		assert.equal(facts.symbols.length, count);
		assert.equal(facts.calls.callee.length, count);
		assert.deepEqual(facts.symbols.at(-1), {
			name: `handler${count - 1}`,
			kind: "function",
			line: 5 * count - 4,
			endLine: 5 * count - 1,
			signature: `export function handler${count - 1}(input: string): number`,
			exported: true,
		});
		assert.equal(facts.lines, 5 * count);
	});

	it("uses UTF-16 offsets consistently: non-ASCII text before and inside declarations", () => {
		const source =
			'// 🚀 café\nconst s = "ünïcödé 🎉";\nexport function grüß(名前: string): string {\n\treturn s;\n}\n';
		const facts = extractor.extract("src/u.ts", source);
		assert.deepEqual(facts.symbols[1], {
			name: "grüß",
			kind: "function",
			line: 3,
			endLine: 5,
			signature: "export function grüß(名前: string): string",
			exported: true,
		});
		assert.equal(facts.bytes, Buffer.byteLength(source, "utf8"));
	});

	it("caps signatures at 200 characters on one line", () => {
		const params = Array.from({ length: 40 }, (_, i) => `argument${i}: number`).join(",\n\t");
		const facts = extractor.extract("src/long.ts", `function long(\n\t${params}\n) {}\n`);
		const signature = facts.symbols[0]?.signature ?? "";
		assert.equal(signature.length, 200);
		assert.ok(signature.startsWith("function long( argument0: number, argument1: number,"));
		assert.ok(!signature.includes("\n"));
	});

	it("leaves comments out of signatures, and quoted comment markers in", () => {
		const signatureOf = (path: string, source: string, name: string) =>
			extractor.extract(path, source).symbols.find((s) => s.name === name)?.signature;
		assert.equal(
			signatureOf(
				"src/args.ts",
				'export const STATUS_ARGS = [\n\t"status",\n\t// Explicit, so a user setting cannot change it\n\t"--porcelain=v2", /* v2 */ "-z",\n];\n',
				"STATUS_ARGS",
			),
			'export const STATUS_ARGS = [ "status", "--porcelain=v2", "-z", ]',
		);
		assert.equal(
			signatureOf("src/url.ts", 'export const HOME = "https://example.org/*x*/"; // home\n', "HOME"),
			'export const HOME = "https://example.org/*x*/"',
		);
		assert.equal(
			signatureOf("src/f.ts", "export function f(\n\ta: string, // first\n\tb = 'x//y',\n): void {}\n", "f"),
			"export function f( a: string, b = 'x//y', ): void",
		);
		assert.equal(
			signatureOf(
				"app/h.py",
				'def handle(\n    path: str,  # relative\n    mark: str = "#",\n) -> None:\n    pass\n',
				"handle",
			),
			'def handle( path: str, mark: str = "#", ) -> None',
		);
		assert.equal(
			signatureOf(
				"src/lib.rs",
				"pub fn pick<'a>(\n    items: &'a [u8], // borrowed\n    sep: char, /* ',' */\n) -> &'a u8 {\n    &items[0]\n}\n",
				"pick",
			),
			"pub fn pick<'a>( items: &'a [u8], sep: char, ) -> &'a u8",
		);
		assert.equal(signatureOf("cmd/m.go", "package main\n\nconst Limit = 3 // per run\n", "Limit"), "const Limit = 3");
	});
});

describe("engine", () => {
	it("hashes EXTRACTOR_VERSION, a NUL byte and the content", () => {
		const source = "def f():\n    pass\n";
		const expected = createHash("sha256").update(`${EXTRACTOR_VERSION}\0${source}`).digest("hex");
		assert.equal(extractor.extract("f.py", source).hash, expected);
		assert.equal(hashOf(source), expected);
		// A caller that hashed the source already (the index, to look it up) hands the hash in; it is not recomputed.
		const given = extractor.extract("f.py", source, undefined, { hash: "given" });
		assert.equal(given.hash, "given");
		assert.deepEqual({ ...given, hash: expected }, extractor.extract("f.py", source));
	});

	it("maps extensions to languages", () => {
		const cases: Array<[string, string | undefined]> = [
			["a.ts", "typescript"],
			["a.mts", "typescript"],
			["a.cts", "typescript"],
			["a.d.ts", "typescript"],
			["a.tsx", "tsx"],
			["a.js", "javascript"],
			["a.jsx", "javascript"],
			["a.mjs", "javascript"],
			["a.cjs", "javascript"],
			["a.py", "python"],
			["a.pyi", "python"],
			["a.pyw", "python"],
			["a.go", "go"],
			["a.rs", "rust"],
			["A.java", "java"],
			["A.JAVA", "java"],
			["README.md", undefined],
			["Makefile", undefined],
			["dir.ts/file", undefined],
			[".ts", undefined],
		];
		for (const [path, language] of cases) assert.equal(languageOf(path), language, path);
	});

	it("honours an explicit language and reports what is loaded", () => {
		const facts = extractor.extract("scripts/tool", "def run():\n    pass\n", "python");
		assert.equal(facts.language, "python");
		assert.equal(facts.symbols[0]?.name, "run");
		assert.deepEqual(extractor.loadedLanguages(), [...LANGUAGES]);
	});

	it("withSyntaxTree hands over the facts of the tree it parsed, equal to extract's", () => {
		const source =
			'import { b } from "./b.ts";\nexport class A extends B {\n\trun(): number {\n\t\treturn b();\n\t}\n}\n';
		const seen = withSyntaxTree("src/a.ts", source, (root, facts) => {
			const first = facts();
			assert.equal(facts(), first, "computed once per tree");
			return { type: root.type, facts: first };
		});
		assert.equal(seen.type, "program");
		assert.deepEqual(seen.facts, extractor.extract("src/a.ts", source));
		assert.equal(
			withSyntaxTree("src/a.ts", source, (root) => root.childCount),
			2,
			"a visitor that takes only the root still works",
		);
	});

	it("throws a clear error for unsupported languages", () => {
		assert.throws(() => extractor.extract("notes.md", "# hi"), /cannot extract notes\.md: unsupported language/);
		assert.throws(
			() => extractor.extract("x.rb", "puts 1", "ruby" as never),
			/cannot extract x\.rb: unsupported language ruby/,
		);
		return assert.rejects(extractor.ensureLanguages(["cobol" as never]), /cannot extract language "cobol"/);
	});
});
