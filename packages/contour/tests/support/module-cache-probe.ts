// Run as a child process: serves modules through the CLI's stripped-module cache in argv[2], imports the modules
// named after it, and prints the cache's counts and the modules' `value` exports as JSON.
import { cacheStrippedModules } from "../../src/cli-module-cache.ts";

const [dir, ...modules] = process.argv.slice(2);
const stats = cacheStrippedModules(dir as string);
const values: unknown[] = [];
for (const path of modules) values.push(((await import(path)) as { value: unknown }).value);
process.stdout.write(JSON.stringify({ stats: stats ?? null, values }));
