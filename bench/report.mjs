// Turns the result files of the benchmark scripts (bench/.build/results/) and
// criterion's estimates (target/criterion/) into bench/RESULTS.md, and prints
// the goals with their measured ratios.
//
//   node bench/report.mjs [--quick]     (--quick: print only; RESULTS.md is for full runs)
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { BENCH, QUICK, ROOT, TARGETS, fmt } from "./lib.mjs";
import { chart } from "./svg.mjs";

const dir = `${BENCH}.build/results${QUICK ? "-quick" : ""}/`;
const read = (name) => (existsSync(`${dir}${name}.json`) ? JSON.parse(readFileSync(`${dir}${name}.json`, "utf8")) : null);
const compare = read("compare");
const cache = read("cache");
const text = read("text");
// bench-quick does not build the boundary experiments; a stale file is not its result.
const boundary = QUICK ? null : read("boundary");
const scaling = read("scaling");
const startup = read("startup");
const memory = read("memory");
const core = readCriterion();
const llmshim = readLlmshim();

const md = [];
const table = (header, rows) => {
  md.push(`| ${header.join(" | ")} |`, `|${header.map((_, i) => (i === 0 ? " --- " : " ---: ")).join("|")}|`);
  for (const r of rows) md.push(`| ${r.join(" | ")} |`);
  md.push("");
};
const ms = (ns) => fmt.time(ns);
const humanLong = fmt.long;
const ok = (met) => (met ? "met" : "**missed**");

// ---- goals ------------------------------------------------------------------------------
const goals = [];
if (compare) {
  for (const set of ["mcp", "corpus"]) {
    const rows = compare.rows.filter((r) => r.set === set);
    if (rows.length === 0) continue;
    // Per dispatcher: ≥2× pi-ai on google, cca and mcp, ≥1× on openai-strict
    // (2× the stretch), and openai-responses faster than a JSON copy (pi-ai's
    // Responses path returns its input nearly untouched, below a copy).
    const where = set === "mcp" ? "real MCP schemas" : "whole corpus";
    const of = (target) => rows.find((r) => r.target === target);
    const pi = (targets, floor) => {
      const found = targets.map(of).filter(Boolean);
      return [found.map((r) => `${r.target} ${fmt.ratio(r.piAiOverToolschema)}`).join(", "), found.length > 0 && found.every((r) => r.piAiOverToolschema >= floor)];
    };
    const [twice, twiceMet] = pi(["google", "cca", "mcp"], 2);
    goals.push([`≥2× pi-ai throughput on google, cca and mcp, fresh inputs (${where})`, twice, ok(twiceMet)]);
    const [strict, strictMet] = pi(["openai-strict"], 1);
    goals.push([`≥1× pi-ai throughput on openai-strict (stretch 2×), fresh inputs (${where})`, strict, ok(strictMet)]);
    const responses = of("openai-responses");
    if (responses) {
      goals.push([
        `openai-responses faster than a JSON copy of the schemas, fresh inputs (${where})`,
        `${fmt.ratio(responses.toolschemaOverCopy)} a copy's time (pi-ai ${fmt.ratio(responses.piAiOverCopy)})`,
        ok(responses.toolschemaOverCopy < 1),
      ]);
    }
  }
}
if (text) {
  for (const set of ["mcp", "corpus"]) {
    const rows = text.rows.filter((r) => r.set === set);
    if (rows.length === 0) continue;
    goals.push([
      `JSON text in and out (normalizeToolsJson on request bodies) ≥${text.goal}× pi-ai's parse + normalize + stringify (${set === "mcp" ? "real MCP schemas" : "whole corpus"})`,
      rows.map((r) => `${r.target} ${fmt.ratio(r.piAiOverToolschema)}`).join(", "),
      ok(rows.every((r) => r.piAiOverToolschema >= text.goal)),
    ]);
  }
}
if (cache) {
  const min = (k) => Math.min(...cache.rows.map((r) => r[k]));
  goals.push(["same objects again ≥50× faster than uncached", cache.rows.map((r) => `${r.target} ${fmt.ratio(r.identityOverUncached)}`).join(", "), ok(min("identityOverUncached") >= 50)]);
  goals.push(["equal content in new objects ≥3× faster", cache.rows.map((r) => `${r.target} ${fmt.ratio(r.contentOverUncached)}`).join(", "), ok(min("contentOverUncached") >= 3)]);
}
if (startup) {
  goals.push(["wasm ≤150 KB gzip", `${(startup.size.gzip / 1000).toFixed(1)} KB (${fmt.bytes(startup.size.gzip)}) gzip -9; ${fmt.bytes(startup.size.brotli)} brotli`, ok(startup.size.gzip <= 150_000)]);
  const net = startup.esm.load - (startup.empty?.load ?? 0);
  goals.push(["import + init ≤5 ms more than importing an empty module, in Node", `ESM ${startup.esm.load.toFixed(1)} ms (${net.toFixed(1)} ms more than an empty module), CommonJS ${startup.cjs.load.toFixed(1)} ms; median of ${startup.samples} processes`, ok(net <= 5)]);
}
// Text in, text out, natively, over the whole corpus (criterion's `json` group).
const coreJson = core.filter((c) => c.group === "json" && c.mbps !== undefined);
if (coreJson.length > 0) {
  const slowest = coreJson.reduce((a, b) => (a.mbps <= b.mbps ? a : b));
  goals.push([
    "the core natively, text in and out, ≥150 MB/s on every target (whole corpus)",
    `${slowest.mbps.toFixed(0)} MB/s slowest (${slowest.id}), ${Math.max(...coreJson.map((r) => r.mbps)).toFixed(0)} MB/s fastest, over ${coreJson.length} targets`,
    ok(coreJson.every((r) => r.mbps >= 150)),
  ]);
}
if (llmshim) {
  for (const set of ["mcp", "corpus"]) {
    const rows = llmshim.rows.filter((r) => r.set === set && r.ratio !== undefined);
    if (rows.length === 0) continue;
    goals.push([
      `the core natively, text in and out, ≥2× llmshim ${llmshim.version} (${set === "mcp" ? "real MCP schemas" : "whole corpus"})`,
      rows.map((r) => `${r.target} ${fmt.ratio(r.ratio)}`).join(", "),
      ok(rows.every((r) => r.ratio >= 2)),
    ]);
  }
}
if (memory) {
  const c = memory.calls;
  const large = memory.large.map((r) => `${r.target} ${r.error ? `error ${r.error}` : fmt.bytes(r.after)}`).join(", ");
  goals.push([
    `wasm memory reported; no growth across repeated calls`,
    `after one ${fmt.bytes(memory.large[0]?.bytes ?? 0)} schema (fresh instance): ${large}; after ${c.calls.toLocaleString("en")} calls on the corpus: ${fmt.bytes(c.final)}, ${c.grew === 0 ? "no growth" : `grew by ${fmt.bytes(c.grew)}`} after the warm-up pass`,
    ok(c.grew === 0 && c.sameInstance && memory.large.every((r) => !r.error)),
  ]);
}
if (scaling) {
  const worst = (o) => Math.max(...TARGETS.map((t) => o[t]));
  // Linear: a log-log slope within 0.15 of 1, or no steeper than copying the
  // same input (whose garbage makes large inputs superlinear in V8 too).
  const linear = (slope, copySlope) => slope <= Math.max(1.15, copySlope + 0.05);
  goals.push([
    "linear time and memory in size (log-log slope ≈ 1)",
    `time ${worst(scaling.size.slope).toFixed(2)} worst (copy floor ${scaling.size.slope.copy.toFixed(2)}); wasm memory ${TARGETS.some((t) => scaling.size.memorySlope[t] != null) ? Math.max(...TARGETS.map((t) => scaling.size.memorySlope[t] ?? 0)).toFixed(2) : "–"} worst`,
    ok(linear(worst(scaling.size.slope), scaling.size.slope.copy) && TARGETS.every((t) => (scaling.size.memorySlope[t] ?? 1) <= 1.15)),
  ]);
  goals.push([
    "linear time in depth",
    `slope ${worst(scaling.depth.slope).toFixed(2)} worst (copy floor ${scaling.depth.slope.copy.toFixed(2)}); 127 levels by default, ${maxRaised()} with maxDepth raised`,
    ok(linear(worst(scaling.depth.slope), scaling.depth.slope.copy)),
  ]);
  if (scaling.shapes?.length) {
    const rows = scaling.shapes.map((s) => ({ s, t: TARGETS.reduce((a, b) => (s.slope[a] >= s.slope[b] ? a : b)) }));
    goals.push([
      "linear time in other shapes (nested allOf, nullable unions, $refs, a union and an allOf of many objects)",
      rows.map(({ s, t }) => `${s.name}: ${s.slope[t].toFixed(2)} worst (${t}; copy ${s.slope.copy.toFixed(2)})`).join("; "),
      ok(rows.every(({ s, t }) => linear(s.slope[t], s.slope.copy))),
    ]);
  }
}

const m = (compare ?? cache ?? startup ?? scaling)?.machine;
md.push("# Benchmark results", "");
md.push(
  `Written by \`make bench\` (bench/report.mjs) from one run${m ? ` on ${m.date}: Node ${m.node}, ${m.cores} × ${m.cpu}, load average ${m.load} at the start of the last script` : ""}.`,
  "Every ratio compares numbers from the same process and run; timings are medians over rounds in which the contestants alternate.",
  `Times are ${m?.clock === "wall" ? "wall-clock" : "process CPU time, all threads (BENCH_CLOCK=wall for wall-clock); start-up is wall-clock"}. The machine is shared, so absolute times are noisy; the ratios are what to read.`,
  "",
);
md.push("## Goals", "");
table(["goal", "measured", ""], goals);

// ---- peers ------------------------------------------------------------------------------
if (text) {
  md.push("## JSON text in, JSON text out", "");
  md.push(
    "What an edge proxy holds: OpenAI Chat request bodies of 20 tools each (the set's schemas in order) with a short conversation, as strings. toolschema's `normalizeToolsJson(text, {target})` against pi-ai's `JSON.parse`, its normalizer on every tool's parameters, and `JSON.stringify`; `copy` is `JSON.stringify(JSON.parse(text))`. Ratios above 1 favour toolschema.",
    "",
  );
  for (const set of ["mcp", "corpus"]) {
    const rows = text.rows.filter((r) => r.set === set);
    if (rows.length === 0) continue;
    md.push(`**${set === "mcp" ? "Real MCP tool schemas" : "Whole corpus"}** (${rows[0].bodies} bodies, ${fmt.bytes(rows[0].bytes)} per pass)`, "");
    table(["dispatcher", "toolschema", "pi-ai", "copy", "pi-ai/ts", "ts/copy"], rows.map((r) => [r.target, ms(r.ns.toolschema), ms(r.ns["pi-ai"]), ms(r.ns.copy), fmt.ratio(r.piAiOverToolschema), fmt.ratio(r.toolschemaOverCopy)]));
  }
}
if (compare) {
  md.push("## Throughput against the peers", "");
  md.push(
    `toolschema ${compare.versions.toolschema} (built package, cache off), the pi-ai normalizer ${compare.versions.piAi} (@oh-my-pi/pi-ai, TypeScript under tsx), @openclaw/ai ${compare.versions.openclaw}, and the floor \`JSON.parse(JSON.stringify(schema))\`.`,
    "Time per pass over the set, every contestant getting new objects on every iteration (made outside the timed region). Ratios above 1 favour toolschema.",
    "",
  );
  for (const set of ["mcp", "corpus"]) {
    const rows = compare.rows.filter((r) => r.set === set);
    if (rows.length === 0) continue;
    md.push(`**${set === "mcp" ? "Real MCP tool schemas" : "Whole corpus"}** (${rows[0].schemas} schemas, ${fmt.bytes(rows[0].bytes)} of JSON per pass)`, "");
    table(
      ["dispatcher", "toolschema", "pi-ai", "@openclaw/ai", "copy floor", "pi-ai ÷ toolschema", "openclaw ÷ toolschema", "toolschema ÷ copy", "pi-ai ÷ copy"],
      rows.map((r) => [r.target, ms(r.ns.toolschema), ms(r.ns["pi-ai"]), ms(r.ns["@openclaw/ai"]), ms(r.ns.copy), fmt.ratio(r.piAiOverToolschema), fmt.ratio(r.openclawOverToolschema), fmt.ratio(r.toolschemaOverCopy), fmt.ratio(r.piAiOverCopy)]),
    );
  }
  for (const e of compare.excluded) md.push(`- Left out of ${e.set}/${e.target} for every contestant: \`${e.schema}\` (${e.why}).`);
  md.push("");
  const d = compare.deep;
  md.push(`**${d.depth}-level nested object** (${fmt.bytes(d.bytes)}), time per call`, "");
  table(
    ["dispatcher", "toolschema", "pi-ai", "@openclaw/ai", "copy floor", "pi-ai ÷ toolschema", "toolschema ÷ copy"],
    d.rows.map((r) => [
      r.target,
      ms(r.ns.toolschema),
      r.extrapolated ? `≈ ${humanLong(r.ns["pi-ai"])} (extrapolated)` : ms(r.ns["pi-ai"]),
      ms(r.ns["@openclaw/ai"]),
      ms(r.ns.copy),
      r.extrapolated ? "—" : fmt.ratio(r.ns["pi-ai"] / r.ns.toolschema),
      fmt.ratio(r.ns.toolschema / r.ns.copy),
    ]),
  );
  const x = d.rows.find((r) => r.extrapolated)?.extrapolated;
  if (x) md.push(`pi-ai's CCA path grows ×${x.perLevel.toFixed(2)} per level (${x.from.map(([lv, ns]) => `${lv} levels ${ms(ns)}`).join(", ")}); 40 levels is extrapolated, not run.`, "");

  md.push("### Where toolschema's time goes", "");
  md.push("Real MCP schemas, per pass, the fastest of the rounds for each column (the rest is the total less the three parts). The wasm call is the one the schema functions make: the core plus its JSON text crossing (copy in, parse, normalize, write the schema with what equals the input named instead of written, copy out); the result is built from that answer (JSON.parse, then the named values copied from the input and frozen: js/share.mjs); a schema that goes out strict is answered whole. The native numbers below show the core alone.", "");
  table(
    ["dispatcher", "total", "JSON.stringify in", "wasm call", "result built", "rest (validation, freezing)", "wasm share"],
    compare.breakdown.map((b) => [b.target, ms(b.total), ms(b.stringify), ms(b.wasm), ms(b.parse), ms(b.rest), `${Math.round((100 * b.wasm) / b.total)}%`]),
  );
}

// ---- native core ------------------------------------------------------------------------
if (core.length > 0) {
  md.push("## The core natively (criterion, `cargo bench --bench core`)", "");
  md.push("Median per pass over the whole corpus; MB/s of input JSON. `corpus` starts from parsed values; `json` is the JSON text in and out that the wasm export runs.", "");
  const ids = [...new Set(core.filter((c) => c.group !== "boundary").map((c) => c.id))];
  const get = (group, id) => core.find((c) => c.group === group && c.id === id);
  table(
    ["target", "corpus: normalize", "MB/s", "json: parse + normalize + serialize", "MB/s", "nested-40"],
    ids.map((id) => {
      const a = get("corpus", id);
      const b = get("json", id);
      const c = get("nested-40", id);
      return [id, a ? ms(a.ns) : "–", a?.mbps?.toFixed(1) ?? "–", b ? ms(b.ns) : "–", b?.mbps?.toFixed(1) ?? "–", c ? ms(c.ns) : "–"];
    }),
  );
  const parse = get("boundary", "parse");
  const serialize = get("boundary", "serialize");
  if (parse && serialize) {
    md.push(`The Rust half of the JSON text crossing, natively: parse (with the depth pre-scan) ${ms(parse.ns)} (${parse.mbps.toFixed(0)} MB/s), serialize ${ms(serialize.ns)} (${serialize.mbps.toFixed(0)} MB/s) for the whole corpus.`, "");
  }
}

if (llmshim) {
  md.push(`## The core against llmshim (criterion, \`bench/llmshim\`)`, "");
  md.push(
    `Text in, text out, natively, in one criterion run: toolschema's \`api::normalize_schema_json\` against llmshim ${llmshim.version}'s \`serde_json::from_str\` + \`schema::normalize_for\` + \`serde_json::to_string\` (its memo off), over the same schema texts, per pair of targets. Median per pass; MB/s of input JSON. Ratios above 1 favour toolschema.`,
    "A fallback is llmshim's answer for a schema it cannot normalize (the empty object schema); an error is toolschema's.",
    "",
  );
  for (const set of ["mcp", "corpus"]) {
    const rows = llmshim.rows.filter((r) => r.set === set);
    if (rows.length === 0) continue;
    md.push(`**${set === "mcp" ? "Real MCP tool schemas" : "Whole corpus"}**${rows[0].schemas ? ` (${rows[0].schemas} schemas, ${fmt.bytes(rows[0].bytes)} per pass)` : ""}`, "");
    table(
      ["target (toolschema ↔ llmshim)", "toolschema", "MB/s", "llmshim", "MB/s", "llmshim ÷ toolschema", "llmshim fallbacks", "toolschema errors"],
      rows.map((r) => [`${r.target} ↔ ${r.llmshimTarget ?? "?"}`, r.toolschema ? ms(r.toolschema.ns) : "–", r.toolschema?.mbps?.toFixed(1) ?? "–", r.llmshim ? ms(r.llmshim.ns) : "–", r.llmshim?.mbps?.toFixed(1) ?? "–", fmt.ratio(r.ratio), r.llmshimFallbacks ?? "–", r.toolschemaErrors ?? "–"]),
    );
  }
}

// ---- memory -----------------------------------------------------------------------------
if (memory) {
  const c = memory.calls;
  md.push("## Wasm memory", "");
  md.push(
    "The package's own instance (`pkg/node.mjs`, cache off), its linear memory read from the glue's `memory` export. Linear memory never shrinks: its size is the high-water mark of what the core held at once (`bench/memory.mjs`).",
    "",
  );
  table(
    ["one schema, fresh process", "JSON size", "at import", "after the call", "grown by"],
    memory.large.map((r) => [r.target, fmt.bytes(r.bytes), fmt.bytes(r.before), r.error ? `error ${r.error}` : fmt.bytes(r.after), fmt.bytes(r.after - r.before)]),
  );
  md.push(`${c.calls.toLocaleString("en")} calls round robin over the corpus (${c.schemas} schemas) × ${c.targets.join(", ")}, after a warm-up pass of ${c.warmUpCalls.toLocaleString("en")} calls; ${c.errors} of them answered with the package's error. ${c.sameInstance ? "One instance throughout (no trap)." : "**The instance was replaced by a trap.**"}`, "");
  table(
    ["calls after warm-up", "wasm memory"],
    [["at import", fmt.bytes(c.atImport)], ["0 (after the warm-up pass)", fmt.bytes(c.afterWarmUp)], ...c.checkpoints.map((p) => [p.calls.toLocaleString("en"), fmt.bytes(p.bytes)])],
  );
  md.push(c.grew === 0 ? "No growth across the repeated calls: the memory after them equals the memory before." : `**Grew by ${fmt.bytes(c.grew)} across the repeated calls.**`, "");
}

// ---- cache ------------------------------------------------------------------------------
if (cache) {
  md.push("## The agent-loop cache", "");
  md.push(
    `The same tool list (${cache.schemas} real MCP schemas, ${fmt.bytes(cache.bytes)}) normalized on every turn. Uncached: cache off, new objects every pass.`,
    "Same objects: identity hits, each verified against a private copy of the input's JSON (a schema mutated in place misses). Equal content: new objects with identical JSON (content hits). Deep-frozen: identity hits on objects that cannot change, which need no check.",
    "",
  );
  table(
    ["dispatcher", "uncached", "same objects", "speed-up", "equal content, new objects", "speed-up", "same JSON text", "speed-up", "same objects, deep-frozen", "speed-up"],
    cache.rows.map((r) => [
      r.target,
      ms(r.ns.uncached),
      ms(r.ns.identity),
      fmt.ratio(r.identityOverUncached),
      ms(r.ns.content),
      fmt.ratio(r.contentOverUncached),
      ms(r.ns.text),
      fmt.ratio(r.textOverUncached),
      r.ns.frozen === undefined ? "–" : ms(r.ns.frozen),
      r.frozenOverUncached === undefined ? "–" : fmt.ratio(r.frozenOverUncached),
    ]),
  );
  md.push("Choices, by measurement: what a same-objects pass would cost with the alternatives.", "");
  table(
    ["dispatcher", "verified by walk, frozen result (taken)", "speed-up", "verified by JSON.stringify instead", "speed-up", "copies handed out (JSON.parse) instead of frozen", "speed-up"],
    cache.rows.map((r) => [
      r.target,
      ms(r.ns.identity),
      fmt.ratio(r.identityOverUncached),
      ms(r.alternatives.stringify + r.ns.text),
      fmt.ratio(r.identityByTextOverUncached),
      `+${ms(r.alternatives.cloneByParse)}`,
      fmt.ratio(r.identityWithCloneOverUncached),
    ]),
  );
}

// ---- boundary ---------------------------------------------------------------------------
if (boundary) {
  md.push("## The boundary", "");
  md.push(
    "One pass over the set crossing each way, the core not run: JSON text (shipped; `in` includes JSON.stringify, `out` includes JSON.parse), serde-wasm-bindgen `json_compatible` objects, and Rust walking the JS objects through js_sys.",
    "Measured on experiment builds with the shipped release profile (bench/build-boundary.sh).",
    "",
  );
  table(
    ["set", "in: JSON text", "in: serde-wasm-bindgen", "in: js_sys walk", "out: JSON text", "out: serde-wasm-bindgen", "out: js_sys walk", "JSON.stringify alone", "JSON.parse alone"],
    boundary.crossings.map((r) => [`${r.set} (${fmt.bytes(r.bytes)})`, ...["in.json", "in.swb", "in.walk", "out.json", "out.swb", "out.walk", "js.stringify", "js.parse"].map((k) => ms(r.ns[k]))]),
  );
  const small = boundary.endToEnd.some((e) => e.ns.jsonSizeBuild !== undefined);
  table(
    ["set", "dispatcher", "end to end: JSON text (shipped)", "JSON text without the report", "serde-wasm-bindgen both ways", "swb ÷ JSON", ...(small ? ["JSON text, size-first build", "size-first ÷ shipped"] : [])],
    boundary.endToEnd.map((e) => [
      e.set,
      e.target,
      ms(e.ns.json),
      ms(e.ns.jsonSchemaOnly),
      ms(e.ns.swb),
      fmt.ratio(e.ns.swb / e.ns.json),
      ...(small ? [ms(e.ns.jsonSizeBuild), fmt.ratio(e.ns.jsonSizeBuild / e.ns.json)] : []),
    ]),
  );
  // The verdict, from these numbers. The cache keys results by the input's
  // JSON text, so on a miss that text exists already: JSON text in then costs
  // only its wasm side (in.json - js.stringify).
  const mcp = boundary.crossings.find((r) => r.set === "mcp") ?? boundary.crossings[0];
  const n = mcp.ns;
  const wasmSideIn = n["in.json"] - n["js.stringify"];
  const bestIn = Math.min(n["in.swb"], n["in.walk"]);
  const outWins = n["out.json"] < Math.min(n["out.swb"], n["out.walk"]);
  md.push(
    `On the real MCP schemas, out: JSON text ${ms(n["out.json"])} against serde-wasm-bindgen ${ms(n["out.swb"])} (${fmt.ratio(n["out.swb"] / n["out.json"])}) and the js_sys walk ${ms(n["out.walk"])} (${fmt.ratio(n["out.walk"] / n["out.json"])}).`,
    `In: JSON text ${ms(n["in.json"])}, of which JSON.stringify ${ms(n["js.stringify"])}, which the cache computes anyway as its content key, leaving ${ms(wasmSideIn)}; serde-wasm-bindgen ${ms(n["in.swb"])}, the js_sys walk ${ms(n["in.walk"])}.`,
    outWins && wasmSideIn <= bestIn
      ? "So JSON text stays, both ways: it is the fastest crossing out, and in once the cache's key is counted, and it keeps a `__proto__` key an ordinary own property (building objects key by key from Rust would set the prototype instead)."
      : "These numbers do not favour JSON text on both sides; see the table before choosing.",
    "",
  );
  if (boundary.endToEnd.every((e) => e.ns.modelRoundTrip !== undefined)) {
    md.push(
      "What every call pays before its target's rules: the document model's round trip (depth scan, parse into `Value`, write; `benchRoundTrip`) against `normalizeSchemaJson` on the same texts in the same rounds, both text in and out of wasm in the call arena, no JSON.parse.",
      "",
    );
    table(
      ["set", "dispatcher", "model round trip", "normalizeSchemaJson", "share"],
      boundary.endToEnd.map((e) => [e.set, e.target, ms(e.ns.modelRoundTrip), ms(e.ns.wasmSchemaOnly), `${((100 * e.ns.modelRoundTrip) / e.ns.wasmSchemaOnly).toFixed(0)}%`]),
    );
  }
  if (boundary.sizes?.small) {
    md.push(`Experiment build sizes (bench exports included): shipped (opt-level 2) ${fmt.bytes(boundary.sizes.shipped.gzip)} gzip, size-first (opt-level "s") ${fmt.bytes(boundary.sizes.small.gzip)} gzip.`, "");
  }
}

// ---- scaling ----------------------------------------------------------------------------
if (scaling) {
  md.push("## Linear time and memory", "");
  md.push("![time and memory against size and nesting](scaling.svg)", "");
  md.push("Synthetic schemas (groups of eight realistic properties) through the public `normalize`, cache off. Slope of log(time) over log(size) from 10 KiB up; 1 is linear.", "");
  table(
    ["JSON size", ...TARGETS, "copy floor"],
    scaling.size.points.map((p) => [fmt.bytes(p.bytes), ...TARGETS.map((t) => ms(p.ns[t])), ms(p.ns.copy)]),
  );
  md.push(`Slopes: ${[...TARGETS, "copy"].map((t) => `${t} ${scaling.size.slope[t].toFixed(2)}`).join(", ")}.`, "");
  md.push("Wasm linear memory grown by one call in a fresh instance (its high-water mark):", "");
  table(
    ["JSON size", ...TARGETS],
    scaling.size.points.map((p) => [fmt.bytes(p.bytes), ...TARGETS.map((t) => (p.memory[t] === null ? "failed" : fmt.bytes(p.memory[t])))]),
  );
  md.push(`Memory slopes from 100 KiB: ${TARGETS.map((t) => `${t} ${scaling.size.memorySlope[t]?.toFixed(2) ?? "–"}`).join(", ")}.`, "");
  const failOpen = scaling.size.points.filter((p) => p.strict === false);
  if (failOpen.length > 0) {
    md.push(
      `openai-strict is strict up to ${fmt.bytes(Math.max(0, ...scaling.size.points.filter((p) => p.strict === true).map((p) => p.bytes)))}; from ${fmt.bytes(failOpen[0].bytes)} the schemas exceed OpenAI's limits (5,000 properties, 120,000 characters of names and values), so the call fails open and the pipeline runs again for the relaxed target: a step in its time and memory, which its slopes include.`,
      "",
    );
  }
  const all = [...scaling.depth.points, ...scaling.depth.raised];
  md.push(
    `Nesting: objects nested N schema levels (two JSON levels each). The default \`maxDepth\` (256 JSON levels) accepts 127 levels; 128 is \`${scaling.depth.defaultLimit.error}\` by design. Rows marked "raised" pass \`maxDepth: 1e6\`.`,
    "",
  );
  table(
    ["levels", "JSON size", ...TARGETS, "copy floor"],
    all.map((p) => [`${p.levels}${p.errors ? " (raised)" : ""}`, p.bytes === null ? "–" : fmt.bytes(p.bytes), ...TARGETS.map((t) => (p.ns[t] === null ? "error" : ms(p.ns[t]))), ms(p.ns.copy)]),
  );
  md.push(`Slopes over levels: ${[...TARGETS, "copy"].map((t) => `${t} ${scaling.depth.slope[t].toFixed(2)}`).join(", ")}.`, "");
  const errors = scaling.depth.raised.flatMap((p) => Object.entries(p.errors).map(([t, e]) => `${p.levels}: ${t} ${e}`));
  if (errors.length > 0) md.push("Errors with `maxDepth` raised:", "", ...errors.map((e) => `- ${e}`), "");
  if (scaling.shapes?.length) {
    md.push("Other shapes, each doubling in size, with `maxDepth` raised: the time of the largest, and the slope over all of them.", "");
    table(
      ["shape", "sizes", "JSON size (largest)", ...TARGETS, "copy floor"],
      scaling.shapes.map((s) => {
        const last = s.points.at(-1);
        return [s.name, s.points.map((p) => p.n).join(", "), fmt.bytes(last.bytes), ...[...TARGETS, "copy"].map((t) => `${ms(last.ns[t])} (${s.slope[t].toFixed(2)})`)];
      }),
    );
  }
}

if (scaling) {
  const svg = chart({
  title: "toolschema: time and memory against input size and nesting (public normalize, cache off)",
  panels: [
    {
      title: "time per call vs JSON size",
      x: "JSON bytes",
      y: "time",
      log: true,
      series: [...TARGETS, "copy"].map((t) => ({
        name: `${t} (slope ${scaling.size.slope[t].toFixed(2)})`,
        dashed: t === "copy",
        points: scaling.size.points.map((p) => [p.bytes, p.ns[t] / 1e9]),
      })),
      yFormat: "seconds",
    },
    {
      title: "wasm memory growth vs JSON size",
      x: "JSON bytes",
      y: "bytes",
      log: true,
      series: TARGETS.map((t) => ({
        name: `${t} (slope ${scaling.size.memorySlope[t]?.toFixed(2) ?? "–"})`,
        points: scaling.size.points.filter((p) => p.memory[t] > 0).map((p) => [p.bytes, p.memory[t]]),
      })),
      yFormat: "bytes",
    },
    {
      title: "time per call vs nesting (schema levels)",
      x: "levels",
      y: "time",
      log: true,
      series: [...TARGETS, "copy"].map((t) => ({
        name: `${t} (slope ${scaling.depth.slope[t].toFixed(2)})`,
        dashed: t === "copy",
        points: [...scaling.depth.points, ...scaling.depth.raised].filter((p) => p.ns[t] > 0).map((p) => [p.levels, p.ns[t] / 1e9]),
      })),
      yFormat: "seconds",
      marks: [{ x: 127, label: "default maxDepth" }],
    },
  ],
});
  if (!QUICK) writeFileSync(`${BENCH}scaling.svg`, svg);
}

// ---- startup ----------------------------------------------------------------------------
if (startup) {
  md.push("## Size and start-up", "");
  md.push(`\`toolschema_bg.wasm\`: ${fmt.bytes(startup.size.raw)} raw, ${fmt.bytes(startup.size.gzip)} gzip -9, ${fmt.bytes(startup.size.brotli)} brotli.`, "");
  table(
    ["fresh Node process", "import + init (median)", "fastest", "first call after"],
    [
      ["ESM `import` of pkg/node.mjs", `${startup.esm.load.toFixed(2)} ms`, `${startup.esm.min.toFixed(2)} ms`, `${startup.esm.first.toFixed(2)} ms`],
      ...(startup.empty ? [["ESM `import` of an empty module (the loader's own start)", `${startup.empty.load.toFixed(2)} ms`, `${startup.empty.min.toFixed(2)} ms`, ""]] : []),
      ["CommonJS `require` of pkg/index.cjs", `${startup.cjs.load.toFixed(2)} ms`, `${startup.cjs.min.toFixed(2)} ms`, `${startup.cjs.first.toFixed(2)} ms`],
      ["of which `new WebAssembly.Module`", `${startup.compile.load.toFixed(2)} ms`, `${startup.compile.min.toFixed(2)} ms`, ""],
    ],
  );
}

md.push("Reproduce: `make bench` (minutes; `make bench-quick` runs a seconds-long version with no thresholds, as `make test` does).", "");

console.log("\ngoals (ratios from the runs above):");
for (const [goal, measured, verdict] of goals) console.log(`  ${verdict.replace(/\*/g, "").padEnd(6)}  ${goal}: ${measured}`);
if (!QUICK) {
  writeFileSync(`${BENCH}RESULTS.md`, md.join("\n"));
  console.log("wrote bench/RESULTS.md");
}

/** The deepest nesting every target normalized with maxDepth raised, and what failed past it. */
function maxRaised() {
  const ok = scaling.depth.raised.filter((p) => TARGETS.every((t) => p.ns[t] !== null));
  const bad = scaling.depth.raised.find((p) => TARGETS.some((t) => p.ns[t] === null));
  const best = ok.length > 0 ? ok.at(-1).levels : 127;
  return bad ? `${best} (${bad.levels}: ${Object.values(bad.errors)[0]})` : `${best}+`;
}

/**
 * Criterion's medians for bench/llmshim (its own target dir, target/bench-llmshim, as the
 * Makefile builds it), with the outcome counts the bench writes before timing; null when it
 * has not run.
 */
function readLlmshim() {
  const base = `${ROOT}target/bench-llmshim/criterion/`;
  const outcomes = existsSync(`${BENCH}.build/results/llmshim.json`) ? JSON.parse(readFileSync(`${BENCH}.build/results/llmshim.json`, "utf8")) : null;
  const estimate = (set, who, target) => {
    const dir = `${base}llmshim-${set}/${who}/${target}/new/`;
    if (!existsSync(`${dir}estimates.json`)) return undefined;
    const ns = JSON.parse(readFileSync(`${dir}estimates.json`, "utf8")).median.point_estimate;
    const bytes = existsSync(`${dir}benchmark.json`) ? JSON.parse(readFileSync(`${dir}benchmark.json`, "utf8")).throughput?.Bytes : undefined;
    return { ns, mbps: bytes ? bytes / 1e6 / (ns / 1e9) : undefined };
  };
  const rows = [];
  for (const set of ["mcp", "corpus"]) {
    const targets = existsSync(`${base}llmshim-${set}/toolschema`) ? readdirSync(`${base}llmshim-${set}/toolschema`) : [];
    const order = (outcomes?.rows ?? []).filter((r) => r.set === set).map((r) => r.target);
    targets.sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
    for (const target of targets) {
      const toolschema = estimate(set, "toolschema", target);
      const peer = estimate(set, "llmshim", target);
      const counts = outcomes?.rows.find((r) => r.set === set && r.target === target) ?? {};
      rows.push({ ...counts, set, target, toolschema, llmshim: peer, ratio: toolschema && peer ? peer.ns / toolschema.ns : undefined });
    }
  }
  return rows.length > 0 ? { version: outcomes?.llmshim ?? "0.30.1", rows } : null;
}

/** Criterion's median estimates for bench/core.rs, when it has run. */
function readCriterion() {
  const base = `${process.env.CARGO_TARGET_DIR ?? `${ROOT}target`}/criterion/`;
  const out = [];
  for (const group of ["corpus", "json", "nested-40", "boundary"]) {
    if (!existsSync(`${base}${group}`)) continue;
    for (const id of readdirSync(`${base}${group}`)) {
      const file = `${base}${group}/${id}/new/estimates.json`;
      if (!existsSync(file)) continue;
      const ns = JSON.parse(readFileSync(file, "utf8")).median.point_estimate;
      const meta = `${base}${group}/${id}/new/benchmark.json`;
      const bytes = existsSync(meta) ? JSON.parse(readFileSync(meta, "utf8")).throughput?.Bytes : undefined;
      out.push({ group, id, ns, mbps: bytes ? bytes / 1e6 / (ns / 1e9) : undefined });
    }
  }
  return out;
}
