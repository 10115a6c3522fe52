// The agent-loop case: the same tool list normalized on every turn.
//
//   node --expose-gc bench/cache.mjs [--quick]
//
// One pass = every schema of the mcp set (261 real MCP tool schemas) through
// one dispatcher. Per dispatcher:
//   uncached   cache off, a fresh copy of the list every pass
//   identity   cache on and warm, the same objects every pass (verified unchanged on each hit)
//   content    cache on and warm, a fresh copy every pass: equal content in new objects
//   text       cache on and warm, the same list as JSON strings
//   frozen     cache on and warm, the same objects deep-frozen (hits need no check)
// and, for the choices js/cache.mjs makes, what the alternatives would add per pass:
//   verifying identity hits by text instead of by walk: JSON.stringify of the
//     list plus a hit on that text
//   handing out copies instead of frozen results: JSON.parse of the stored payloads
//     on top of every hit
import { QUICK, TARGETS, corpusSets, fmt, loadCorpus, loadToolschema, median, printTable, time, timeFresh, toolschemaTargets, writeResult } from "./lib.mjs";

const ROUNDS = QUICK ? 1 : 3;
const ts = await loadToolschema();
const glue = await import(new URL("../pkg/toolschema_glue.mjs", import.meta.url).href);
const dispatch = toolschemaTargets(ts);
const list = corpusSets(loadCorpus()).mcp.map((e) => e.schema);
const listText = JSON.stringify(list);
const texts = list.map((s) => JSON.stringify(s));
const targets = QUICK ? ["google", "openai-strict"] : TARGETS;

function deepFreeze(value) {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
const frozenList = deepFreeze(JSON.parse(listText));

const pass = (run) => (schemas) => {
  for (let i = 0; i < schemas.length; i++) run(schemas[i]);
};
const fresh = () => JSON.parse(listText);

const rows = [];
for (const target of targets) {
  const run = dispatch[target];
  const samples = { uncached: [], identity: [], content: [], text: [], frozen: [] };
  for (let round = 0; round < ROUNDS; round++) {
    ts.configureCache({ maxEntries: 0 });
    samples.uncached.push(await timeFresh(fresh, pass(run)));
    ts.configureCache({ maxEntries: 4096 });
    ts.clearCache();
    pass(run)(list); // warm: one miss per schema
    samples.identity.push(await time(() => pass(run)(list)));
    samples.content.push(await timeFresh(fresh, pass(run)));
    samples.text.push(await time(() => pass(run)(texts)));
    pass(run)(frozenList);
    samples.frozen.push(await time(() => pass(run)(frozenList)));
  }
  const stats = ts.cacheStats();
  const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
  const payloads = texts.map((t) => JSON.stringify(JSON.parse(glue.normalizeJson(t, target, "{}")).ok));
  const alt = {
    stringify: await time(() => {
      for (const s of list) JSON.stringify(s);
    }),
    cloneByParse: await time(() => {
      for (const p of payloads) JSON.parse(p);
    }),
  };
  rows.push({
    target,
    ns: m,
    alternatives: alt,
    misses: stats.misses,
    identityOverUncached: m.uncached / m.identity,
    contentOverUncached: m.uncached / m.content,
    textOverUncached: m.uncached / m.text,
    frozenOverUncached: m.uncached / m.frozen,
    identityWithCloneOverUncached: m.uncached / (m.identity + alt.cloneByParse),
    // A hit verified by text instead: stringify the input, then what a hit on
    // that text costs (the "JSON text" column).
    identityByTextOverUncached: m.uncached / (alt.stringify + m.text),
  });
  process.stdout.write(".");
}
process.stdout.write("\n");
ts.configureCache({ maxEntries: 512 });
ts.clearCache();

console.log(`cache: ${QUICK ? "quick, " : ""}${list.length} real MCP tool schemas (${fmt.bytes(listText.length)}) per pass, median of ${ROUNDS} round(s); ratios = uncached / cached`);
printTable(
  ["dispatcher", "uncached", "same objects", "ratio (goal ≥50)", "equal content, new objects", "ratio (goal ≥3)", "JSON text", "ratio", "same objects, deep-frozen", "ratio"],
  rows.map((r) => [
    r.target,
    fmt.time(r.ns.uncached),
    fmt.time(r.ns.identity),
    fmt.ratio(r.identityOverUncached),
    fmt.time(r.ns.content),
    fmt.ratio(r.contentOverUncached),
    fmt.time(r.ns.text),
    fmt.ratio(r.textOverUncached),
    fmt.time(r.ns.frozen),
    fmt.ratio(r.frozenOverUncached),
  ]),
);
console.log("\nthe alternatives js/cache.mjs did not take, as the same-objects ratio they would give:");
printTable(
  ["dispatcher", "verified by walk, frozen (taken)", "ratio", "verified by JSON.stringify", "ratio", "+ JSON.parse to copy results", "ratio"],
  rows.map((r) => [
    r.target,
    fmt.time(r.ns.identity),
    fmt.ratio(r.identityOverUncached),
    fmt.time(r.alternatives.stringify + r.ns.text),
    fmt.ratio(r.identityByTextOverUncached),
    `+${fmt.time(r.alternatives.cloneByParse)}`,
    fmt.ratio(r.identityWithCloneOverUncached),
  ]),
);

writeResult("cache", { schemas: list.length, bytes: listText.length, rounds: ROUNDS, rows });
