// Node: the consumer project's own script, importing the installed package by
// name (the `node` + `import` condition). Reads the bundle, writes the answers.
import { readFileSync, writeFileSync } from "node:fs";
import * as ts from "toolschema";
import { runCases } from "./cases.mjs";

const [bundlePath, resultsPath] = process.argv.slice(2);
writeFileSync(resultsPath, JSON.stringify(runCases(ts, JSON.parse(readFileSync(bundlePath, "utf8")))));
