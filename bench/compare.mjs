// toolschema against the peers, per dispatcher, in one process and one run:
// the pi-ai normalizer (@oh-my-pi/pi-ai), @openclaw/ai where it has the
// dispatcher, and the floor JSON.parse(JSON.stringify(schema)).
//
//   node --expose-gc bench/compare.mjs [--quick]
//
// Fresh inputs: the peers memoize per input object, and toolschema's cache
// would answer equal content, so every iteration of every contestant gets a
// new copy of the inputs, made by mitata outside the timed region, and
// toolschema runs with its cache off (bench/cache.mjs times the cache).
// Each measurement is repeated over rounds in rotating order; the tables show
// medians, and every ratio is taken from the same run.
import { loadPeers } from "./peers/load.mjs";
import {
  CCA_MAX_JSON_DEPTH,
  QUICK,
  TARGETS,
  copy,
  corpusSets,
  fmt,
  jsonDepth,
  loadCorpus,
  loadToolschema,
  median,
  nestedObject,
  printTable,
  time,
  timeFresh,
  toolschemaTargets,
  writeResult,
} from "./lib.mjs";

const ROUNDS = QUICK ? 1 : 5;

const ts = await loadToolschema();
ts.configureCache({ maxEntries: 0 });
const { piAi, openclaw } = await loadPeers();
const contestants = {
  toolschema: toolschemaTargets(ts),
  "pi-ai": piAi.targets,
  "@openclaw/ai": openclaw.targets,
  copy: Object.fromEntries(TARGETS.map((t) => [t, copy])),
};
const names = Object.keys(contestants);


// The input list per (set, target): every schema each contestant accepts.
// Nothing in the corpus throws today; a schema that does is left out for all
// contestants of that target and listed, so one failure cannot end the run.
const sets = corpusSets(loadCorpus());
const chosen = QUICK ? { mcp: sets.mcp } : sets;
const excluded = [];
const plan = [];
for (const [set, entries] of Object.entries(chosen)) {
  for (const target of TARGETS) {
    const kept = entries.filter((e) => {
      if (target === "cca" && jsonDepth(e.schema) > CCA_MAX_JSON_DEPTH) {
        excluded.push({ set, target, schema: `${e.file}/${e.name}`, why: "nesting (pi-ai CCA is exponential in depth)" });
        return false;
      }
      for (const name of names) {
        const run = contestants[name][target];
        if (!run) continue;
        try {
          run(structuredClone(e.schema));
        } catch (err) {
          excluded.push({ set, target, schema: `${e.file}/${e.name}`, why: `${name} threw: ${err?.message ?? err}`.slice(0, 160) });
          return false;
        }
      }
      return true;
    });
    const text = JSON.stringify(kept.map((e) => e.schema));
    plan.push({ set, target, count: kept.length, bytes: text.length, text });
  }
}

console.log(`compare: ${QUICK ? "quick, " : ""}${ROUNDS} round(s); pi-ai ${piAi.version}, @openclaw/ai ${openclaw.version}, toolschema ${ts.version()} (cache off)`);
for (const e of excluded) console.log(`  left out of ${e.set}/${e.target}: ${e.schema}: ${e.why}`);

// samples[key][contestant] = [ns per round]
const samples = {};
const order = [...names];
for (let round = 0; round < ROUNDS; round++) {
  for (const p of plan) {
    const key = `${p.set}/${p.target}`;
    samples[key] ??= {};
    for (const name of order) {
      const run = contestants[name][p.target];
      if (!run) continue;
      const ns = await timeFresh(
        () => JSON.parse(p.text),
        (list) => {
          for (let i = 0; i < list.length; i++) run(list[i]);
        },
      );
      (samples[key][name] ??= []).push(ns);
    }
    process.stdout.write(".");
  }
  order.push(order.shift()); // rotate who goes first
}
process.stdout.write("\n");

const rows = plan.map((p) => {
  const m = Object.fromEntries(Object.entries(samples[`${p.set}/${p.target}`]).map(([n, v]) => [n, median(v)]));
  return {
    set: p.set,
    target: p.target,
    schemas: p.count,
    bytes: p.bytes,
    ns: m,
    spread: Object.fromEntries(Object.entries(samples[`${p.set}/${p.target}`]).map(([n, v]) => [n, [Math.min(...v), Math.max(...v)]])),
    piAiOverToolschema: m["pi-ai"] / m.toolschema,
    openclawOverToolschema: m["@openclaw/ai"] === undefined ? null : m["@openclaw/ai"] / m.toolschema,
    toolschemaOverCopy: m.toolschema / m.copy,
    piAiOverCopy: m["pi-ai"] / m.copy,
    openclawOverCopy: m["@openclaw/ai"] === undefined ? null : m["@openclaw/ai"] / m.copy,
  };
});

for (const set of Object.keys(chosen)) {
  const first = rows.find((r) => r.set === set);
  console.log(`\n${set}: ${first.schemas} schemas, ${fmt.bytes(first.bytes)} of JSON per pass; time per pass (median); ratios > 1 mean toolschema is faster`);
  printTable(
    ["dispatcher", "toolschema", "pi-ai", "openclaw", "copy", "pi-ai/ts (goal ≥2 google, cca, mcp; ≥1 openai-strict)", "openclaw/ts", "ts/copy", "pi-ai/copy"],
    rows
      .filter((r) => r.set === set)
      .map((r) => [
        r.target,
        fmt.time(r.ns.toolschema),
        fmt.time(r.ns["pi-ai"]),
        fmt.time(r.ns["@openclaw/ai"]),
        fmt.time(r.ns.copy),
        fmt.ratio(r.piAiOverToolschema),
        fmt.ratio(r.openclawOverToolschema),
        fmt.ratio(r.toolschemaOverCopy),
        fmt.ratio(r.piAiOverCopy),
      ]),
  );
}

// The 40-level nested object, one schema per call.
const DEPTH = 40;
const deepText = JSON.stringify(nestedObject(DEPTH));
// Quick mode keeps one dispatcher for the secondary tables: it only checks that they run.
const SECONDARY = QUICK ? ["google", "cca"] : TARGETS;
const deepRuns = Object.fromEntries(SECONDARY.map((t) => [t, {}]));
for (let round = 0; round < ROUNDS; round++) {
  for (const target of SECONDARY) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const run = contestants[name][target];
      if (!run || (name === "pi-ai" && target === "cca")) continue;
      (deepRuns[target][name] ??= []).push(await timeFresh(() => JSON.parse(deepText), run));
    }
  }
}
const deep = SECONDARY.map((target) => ({
  target,
  ns: Object.fromEntries(Object.entries(deepRuns[target]).map(([name, runs]) => [name, median(runs)])),
}));
// pi-ai CCA at 40 levels, extrapolated from shallower nesting: the per-level
// growth factor is fitted on the largest depths that finish in a second.
const piCca = [];
for (const d of QUICK ? [6, 8] : [10, 12, 14, 16]) {
  const text = JSON.stringify(nestedObject(d));
  piCca.push([d, await timeFresh(() => JSON.parse(text), piAi.targets.cca, { min_cpu_time: QUICK ? 20e6 : 200e6, min_samples: 3 })]);
}
const [d0, t0] = piCca.at(-2);
const [d1, t1] = piCca.at(-1);
const perLevel = (t1 / t0) ** (1 / (d1 - d0));
const piCcaAt40 = t1 * perLevel ** (DEPTH - d1);
deep.find((r) => r.target === "cca").ns["pi-ai"] = piCcaAt40;
deep.find((r) => r.target === "cca").extrapolated = { perLevel, from: piCca };

console.log(`\n${DEPTH}-level nested object (${fmt.bytes(deepText.length)}), time per call (median)`);
printTable(
  ["dispatcher", "toolschema", "pi-ai", "openclaw", "copy", "pi-ai/ts", "ts/copy"],
  deep.map((r) => [
    r.target,
    fmt.time(r.ns.toolschema),
    r.extrapolated ? `≈${fmt.long(r.ns["pi-ai"])}` : fmt.time(r.ns["pi-ai"]),
    fmt.time(r.ns["@openclaw/ai"]),
    fmt.time(r.ns.copy),
    r.extrapolated ? "(extrapolated)" : fmt.ratio(r.ns["pi-ai"] / r.ns.toolschema),
    fmt.ratio(r.ns.toolschema / r.ns.copy),
  ]),
);
console.log(`pi-ai cca: ${piCca.map(([d, t]) => `${d} levels ${fmt.time(t)}`).join(", ")}: ×${perLevel.toFixed(2)} per level, extrapolated to ${DEPTH}`);

// Where toolschema's time goes, on the mcp set: the JS side (JSON.stringify of
// the input), the wasm call the schema functions make (copy in, parse,
// normalize, write the schema with what did not change named, copy out) and
// the result built from its answer (JSON.parse, then the named values copied
// from the input and frozen: js/share.mjs), timed in the same rounds as the
// whole call. Each is the fastest of its rounds, the estimate least disturbed
// by a shared machine: medians of separately timed parts could add up to more
// than the whole and leave a negative rest.
const glue = await import(new URL("../pkg/toolschema_glue.mjs", import.meta.url).href);
const { assemble } = await import(new URL("../pkg/share.mjs", import.meta.url).href);
const mcpSchemas = sets.mcp.map((e) => e.schema);
const mcpText = JSON.stringify(mcpSchemas);
const mcpTexts = mcpSchemas.map((s) => JSON.stringify(s));
const breakdown = [];
for (const target of SECONDARY.filter((t) => t !== "cca" || !QUICK)) {
  const answer = (t) => glue.normalizeSchemaJsonSharing(t, target, "");
  const outs = mcpTexts.map(answer);
  const build = (o, i) => {
    const envelope = JSON.parse(o);
    if (envelope.shared !== undefined) assemble(envelope.shared.schema, mcpSchemas[i]);
  };
  const run = contestants.toolschema[target];
  const parts = { total: [], stringify: [], wasm: [], parse: [] };
  for (let round = 0; round < ROUNDS; round++) {
    parts.total.push(await timeFresh(() => JSON.parse(mcpText), (list) => list.forEach(run)));
    parts.stringify.push(await time(() => mcpSchemas.forEach((s) => JSON.stringify(s))));
    parts.wasm.push(await time(() => mcpTexts.forEach(answer)));
    parts.parse.push(await time(() => outs.forEach(build)));
  }
  const m = Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, Math.min(...v)]));
  breakdown.push({ target, ...m, rest: m.total - m.stringify - m.wasm - m.parse, outBytes: outs.reduce((n, o) => n + o.length, 0) });
}
console.log("\nwhere toolschema's time goes (mcp set, per pass, fastest round of each): JS in = validation + JSON.stringify; out = JSON.parse of the answer and the unchanged values copied");
printTable(
  ["dispatcher", "total", "JSON.stringify", "wasm call", "result built", "rest (validate, freeze)", "wasm share", "answer"],
  breakdown.map((b) => [
    b.target,
    fmt.time(b.total),
    fmt.time(b.stringify),
    fmt.time(b.wasm),
    fmt.time(b.parse),
    fmt.time(b.rest),
    `${((100 * b.wasm) / b.total).toFixed(0)}%`,
    fmt.bytes(b.outBytes),
  ]),
);

writeResult("compare", {
  versions: { piAi: piAi.version, openclaw: openclaw.version, toolschema: ts.version() },
  rounds: ROUNDS,
  excluded,
  rows,
  deep: { depth: DEPTH, bytes: deepText.length, rows: deep },
  breakdown,
});
