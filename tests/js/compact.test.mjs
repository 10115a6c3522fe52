// The `compact` option through the package: outputs with hoisted `$defs` that
// the target's checker takes and that normalize to themselves, notes in the
// report, the same round trip (`prepareToolCall`, `restoreArguments` with
// `{normalize: {compact: true}}`), and what `toolschema/cost` and
// `toolschema cost --compact` measure, on real corpus schemas.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { pkgDir, root, ts } from "./helpers.mjs";

const { cost } = await import(`${pkgDir}cost.mjs`);
const corpusFile = (name) => JSON.parse(readFileSync(`${root}../shared/corpus/${name}.json`, "utf8"));
// zod-to-json-schema with `$refStrategy: "none"`: one subschema written out in full twice.
const reused = corpusFile("gen-zod3").find((e) => e.name === "reused_subschema_none").schema;
const REF_TARGETS = ["openai", "openai-strict", "mcp", "anthropic", "moonshot", "deepseek-strict"];
const COMPACT = { compact: true };

const refsIn = (v) => JSON.stringify(v).match(/"\$ref":/g)?.length ?? 0;

describe("compact", () => {
  test("repeats become $defs the checker accepts, and the output is a fixed point", () => {
    for (const target of REF_TARGETS) {
      const plain = ts.normalize(reused, target);
      const small = ts.normalize(reused, target, COMPACT);
      assert.ok(JSON.stringify(small.schema).length < JSON.stringify(plain.schema).length, target);
      assert.ok(refsIn(small.schema) > refsIn(plain.schema) && small.schema.$defs !== undefined, target);
      assert.deepEqual(ts.checkSchema(small.schema, target), [], target);
      assert.equal(small.strict, plain.strict, target);
      assert.equal(small.report.lossy, plain.report.lossy, target);
      const hoisted = small.report.diagnostics.filter((d) => d.code === "subschema-hoisted");
      assert.ok(hoisted.length > 0 && hoisted.every((d) => !d.lossy && d.pointer.startsWith("/")), target);
      assert.equal(small.report.counters.subschemasHoisted, hoisted.length, target);
      const again = ts.normalize(small.schema, target, COMPACT);
      assert.equal(JSON.stringify(again.schema), JSON.stringify(small.schema), `${target}: not a fixed point`);
    }
  });

  test("targets that inline refs get no ref, and Gemini loses only default", () => {
    const schema = { type: "object", properties: { a: { type: "integer", default: 3, description: "A" }, b: { type: "integer", default: 3, description: "A" } } };
    for (const target of ["google", "google-json", "llamacpp", "ollama", "webmcp"]) {
      assert.equal(refsIn(ts.normalize(reused, target, COMPACT).schema), 0, target);
    }
    const google = ts.normalize(schema, "google", COMPACT);
    assert.deepEqual(google.schema.properties.a, { type: "integer", description: "A" });
    assert.deepEqual(
      google.report.diagnostics.filter((d) => d.code === "ignored-keyword-dropped").map((d) => [d.pointer, d.lossy]),
      [["/properties/a/default", false], ["/properties/b/default", false]],
    );
    assert.deepEqual(ts.normalize(schema, "google").schema.properties.a.default, 3);
  });

  test("the model's arguments for a compact schema come back as for the plain one", () => {
    const model = ts.normalize(reused, "openai-strict", COMPACT).schema;
    // Arguments as a strict model writes them: every property, null where optional.
    const fill = (s, depth = 0) => {
      if (s.$ref) return fill(model.$defs[decodeURIComponent(s.$ref.slice("#/$defs/".length))], depth);
      if (s.anyOf) return s.anyOf.some((b) => b.type === "null") ? null : fill(s.anyOf[0], depth + 1);
      if (s.enum) return s.enum[0];
      if (s.type === "object") return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, fill(v, depth + 1)]));
      if (s.type === "array") return [fill(s.items, depth + 1)];
      // The schema's one pattern is a ZIP code's.
      if (s.pattern) return "12345";
      return { string: "x", integer: 1, number: 1.5, boolean: true }[s.type] ?? null;
    };
    const args = fill(model);
    assert.ok(Object.keys(args).length > 0);
    const tool = { name: "t", inputSchema: reused };
    const compactPrepared = ts.prepareToolCall(args, tool, { target: "openai-strict", normalize: COMPACT });
    assert.deepEqual(compactPrepared, ts.prepareToolCall(args, tool, { target: "openai-strict" }));
    assert.ok(compactPrepared.ok, compactPrepared.message);
    assert.deepEqual(
      ts.restoreArguments(args, reused, "openai-strict", { normalize: COMPACT }),
      ts.restoreArguments(args, reused, "openai-strict"),
    );
  });

  test("cost measures the saving, and cost --compact prints it", () => {
    const tools = [{ name: "reused", inputSchema: reused }];
    const plain = cost(tools, { targets: REF_TARGETS });
    const small = cost(tools, { targets: REF_TARGETS, compact: true });
    plain.targets.forEach((t, i) => assert.ok(small.targets[i].tokens < t.tokens, `${t.target}: ${small.targets[i].tokens} >= ${t.tokens}`));
    assert.deepEqual(small.input, plain.input);
    const dir = mkdtempSync(join(tmpdir(), "toolschema-compact-"));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, "tools.json");
    writeFileSync(file, JSON.stringify(tools));
    const run = spawnSync(process.execPath, [`${pkgDir}cli.mjs`, "cost", "--compact", "--json", ...REF_TARGETS.flatMap((t) => ["-t", t]), file], { encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), small);
  });
});
