#!/usr/bin/env node
// The `crew` command: the bundled CLI when it is current, else the sources (see pi-fovea's bin/launch.js).
import { launchCli } from "pi-fovea/launch";

await launchCli(new URL("../", import.meta.url));
