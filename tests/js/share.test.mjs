// Results built from what changed (js/share.mjs): for plain JSON objects the
// object API reads the core's answer with unchanged values named, not
// written, and copies them from the input. Here every corpus schema, through
// every target, must give what the plain JSON entry point gives, key order
// included, deep-frozen, sharing no object with the input, and leaving the
// input as it was.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { pkgDir, root, ts } from "./helpers.mjs";

const glue = await import(`${pkgDir}toolschema_glue.mjs`);

const corpus = readdirSync(`${root}../shared/corpus`)
  .filter((f) => f.endsWith(".json"))
  .flatMap((f) => JSON.parse(readFileSync(`${root}../shared/corpus/${f}`, "utf8")).map((e) => ({ id: `${f}/${e.name}`, schema: e.schema })));
const targets = ts.targets().map((t) => t.id ?? t);

/** Every object and array in `value`. */
function containers(value, into = new Set()) {
  if (typeof value === "object" && value !== null) {
    into.add(value);
    for (const key in value) containers(value[key], into);
  }
  return into;
}

function deepFrozen(value) {
  if (typeof value !== "object" || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  for (const key in value) if (!deepFrozen(value[key])) return false;
  return true;
}

/** The plain entry point's payload, as the object API answered before sharing. */
function plain(schema, target, options = {}) {
  const envelope = JSON.parse(glue.normalizeJson(JSON.stringify(schema), target, JSON.stringify(options)));
  return envelope.ok ?? envelope.error;
}

describe("results built from what changed", () => {
  test("the corpus through every target: the plain answer, frozen, nothing shared with the input", () => {
    ts.configureCache({ maxEntries: 0 });
    try {
      assert.ok(corpus.length > 300);
      let checked = 0;
      for (const { id, schema } of corpus) {
        const before = JSON.stringify(schema);
        const inputs = containers(schema);
        for (const target of targets) {
          const want = plain(schema, target);
          if (want.code !== undefined) continue;
          const got = ts.normalize(schema, target);
          assert.equal(JSON.stringify(got), JSON.stringify(want), `${id} ${target}`);
          const quiet = ts.normalizeSchema(schema, { target });
          assert.equal(JSON.stringify(quiet), JSON.stringify(want.schema), `${id} ${target}`);
          for (const result of [got, quiet]) {
            assert.ok(deepFrozen(result), `${id} ${target}: frozen`);
            for (const c of containers(result)) assert.ok(!inputs.has(c), `${id} ${target}: an input object in the result`);
          }
          checked++;
        }
        assert.equal(JSON.stringify(schema), before, `${id}: input changed`);
        assert.ok(!Object.isFrozen(schema), `${id}: input frozen`);
      }
      assert.ok(checked > 8000, `${checked} answers`);
    } finally {
      ts.configureCache({});
    }
  });

  test("values JSON writes differently from how JavaScript holds them", () => {
    ts.configureCache({ maxEntries: 0 });
    try {
      const cases = [
        // -0 is written 0: an unchanged copy holds 0, as parsing the text would.
        { type: "object", properties: { a: { type: "number", minimum: -0, maximum: 1e21 }, b: { type: "array", items: { type: "number" }, default: [-0, 1] } } },
        // An own "__proto__" member is data, not the copy's prototype.
        JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","description":"p"},"b":{"type":"string"}}}'),
        // A string equal to the mark: answered plainly.
        { type: "object", properties: { a: { type: "string", enum: ["\u0000", "b"] } } },
        { type: "object", properties: { a: { const: "\u0000" }, b: { type: "string" } } },
        // Unchanged as a whole.
        { type: "object", properties: { a: { type: "string" } } },
        // Symbol keys (TypeBox marks its schemas so): JSON has none, nor do results.
        { type: "object", properties: { a: { type: "string", [Symbol.for("TypeBox.Kind")]: "String" } }, [Symbol("x")]: 1 },
      ];
      for (const schema of cases) {
        for (const target of targets) {
          const want = plain(schema, target);
          if (want.code !== undefined) continue;
          const got = ts.normalize(schema, target);
          assert.equal(JSON.stringify(got), JSON.stringify(want), target);
          assert.deepEqual(got.schema, want.schema, target);
          assert.ok(deepFrozen(got), target);
        }
      }
      const marked = ts.normalizeSchemaForMCP(cases.at(-1));
      assert.deepEqual(Object.getOwnPropertySymbols(marked.properties.a), []);
      const proto = ts.normalizeSchemaForMCP(cases[1]);
      assert.equal(Object.getPrototypeOf(proto.properties), Object.prototype);
      assert.ok(Object.hasOwn(proto.properties, "__proto__"));
      assert.equal(Object.getPrototypeOf(proto.properties.__proto__), Object.prototype);
      assert.equal(proto.properties.__proto__.description, "p");
      const zero = ts.normalizeSchemaForMCP(cases[0]).properties;
      assert.ok(Object.is(zero.a.minimum, 0) && Object.is(zero.b.default[0], 0));
    } finally {
      ts.configureCache({});
    }
  });

  test("tool lists in every shape through every target: the plain answer, nothing shared with the input", () => {
    ts.configureCache({ maxEntries: 0 });
    try {
      const schemas = corpus.filter((e) => e.id.startsWith("mcp-")).slice(0, 60).map((e) => e.schema);
      const named = schemas.map((schema, i) => ({ name: `tool_${i}`, description: `tool ${i}`, schema }));
      const shapes = {
        openai: named.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.schema } })),
        mcp: { tools: named.map((t) => ({ name: t.name, description: t.description, inputSchema: t.schema })) },
        anthropic: named.map((t) => ({ name: t.name, description: t.description, input_schema: t.schema })),
        gemini: [{ functionDeclarations: named.map((t) => ({ name: t.name, description: t.description, parameters: t.schema })) }],
      };
      let checked = 0;
      for (const [shape, list] of Object.entries(shapes)) {
        const before = JSON.stringify(list);
        const inputs = containers(list);
        for (const target of targets) {
          const envelope = JSON.parse(glue.normalizeToolsJson(before, JSON.stringify({ target })));
          const got = ts.normalizeTools(list, { target });
          assert.equal(JSON.stringify(got), JSON.stringify(envelope.ok), `${shape} ${target}`);
          for (const c of containers(got.tools)) assert.ok(!inputs.has(c), `${shape} ${target}: an input object in the result`);
          checked++;
        }
        assert.equal(JSON.stringify(list), before, `${shape}: input changed`);
      }
      assert.equal(checked, 4 * targets.length);
      // The sharing export is what answered, and it named something.
      const shared = glue.normalizeToolsJsonSharing(JSON.stringify(shapes.mcp), JSON.stringify({ target: "mcp" }));
      assert.ok(shared.startsWith('{"shared":') && shared.includes('"\\u0000"'), shared.slice(0, 80));
    } finally {
      ts.configureCache({});
    }
  });

  test("input deeper than the shim's recursion is shared and copied too, in every check", () => {
    // 400 schema levels are 800 JSON levels: past the 512 the shim's
    // recursive walks go, so the plain check, its hash and the copies of
    // unchanged values finish over explicit stacks.
    const nested = (levels, leaf = { type: "string", description: "leaf" }) => {
      let schema = leaf;
      for (let level = levels; level > 0; level--) schema = { type: "object", description: `level ${level}`, properties: { child: schema }, required: ["child"] };
      return schema;
    };
    const options = { maxDepth: 1e6 };
    const deepest = (value) => {
      while (value.properties !== undefined) value = value.properties.child;
      return value;
    };
    for (const maxEntries of [0, 512]) {
      ts.configureCache({ maxEntries });
      try {
        for (const target of targets) {
          const schema = nested(400);
          const want = plain(schema, target, options);
          if (want.code !== undefined) continue;
          const inputs = containers(schema);
          const got = ts.normalize(schema, target, options);
          assert.equal(JSON.stringify(got), JSON.stringify(want), target);
          assert.ok(deepFrozen(got), target);
          for (const c of containers(got)) assert.ok(!inputs.has(c), `${target}: an input object in the result`);
          assert.ok(!Object.isFrozen(schema));
        }
        // The leaf's members are read from the input: once by the plain
        // check, once by JSON.stringify and once by the copy of the
        // unchanged leaf (the text path reads it twice). Cleared first: an
        // equal input from the loop above would be a content hit.
        ts.clearCache();
        const schema = nested(400);
        let reads = 0;
        Object.defineProperty(deepest(schema), "description", { enumerable: true, get: () => (reads++, "leaf") });
        const got = ts.normalize(schema, "mcp", options);
        assert.equal(deepest(got.schema).description, "leaf");
        assert.equal(reads, 3);
        // Not plain JSON past 512 levels: the full path and its errors.
        assert.throws(() => ts.normalize(nested(400, { type: "number", maximum: NaN }), "mcp", options), { code: "invalid-value", pointer: `${"/properties/child".repeat(400)}/maximum` });
        const cyclic = nested(400);
        deepest(cyclic).items = cyclic.properties;
        assert.throws(() => ts.normalize(cyclic, "mcp", options), { code: "cyclic-input" });
      } finally {
        ts.configureCache({});
      }
    }
    // Equal deep content in new objects finds its entry.
    ts.clearCache();
    ts.normalize(nested(400), "mcp", options);
    ts.normalize(nested(400), "mcp", options);
    assert.equal(ts.cacheStats().contentHits, 1);
    ts.clearCache();
  });

  test("an answer that names what did not change is smaller than the plain one", () => {
    const schema = corpus.find((e) => e.id.includes("mcp-")).schema;
    const text = JSON.stringify(schema);
    const shared = glue.normalizeSchemaJsonSharing(text, "mcp", "");
    assert.ok(shared.startsWith('{"shared":'), shared.slice(0, 40));
    assert.ok(shared.length < glue.normalizeSchemaJson(text, "mcp", "").length);
  });
});
