// What every real schema of ../shared/corpus costs as one MCP tool list, as
// given and per target, and per target with the `compact` option: the
// "Token cost" lines of pkg-template/README.md.
//
//   node scripts/cost-corpus.mjs        (after make pkg; needs gpt-tokenizer, a dev dependency)
//
// Each corpus entry becomes {name, inputSchema}; no descriptions, so the
// numbers are the schemas' own cost.
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const { cost } = await import(`${root}pkg/cost.mjs`);
const dir = `${root}../shared/corpus/`;
const tools = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .flatMap((f) => JSON.parse(readFileSync(dir + f, "utf8")).map((e) => ({ name: e.name, inputSchema: e.schema })));
const result = cost(tools);
const n = (v) => v.toLocaleString("en-US");
const pct = (t) => `${t.tokens >= result.input.tokens ? "+" : "−"}${Math.abs(((t.tokens - result.input.tokens) / result.input.tokens) * 100).toFixed(0)}%`;
const failed = result.targets.flatMap((t) => t.tools.filter((x) => x.error).map((x) => `${t.target}/${x.name}`));
console.log(`${tools.length} schemas, ${n(result.input.tokens)} o200k tokens (${n(result.input.bytes)} bytes) as given; per target: ` +
  result.targets.map((t) => `\`${t.target}\` ${n(t.tokens)} (${pct(t)})`).join(", ") + ".");
if (failed.length > 0) console.log(`sent as the empty schema: ${failed.join(", ")}`);

// The same list with `compact`: what it saves against each target's plain output.
const compact = cost(tools, { compact: true });
const saved = (plain, small) => `${n(plain.tokens - small.tokens)} (−${(((plain.tokens - small.tokens) / plain.tokens) * 100).toFixed(1)}%)`;
const pairs = result.targets.map((t, i) => [t, compact.targets[i]]);
const plainTotal = pairs.reduce((a, [t]) => a + t.tokens, 0);
const compactTotal = pairs.reduce((a, [, c]) => a + c.tokens, 0);
console.log(`With \`compact\`, o200k tokens saved per target: ` +
  pairs.filter(([t, c]) => c.tokens !== t.tokens).map(([t, c]) => `\`${t.target}\` ${saved(t, c)}`).join(", ") +
  `; unchanged: ${pairs.filter(([t, c]) => c.tokens === t.tokens).map(([t]) => `\`${t.target}\``).join(", ")}. ` +
  `Over all ${pairs.length} targets: ${n(plainTotal)} → ${n(compactTotal)} tokens (−${(((plainTotal - compactTotal) / plainTotal) * 100).toFixed(1)}%).`);
const worse = pairs.filter(([t, c]) => c.tokens > t.tokens).map(([t]) => t.target);
if (worse.length > 0) console.log(`compact cost more on: ${worse.join(", ")}`);
