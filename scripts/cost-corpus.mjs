// What every real schema of ../shared/corpus costs as one MCP tool list, as
// given and per target: the "Token cost" line of pkg-template/README.md.
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
