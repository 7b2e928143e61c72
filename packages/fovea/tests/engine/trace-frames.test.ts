/**
 * Reading the traces that print the innermost frame first (`terms/trace-frames.ts`), through `readQuery`: Java's
 * chains of causes, Go's goroutine dumps (tabs turned to spaces as issues paste them) and Rust's backtraces, each
 * weighed from its innermost frame outside the runtime; and Rust paths written with type arguments or a trait.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readQuery } from "../../src/engine/terms/index.ts";
import { rustPath } from "../../src/engine/terms/trace-frames.ts";

const round = (weight: number) => Math.round(weight * 100) / 100;
const pathsOf = (text: string) => readQuery(text).paths.map((p) => [p.path, p.line, round(p.weight)]);
const namesOf = (text: string) => new Map(readQuery(text).names.map((n) => [n.name, round(n.weight)]));

describe("Java traces", () => {
	it("reads the deepest cause first, past the runtime's frames, and Maven's frames with a space", () => {
		const text = [
			"org.apache.maven.MojoExecutionException: build failed",
			"    at org.example.tool.BuildMojo.execute (BuildMojo.java:88)",
			"    at org.apache.maven.Runner.run (Runner.java:12)",
			"Caused by: java.lang.NullPointerException",
			"    at java.util.Objects.requireNonNull (Objects.java:221)",
			"    at java.util.Optional.of (Optional.java:120)",
			"    at org.example.core.Settings.load (Settings.java:40)",
			"    at org.example.core.Settings.load (Settings.java:40)",
			"    at org.example.core.Loader$Step.run (Loader.java:7)",
			"    ... 12 more",
		].join("\n");
		assert.deepEqual(pathsOf(text), [
			["Objects.java", 221, 0.3],
			["Optional.java", 120, 0.3],
			["Settings.java", 40, 1],
			["Loader.java", 7, 0.8],
			["BuildMojo.java", 88, 0.64],
			["Runner.java", 12, 0.51],
		]);
		const names = namesOf(text);
		assert.equal(names.get("org.example.core.Settings.load"), 1);
		assert.equal(names.get("org.example.core.Loader.run"), 0.8);
	});
});

describe("Go goroutine dumps", () => {
	it("weighs the frames innermost first past the runtime, with the tabs turned to spaces", () => {
		const text = [
			"panic: runtime error: invalid memory address or nil pointer dereference",
			"goroutine 42 [running]:",
			"panic({0x8d2f20, 0xc4201})",
			"        /usr/local/go/src/runtime/panic.go:884 +0x213",
			"example.com/app/vendor/example.com/rpc.(*connWrapper).updateState(0x0, 0xc4487)",
			"        /src/app/vendor/example.com/rpc/conn_wrapper.go:182 +0x26",
			"example.com/rpc.(*Pool[...]).refresh.func1()",
			"        /src/rpc/pool.go:61 +0x2d6",
			"created by example.com/rpc.(*Pool[...]).start in goroutine 1",
			"        /src/rpc/pool.go:40 +0x3f",
			"",
			"goroutine 7 [select]:",
			"example.com/rpc.Dial(0xc4200)",
			"        /src/rpc/dial.go:12 +0x10",
		].join("\n");
		assert.deepEqual(pathsOf(text), [
			["/usr/local/go/src/runtime/panic.go", 884, 0.3],
			["/src/app/vendor/example.com/rpc/conn_wrapper.go", 182, 1],
			["/src/rpc/pool.go", 61, 0.8],
			["/src/rpc/pool.go", 40, 0.64],
			["/src/rpc/dial.go", 12, 1],
		]);
		const names = namesOf(text);
		assert.equal(names.get("connWrapper.updateState"), 0.5);
		assert.equal(names.get("Pool.refresh"), 0.4);
		assert.equal(names.get("Pool.start"), 0.32);
		assert.equal(names.get("Dial"), 0.5);
	});
});

describe("Rust backtraces", () => {
	it("reads a frame's path through its type arguments and trait, past the panic machinery", () => {
		const text = [
			"thread 'main' panicked at 'index out of range', src/walk.rs:30:9",
			"stack backtrace:",
			"   0: rust_begin_unwind",
			"             at /rustc/0123abcd/library/std/src/panicking.rs:584:5",
			"   1: core::panicking::panic_fmt",
			"   2: <finder::opts::Options as clap::FromArgMatches>::from_arg_matches",
			"             at ./src/opts.rs:12:5",
			"   3: finder::pool::Worker<T, S>::complete::{{closure}}",
			"   4: finder::main",
		].join("\n");
		assert.deepEqual(pathsOf(text), [
			["src/walk.rs", 30, 1],
			["/rustc/0123abcd/library/std/src/panicking.rs", 584, 0.3],
			["./src/opts.rs", 12, 1],
		]);
		assert.deepEqual(
			namesOf(text),
			new Map([
				["core::panicking::panic_fmt", 0.15],
				["finder::opts::Options::from_arg_matches", 0.5],
				["finder::pool::Worker::complete", 0.4],
				["finder::main", 0.32],
			]),
		);
	});

	it("reads a path without type arguments, closures, hashes or a trait qualifier", () => {
		assert.equal(rustPath("a::b::Harness<T,S>::complete"), "a::b::Harness::complete");
		assert.equal(rustPath("<a::Task<T> as core::future::Future>::poll"), "a::Task::poll");
		assert.equal(rustPath("<BytesMut as From<Bytes>>::from"), "BytesMut::from");
		assert.equal(rustPath("Vec::<u8>::with_capacity"), "Vec::with_capacity");
		assert.equal(rustPath("a::run::{{closure}}"), "a::run");
		assert.equal(rustPath("needle {"), undefined);
		assert.equal(rustPath("Some text here"), undefined);
	});
});
