// JSON text in, JSON text out: what an edge proxy holds is a request body.
// toolschema's normalizeToolsJson against pi-ai's JSON.parse + normalize every
// tool + JSON.stringify, and against a plain JSON.parse + JSON.stringify of the
// same body (the copy), per dispatcher, in one process and one run.
//
//   node --expose-gc bench/text.mjs [--quick]
//
// The bodies: OpenAI Chat requests of 20 tools each (the corpus set's schemas
// in order) with a short conversation, as a client sends them. Both contestants
// get the body as a string and return a string; neither can cache (pi-ai
// memoizes per object, and every parse makes new ones; toolschema does not
// cache text).
import { loadPeers } from "./peers/load.mjs";
import { CCA_MAX_JSON_DEPTH, QUICK, TARGETS, corpusSets, fmt, jsonDepth, loadCorpus, loadToolschema, median, printTable, time, writeResult } from "./lib.mjs";

const ROUNDS = QUICK ? 1 : 5;
const PER_BODY = 20;
const GOAL = 3;

const ts = await loadToolschema();
const { piAi } = await loadPeers();

const messages = [
  { role: "system", content: "You are a helpful assistant. Use the tools when they help." },
  { role: "user", content: "Find the open issues about tool schemas and summarize them." },
];

function bodiesOf(schemas) {
  const out = [];
  for (let at = 0; at < schemas.length; at += PER_BODY) {
    const tools = schemas.slice(at, at + PER_BODY).map((parameters, i) => ({
      type: "function",
      function: { name: `tool_${at + i}`, description: "A tool.", parameters },
    }));
    out.push(JSON.stringify({ model: "gpt-5", messages, tools, tool_choice: "auto" }));
  }
  return out;
}

// pi-ai's way: parse, normalize each tool's parameters, serialize.
function piAiText(dispatch) {
  return (text) => {
    const body = JSON.parse(text);
    for (const tool of body.tools) {
      const out = dispatch(tool.function.parameters);
      tool.function.parameters = out.schema;
      if (out.strict !== undefined) tool.function.strict = out.strict;
    }
    return JSON.stringify(body);
  };
}

const contestants = (target) => ({
  toolschema: (text) => ts.normalizeToolsJson(text, { target }),
  "pi-ai": piAiText(piAi.targets[target]),
  copy: (text) => JSON.stringify(JSON.parse(text)),
});


const sets = corpusSets(loadCorpus());
const chosen = QUICK ? { mcp: sets.mcp } : sets;
const plan = [];
for (const [set, entries] of Object.entries(chosen)) {
  for (const target of TARGETS) {
    const schemas = entries.map((e) => e.schema).filter((s) => target !== "cca" || jsonDepth(s) <= CCA_MAX_JSON_DEPTH);
    // Every body must pass through every contestant; one that throws is left out for all.
    const kept = bodiesOf(schemas).filter((b) => {
      try {
        for (const run of Object.values(contestants(target))) run(b);
        return true;
      } catch {
        return false;
      }
    });
    plan.push({ set, target, bodies: kept, bytes: kept.reduce((n, b) => n + b.length, 0) });
  }
}

console.log(`text: ${QUICK ? "quick, " : ""}${ROUNDS} round(s); pi-ai ${piAi.version}, toolschema ${ts.version()}; bodies of ${PER_BODY} tools`);
const samples = {};
const names = ["toolschema", "pi-ai", "copy"];
for (let round = 0; round < ROUNDS; round++) {
  for (const p of plan) {
    const key = `${p.set}/${p.target}`;
    samples[key] ??= {};
    const runs = contestants(p.target);
    for (const name of names) {
      const run = runs[name];
      const ns = await time(() => {
        for (let i = 0; i < p.bodies.length; i++) run(p.bodies[i]);
      });
      (samples[key][name] ??= []).push(ns);
    }
    process.stdout.write(".");
  }
  names.push(names.shift());
}
process.stdout.write("\n");

const rows = plan.map((p) => {
  const m = Object.fromEntries(Object.entries(samples[`${p.set}/${p.target}`]).map(([n, v]) => [n, median(v)]));
  return { set: p.set, target: p.target, bodies: p.bodies.length, bytes: p.bytes, ns: m, piAiOverToolschema: m["pi-ai"] / m.toolschema, toolschemaOverCopy: m.toolschema / m.copy };
});
for (const set of Object.keys(chosen)) {
  const first = rows.find((r) => r.set === set);
  console.log(`\n${set}: ${first.bodies} request bodies, ${fmt.bytes(first.bytes)} of JSON per pass; time per pass (median); ratios > 1 mean toolschema is faster`);
  printTable(
    ["dispatcher", "toolschema", "pi-ai", "copy", `pi-ai/ts (goal ≥${GOAL})`, "ts/copy"],
    rows.filter((r) => r.set === set).map((r) => [r.target, fmt.time(r.ns.toolschema), fmt.time(r.ns["pi-ai"]), fmt.time(r.ns.copy), fmt.ratio(r.piAiOverToolschema), fmt.ratio(r.toolschemaOverCopy)]),
  );
}
writeResult("text", { goal: GOAL, rows });
