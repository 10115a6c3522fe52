// Two builds of the package against each other, in one process: what a
// change to the core does through the package (the boundary, the JSON text
// both ways, the wasm allocator included), which native instruction counts
// do not show.
//
//   node bench/ab.mjs <pkg dir A> <pkg dir B> [--rounds N] [--set mcp|corpus] [--api schema|normalize] [target ...]
//
// `--api schema` (the default) times the functions `make bench` times
// (`normalizeSchemaForGoogle` and friends, `tryEnforceStrictSchema`: the
// schema without the report); `--api normalize` times `normalize`, which
// builds, writes and parses the report as well.
//
// A is usually a fresh `make pkg`, B the package built from the commit before
// (a git worktree's `scripts/build-pkg.sh`). Both run with their cache off, on
// fresh copies of the schemas made outside the timed region, in alternating
// order round after round; the table shows each one's median pass and B/A
// (> 1: A is faster).
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { TARGETS, corpusSets, loadCorpus, median, toolschemaTargets } from "./lib.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [, value] = args.splice(at, 2);
  return value;
};
const rounds = Number(option("--rounds", "30"));
const set = option("--set", "mcp");
const api = option("--api", "schema");
const [dirA, dirB, ...targets] = args;
if (!dirA || !dirB || !Number.isSafeInteger(rounds) || rounds < 1 || !["schema", "normalize"].includes(api)) {
  console.error("usage: node bench/ab.mjs <pkg dir A> <pkg dir B> [--rounds N] [--set mcp|corpus] [--api schema|normalize] [target ...]");
  process.exit(2);
}
const load = async (dir) => {
  const ts = await import(pathToFileURL(resolve(dir, "node.mjs")).href);
  ts.configureCache({ maxEntries: 0 });
  return ts;
};
const [A, B] = [await load(dirA), await load(dirB)];
const schemas = corpusSets(loadCorpus())[set]?.map((e) => e.schema);
if (!schemas) {
  console.error(`unknown set ${set}: mcp or corpus`);
  process.exit(2);
}

const run = (ts, target) => (api === "normalize" ? (s) => ts.normalize(s, target) : toolschemaTargets(ts)[target]);
const pass = (ts, target) => {
  const fresh = schemas.map((s) => structuredClone(s));
  const f = run(ts, target);
  if (f === undefined) throw new Error(`--api schema times ${Object.keys(toolschemaTargets(ts)).join(", ")}; ${target} needs --api normalize`);
  const start = performance.now();
  for (const schema of fresh) f(schema);
  return performance.now() - start;
};

console.log(`ab: A ${dirA} (${A.version()}), B ${dirB} (${B.version()}); ${schemas.length} ${set} schemas per pass (${api === "schema" ? "the schema-only functions" : "normalize"}), median of ${rounds} rounds`);
console.log("target            A ms/pass  B ms/pass     B/A");
for (const target of targets.length > 0 ? targets : TARGETS) {
  for (let i = 0; i < 3; i++) pass(A, target), pass(B, target);
  const [a, b] = [[], []];
  for (let i = 0; i < rounds; i++) {
    // Alternating who goes first keeps a drift in the machine's speed out of the ratio.
    if (i % 2 === 0) a.push(pass(A, target)), b.push(pass(B, target));
    else b.push(pass(B, target)), a.push(pass(A, target));
  }
  const [ma, mb] = [median(a), median(b)];
  console.log(`${target.padEnd(16)} ${ma.toFixed(2).padStart(10)} ${mb.toFixed(2).padStart(10)} ${(mb / ma).toFixed(3).padStart(7)}×`);
}
