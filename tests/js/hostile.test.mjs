// Hostile input through the npm package (pkg/, as shipped): prototype names,
// cycles, values JSON cannot carry, non-schemas, frozen input and nesting far
// past any stack. Each must end in a ToolSchemaError with a documented code or
// a correct result, never a crash, a polluted prototype or a mutated input,
// and the module must keep working afterwards.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { TRIVIAL, throwsCode, ts } from "./helpers.mjs";

const TARGETS = ts.targets().map((t) => t.id);
const PROTO_NAMES = ["__proto__", "constructor", "prototype"];

/** Nothing may have been added to the shared prototypes. */
function assertPrototypesClean() {
  for (const proto of [Object.prototype, Array.prototype, Function.prototype]) {
    for (const key of ["polluted", "type", "properties", "enum", "default", "required", "x"]) {
      assert.ok(!Object.hasOwn(proto, key), `prototype gained ${key}`);
    }
  }
  assert.equal({}.polluted, undefined);
  assert.equal(Object.getPrototypeOf({}), Object.prototype);
}

/** An object whose own keys include `__proto__`: JSON.parse defines it as an own property. */
function protoSchema() {
  return JSON.parse(`{
    "type": "object",
    "properties": {
      "__proto__": {"type": "object", "properties": {"polluted": {"type": "string", "default": "yes"}}, "required": ["polluted"]},
      "constructor": {"type": "string", "enum": ["a", "b"]},
      "prototype": {"$ref": "#/$defs/__proto__"}
    },
    "required": ["__proto__", "constructor", "prototype"],
    "$defs": {"__proto__": {"type": "integer", "minimum": 1}}
  }`);
}

function deepFreeze(value) {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze(value[key]);
  }
  return value;
}

function nested(levels) {
  let deep = { type: "string" };
  for (let i = 0; i < levels; i++) deep = { type: "object", properties: { c: deep } };
  return deep;
}

function stillWorks() {
  const { schema } = ts.normalize({ type: "object", properties: { a: { type: ["string", "null"] } } }, "google");
  assert.deepEqual(schema.properties.a, { type: "string", nullable: true });
}

describe("prototype-named properties", () => {
  for (const target of TARGETS) {
    test(`${target}: __proto__, constructor and prototype stay own properties`, () => {
      const input = protoSchema();
      const out = ts.normalize(input, target);
      const props = out.schema.properties;
      assert.equal(Object.getPrototypeOf(props), Object.prototype, "properties keeps the plain prototype");
      for (const name of PROTO_NAMES) {
        assert.ok(Object.hasOwn(props, name), `${name} is an own property: ${JSON.stringify(out.schema)}`);
        const schema = Object.getOwnPropertyDescriptor(props, name).value;
        assert.equal(typeof schema, "object", `${name} holds a schema, not ${typeof schema}`);
        assert.notEqual(schema, Object.prototype);
      }
      // The property names survive as data in every place names are listed.
      const json = JSON.stringify(out.schema);
      for (const name of PROTO_NAMES) assert.ok(json.includes(`"${name}"`), `${name} kept in ${json}`);
      assert.equal(JSON.stringify(input), JSON.stringify(protoSchema()), "input untouched");
      assertPrototypesClean();
    });
  }

  test("the same names in a tool list, as tool names and properties", () => {
    const tools = JSON.parse(`[
      {"name": "__proto__", "inputSchema": {"type": "object", "properties": {"__proto__": {"type": "string"}}}},
      {"name": "constructor", "inputSchema": {"type": "object", "properties": {"prototype": {"type": "number"}}}}
    ]`);
    const { tools: out, telemetry } = ts.normalizeTools(tools, { target: "google" });
    assert.equal(out.length, 2);
    assert.equal(out[0].name, "__proto__");
    assert.ok(Object.hasOwn(out[0].inputSchema.properties, "__proto__"));
    assert.ok(Object.hasOwn(out[1].inputSchema.properties, "prototype"));
    assert.equal(telemetry.toolsSeen, 2);
    assertPrototypesClean();
  });

  test("checkSchema and the error pointer escape a __proto__ path", () => {
    assert.deepEqual(ts.checkSchema(protoSchema(), "mcp"), []);
    const bad = JSON.parse(`{"type": "object", "properties": {"__proto__": {"type": "object", "properties": {"x": {"default": 1}}}}}`);
    bad.properties.__proto__.properties.x.default = 1n;
    throwsCode(assert, () => ts.normalize(bad, "mcp"), "invalid-value", "/properties/__proto__/properties/x/default");
    assertPrototypesClean();
  });
});

describe("values JSON cannot carry, through every entry point", () => {
  const calls = {
    normalize: (s) => ts.normalize(s, "openai-strict"),
    normalizeSchemaForGoogle: (s) => ts.normalizeSchemaForGoogle(s),
    checkSchema: (s) => ts.checkSchema(s, "google"),
    compileAbilitySchemaForAI: (s) => ts.compileAbilitySchemaForAI(s, "openai"),
    lintSchema: (s) => ts.lintSchema(s),
    restoreArguments: (s) => ts.restoreArguments({}, s, "openai-strict"),
    repairArguments: (s) => ts.repairArguments({}, s),
    validateArguments: (s) => ts.validateArguments({}, s),
    prepareToolCall: (s) => ts.prepareToolCall({}, { inputSchema: s }),
  };
  const bad = [
    ["BigInt", 10n],
    ["a function", function f() {}],
    ["undefined", undefined],
    ["NaN", NaN],
    ["Infinity", Infinity],
    ["a symbol", Symbol("s")],
  ];
  for (const [entry, call] of Object.entries(calls)) {
    for (const [label, value] of bad) {
      test(`${entry}: ${label} is invalid-value at its pointer`, () => {
        const schema = { type: "object", properties: { n: { type: "array", items: { type: "number", enum: [1, value] } } } };
        throwsCode(assert, () => call(schema), "invalid-value", "/properties/n/items/enum/1");
      });
    }
  }

  for (const [label, value] of bad) {
    test(`normalizeTools: ${label} inside a tool's schema is invalid-value at its list pointer`, () => {
      const tools = [{ name: "t", inputSchema: { type: "object", properties: { p: { default: value } } } }];
      throwsCode(assert, () => ts.normalizeTools(tools, { target: "mcp" }), "invalid-value", "/0/inputSchema/properties/p/default");
    });
  }

  test("circular objects: through properties, arrays and tool lists", () => {
    const a = { type: "object", properties: {} };
    a.properties.self = a;
    throwsCode(assert, () => ts.normalize(a, "google"), "cyclic-input", "/properties/self");
    const b = { anyOf: [] };
    b.anyOf.push({ not: b });
    throwsCode(assert, () => ts.checkSchema(b, "mcp"), "cyclic-input", "/anyOf/0/not");
    const tools = [{ name: "t", inputSchema: { type: "object" } }];
    tools[0].inputSchema.properties = { loop: tools[0] };
    throwsCode(assert, () => ts.normalizeTools(tools, { target: "openai" }), "cyclic-input", "/0/inputSchema/properties/loop");
    stillWorks();
  });

  test("symbol keys are not JSON and are ignored, as JSON.stringify does", () => {
    const schema = { type: "string", [Symbol("kind")]: "String" };
    assert.deepEqual(ts.normalize(schema, "mcp").schema, ts.normalize({ type: "string" }, "mcp").schema);
  });
});

describe("roots that are not schemas", () => {
  for (const [label, value] of [
    ["null", null],
    ["a number", 42],
    ["an array", [{ type: "object" }]],
    ["an empty array", []],
    ["JSON text of an array", "[1]"],
    ["JSON text of a string", '"object"'],
    ["JSON text of null", "null"],
  ]) {
    test(`${label} is not-a-schema on every target`, () => {
      for (const target of TARGETS) throwsCode(assert, () => ts.normalize(value, target), "not-a-schema", "");
      // The checker answers what a target would reject, rather than throwing.
      assert.deepEqual(ts.checkSchema(value, "google").map((v) => [v.code, v.pointer]), [["invalid-schema", ""]]);
    });
  }

  test("a tool list that is not a list is not-a-schema", () => {
    throwsCode(assert, () => ts.normalizeTools({ name: "t" }, { target: "mcp" }), "not-a-schema", "");
  });

  test("booleans are schemas (2020-12): true and false normalize", () => {
    for (const target of TARGETS) {
      assert.equal(ts.normalize(true, target).schema.type ?? "object", "object", target);
      ts.normalize(false, target);
    }
  });
});

describe("deep-frozen input", () => {
  const build = () => ({
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: {
      mode: { oneOf: [{ const: "a" }, { const: "b" }], default: "a" },
      when: { type: ["string", "null"], format: "date-time", nullable: true },
      items: { type: "array", items: [{ type: "string" }, { type: "integer", minimum: 1, exclusiveMinimum: true }] },
      node: { $ref: "#/definitions/node" },
      never: { not: {} },
      wordpress: { type: "string", required: true },
    },
    required: ["mode"],
    definitions: { node: { type: "object", properties: { next: { $ref: "#/definitions/node" } }, additionalProperties: false } },
  });

  test("normalizes on every target and stays as it was", () => {
    const input = deepFreeze(build());
    const snapshot = JSON.stringify(input);
    for (const target of TARGETS) {
      const out = ts.normalize(input, target);
      // With strict: false the schema is the relaxed target's (anthropic for Anthropic strict, else openai).
      const judge = out.strict === false ? (target.startsWith("anthropic") ? "anthropic" : "openai") : target;
      assert.deepEqual(ts.checkSchema(out.schema, judge), [], target);
    }
    ts.normalizeTools(deepFreeze([{ name: "t", inputSchema: build() }]), { target: "anthropic-strict" });
    ts.compileAbilitySchemaForAI(input, "google");
    ts.lintSchema(input);
    assert.equal(JSON.stringify(input), snapshot, "input mutated");
    assert.ok(Object.isFrozen(input.properties.mode.oneOf[0]));
  });

  test("the same results as an unfrozen copy", () => {
    for (const target of TARGETS) {
      assert.deepEqual(ts.normalize(deepFreeze(build()), target), ts.normalize(build(), target), target);
    }
  });
});

describe("nesting far past any stack", () => {
  test("100,000 levels as a JS object: too-deep through normalize, not a crash", () => {
    throwsCode(assert, () => ts.normalize(nested(100_000), "google"), "too-deep");
    stillWorks();
  });

  test("100,000 levels as JSON text: too-deep from the core's pre-check", () => {
    const text = '{"type":"object","properties":{"c":'.repeat(100_000) + '{"type":"string"}' + "}}".repeat(100_000);
    for (const target of ["mcp", "google", "openai-strict", "cca"]) {
      const err = throwsCode(assert, () => ts.normalize(text, target), "too-deep");
      assert.match(err.message, /maxDepth/);
    }
    stillWorks();
  });

  test("100,000 levels through normalizeTools: too-deep for the list, not a crash", () => {
    const tools = [{ name: "deep", inputSchema: nested(100_000) }];
    throwsCode(assert, () => ts.normalizeTools(tools, { target: "openai" }), "too-deep");
    const text = JSON.stringify([{ name: "ok", inputSchema: TRIVIAL }]).replace(
      "{}",
      '{"c":'.repeat(100_000) + "{}" + "}".repeat(100_000),
    );
    throwsCode(assert, () => ts.normalizeTools(text, { target: "openai" }), "too-deep");
    stillWorks();
  });

  test("100,000 nested arrays in a keyword value and in checkSchema", () => {
    const deepData = JSON.parse("[".repeat(100_000) + "]".repeat(100_000));
    throwsCode(assert, () => ts.normalize({ type: "array", default: deepData }, "mcp"), "too-deep");
    throwsCode(assert, () => ts.checkSchema(nested(100_000), "google"), "too-deep");
    stillWorks();
  });

  test("maxDepth raised past what the stacks hold: too-deep, not a trap", () => {
    // JSON text, so JSON.stringify is not what runs out. With maxDepth raised,
    // the core refuses nesting its parser's stack cannot hold, and the walks
    // stop before their own stack runs out; either way `too-deep`, never the
    // `internal` of a trap. Object and array nesting take different paths.
    const objects = (n) => '{"type":"object","properties":{"c":'.repeat(n) + '{"type":"string"}' + "}}".repeat(n);
    const arrays = (n) => '{"type":"array","default":' + "[".repeat(n) + "]".repeat(n) + "}";
    for (const n of [1_500, 2_000, 5_000, 100_000]) {
      for (const target of ["google", "openai-strict"]) {
        for (const text of [objects(n), arrays(2 * n)]) {
          const err = throwsCode(assert, () => ts.normalize(text, target, { maxDepth: 1e7 }), "too-deep");
          assert.match(err.message, /maxDepth/);
        }
      }
    }
    stillWorks();
  });

  test("just under maxDepth works, and maxDepth is an option", () => {
    ts.normalize(nested(120), "mcp");
    throwsCode(assert, () => ts.normalize(nested(120), "mcp", { maxDepth: 64 }), "too-deep");
    stillWorks();
  });

  test("stripKeywords naming a keyword the rules write back is not a trap", () => {
    // Every target's root rule writes `type: "object"` back; stripping `type`
    // must end with a result or a documented error, not a stack overflow.
    for (const target of ["mcp", "google", "openai-strict"]) {
      try {
        ts.normalize({ type: "object", title: "x" }, target, { stripKeywords: ["type"] });
      } catch (err) {
        assert.ok(err instanceof ts.ToolSchemaError, String(err));
        assert.notEqual(err.code, "internal", `${target}: ${err.message}`);
      }
    }
    stillWorks();
  });

  test("the module keeps working after every hostile class above", () => {
    for (const target of TARGETS) assert.ok(ts.normalize(TRIVIAL, target).schema);
    assertPrototypesClean();
  });
});
