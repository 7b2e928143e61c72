#!/usr/bin/env node
// The `fovea` command: the bundled CLI when it is current, else the sources (see launch.js).
import { launchCli } from "./launch.js";

await launchCli(new URL("../", import.meta.url));
