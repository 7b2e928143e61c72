/**
 * An issue's template comments and pasted version listings are not what it is about (`terms/issue-boilerplate.ts`):
 * read as prose, a listing of installed packages ranks the one file that prints such a listing first. Pure reading,
 * then focus on a real Git repository.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { gitRepo } from "../../../../test/e2e/support/workspaces.ts";
import { CodeMap } from "../../src/engine/map/code-map.ts";
import { withoutBoilerplate } from "../../src/engine/terms/index.ts";
import { tempDirs } from "../support/temp-tree.ts";

const temps = tempDirs();
const maps: CodeMap[] = [];
after(async () => {
	for (const map of maps) await map.close();
	await temps.removeAll();
});

/** What `xr.show_versions()` prints, as issues paste it. */
const SHOW_VERSIONS = [
	"INSTALLED VERSIONS",
	"------------------",
	"commit: None",
	"python: 3.7.1 (default, Oct 20 2018, 14:57:15) [GCC 7.3.0]",
	"python-bits: 64",
	"OS: Linux",
	"machine: x86_64",
	"numpy: 1.16.2",
	"scipy: 1.2.1",
	"netCDF4: 1.4.2",
	"pydap: None",
	"h5netcdf: None",
	"dask: 1.1.4",
	"matplotlib: 3.0.3",
];

const ISSUE = [
	"combine_by_coords raises ValueError if coordinates are non-monotonic",
	"<!-- Please paste the output of show_versions() below: it lists numpy, scipy, netCDF4, dask and matplotlib -->",
	"Combining coordinates that are not monotonic raises a ValueError.",
	"",
	"<details>",
	...SHOW_VERSIONS,
	"</details>",
].join("\r\n");

describe("withoutBoilerplate", () => {
	it("blanks a version listing and template comments, and keeps the words the reporter wrote", () => {
		const said = withoutBoilerplate(ISSUE);
		for (const word of ["numpy", "scipy", "netCDF4", "pydap", "dask", "python-bits", "machine", "Please"])
			assert.ok(!said.includes(word), `${word} is left in:\n${said}`);
		assert.match(said, /^combine_by_coords raises ValueError/);
		assert.match(said, /Combining coordinates that are not monotonic/);
		assert.equal(said.split("\n").length, ISSUE.split("\r\n").length, "lines stay where they were");
	});

	it("reads `pip list`, `pip freeze`, JSON from `python -m requests.help` and `name version` lines as listings", () => {
		const pip = [
			"Package    Version",
			"---------- -------",
			"aioftp     0.13.0",
			"attrs      19.1.0",
			"pytest     6.0.0rc0",
		];
		assert.equal(withoutBoilerplate(pip.join("\n")).trim(), "");
		const freeze = ["$ pip freeze", "attrs==19.3.0", "more-itertools==8.2.0", "pluggy==0.13.1"];
		assert.equal(withoutBoilerplate(freeze.join("\n")).trim(), "$ pip freeze");
		const json = [
			"{",
			'  "chardet": {',
			'    "version": "3.0.4"',
			"  },",
			'  "idna": {',
			'    "version": "2.8"',
			"  },",
		];
		json.push(
			'  "urllib3": {',
			'    "version": "1.25.8"',
			"  },",
			'  "requests": {',
			'    "version": "2.23.0"',
			"  }",
			"}",
		);
		assert.equal(withoutBoilerplate(json.join("\n")).trim(), "");
		const astropy = ["Linux-5.15", "Python 3.9.10 | packaged by conda-forge", "Numpy 1.22.3", "astropy 5.0.3"];
		assert.equal(withoutBoilerplate(astropy.join("\n")).trim(), "Linux-5.15");
	});

	it("keeps configs, tables of measures and short queries whole", () => {
		const config = ["[tool.pylint.format]", "max-line-length = 100", "max-args = 7", "min-similarity-lines = 4"];
		assert.equal(withoutBoilerplate(config.join("\n")), config.join("\n"));
		const table = [
			"ID0001     70.99200   38.51040",
			"ID0001     13.05120   28.19240",
			"ID0001     3.83610    10.98370",
		];
		assert.equal(withoutBoilerplate(table.join("\n")), table.join("\n"));
		assert.equal(withoutBoilerplate("numpy: 1.16.2"), "numpy: 1.16.2");
		assert.equal(withoutBoilerplate(""), "");
	});
});

describe("focus on an issue with a version listing", () => {
	it("ranks the code the issue is about above the file that prints the listing", async () => {
		const base = await temps.make();
		const names = ["commit", "python", "python-bits", "OS", "machine", "numpy", "scipy", "netCDF4", "pydap"];
		const printed = [...names, "h5netcdf", "dask", "matplotlib", "installed", "versions"];
		const files = {
			"pkg/print_versions.py": [
				"def show_versions():",
				'    """Print the installed versions of the dependencies."""',
				...printed.map((name) => `    print("${name}: " + version_of("${name}"))`),
				"",
			].join("\n"),
			"pkg/combine.py": [
				"def combine_by_coords(datasets):",
				'    """Combine datasets along their coordinates, which must be monotonic."""',
				"    if not monotonic(datasets):",
				'        raise ValueError("Resulting object does not have monotonic global indexes")',
				"    return datasets",
				"",
			].join("\n"),
			"pkg/merge.py": 'def merge(objects):\n    """Merge the variables of several objects."""\n    return objects\n',
		};
		const map = new CodeMap(gitRepo(join(base, "pkg-repo"), files, { commit: true }), { cache: false });
		maps.push(map);
		const answer = await map.focus({ text: ISSUE }, 1500);
		const ranked = answer.files.map((f) => f.file);
		assert.equal(ranked[0], "pkg/combine.py", ranked.join(", "));
		// The listing's words alone do find the printing file: the order above comes from leaving them out.
		const listing = await map.focus({ text: SHOW_VERSIONS.join(" ") }, 1500);
		assert.equal(listing.files[0]?.file, "pkg/print_versions.py");
	});
});
