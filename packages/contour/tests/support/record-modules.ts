// Preloaded with `--import` into a CLI process: appends the URL of every module of this repository's packages the
// process loads to the file named by CONTOUR_TEST_MODULES, so a test can say what a run loaded.
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";

const out = process.env.CONTOUR_TEST_MODULES;
if (out !== undefined && out !== "") {
	registerHooks({
		load(url, context, next) {
			if (/\/packages\/[a-z]+\/(src|dist)\//.test(url)) appendFileSync(out, `${url}\n`);
			return next(url, context);
		},
	});
}
