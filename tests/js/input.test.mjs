// What the shim accepts as a schema, and what it refuses before the core sees
// it. Library schemas are built with the real libraries (dev dependencies);
// each must give the same result as the JSON Schema it stands for.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { Type } from "@sinclair/typebox";
import { type } from "arktype";
import * as v from "valibot";
import * as z from "zod";
import * as z3 from "zod3";
import { throwsCode, ts } from "./helpers.mjs";

// What each library emits for "a: required string, b: optional number", as
// measured from the versions in package.json; key order differs per library.
const AB = { type: "object", properties: { a: { type: "string" }, b: { type: "number" } }, required: ["a"] };
const draft2020 = { $schema: "https://json-schema.org/draft/2020-12/schema" };
const same = (input, expected) => assert.deepEqual(ts.normalize(input, "google"), ts.normalize(expected, "google"));

describe("schema libraries", () => {
  test("Zod 4 through Standard JSON Schema, input side", () => {
    const schema = z.object({ a: z.string(), b: z.number().optional() });
    same(schema, { ...draft2020, ...AB });
  });

  test("Zod 4 without the Standard JSON Schema surface uses its toJSONSchema method", () => {
    const schema = z.object({ a: z.string(), b: z.number().optional() });
    const older = Object.create(schema, { "~standard": { value: undefined } });
    same(older, { ...draft2020, ...AB });
  });

  test("a Zod 4 instance that cannot convert itself is refused with what to do", () => {
    const bare = Object.create(z.string(), { "~standard": { value: undefined }, toJSONSchema: { value: undefined } });
    const err = throwsCode(assert, () => ts.normalize(bare, "mcp"), "unsupported-input");
    assert.match(err.message, /z\.toJSONSchema/);
  });

  test("a conversion the library refuses becomes unsupported-input with the cause", () => {
    const err = throwsCode(assert, () => ts.normalize(z.object({ n: z.bigint() }), "mcp"), "unsupported-input");
    assert.ok(err.cause instanceof Error);
  });

  test("Zod 3 is refused with a pointer to zod-to-json-schema and Zod 4", () => {
    const err = throwsCode(assert, () => ts.normalize(z3.object({ a: z3.string() }), "mcp"), "unsupported-input");
    assert.match(err.message, /zod-to-json-schema/);
    assert.match(err.message, /Zod 4/);
  });

  test("ArkType (a callable schema) through Standard JSON Schema", () => {
    same(type({ a: "string", "b?": "number" }), { ...draft2020, ...AB });
  });

  test("Valibot wrapped by toStandardJsonSchema; a bare Valibot schema is refused", () => {
    const schema = v.object({ a: v.string(), b: v.optional(v.number()) });
    same(toStandardJsonSchema(schema), { ...AB, ...draft2020 });
    const err = throwsCode(assert, () => ts.normalize(schema, "mcp"), "unsupported-input");
    assert.match(err.message, /@valibot\/to-json-schema/);
  });

  test("TypeBox: plain JSON Schema whose symbol markers are ignored", () => {
    const schema = Type.Object({ a: Type.String(), b: Type.Optional(Type.Number()) });
    assert.ok(Object.getOwnPropertySymbols(schema).length > 0);
    same(schema, { type: "object", required: ["a"], properties: AB.properties });
  });

  test("a library instance nested in a plain schema is refused at its pointer", () => {
    const nested = { type: "object", properties: { a: z.string() } };
    throwsCode(assert, () => ts.normalize(nested, "mcp"), "invalid-value", "/properties/a");
  });

  test("serialized Zod internals (plain data) reach the core, which strips them", () => {
    const leaked = { ...AB, _def: { typeName: "ZodObject" }, "~standard": { vendor: "zod", version: 1 } };
    const { schema } = ts.normalize(leaked, "mcp");
    assert.ok(!("_def" in schema) && !("~standard" in schema), JSON.stringify(schema));
    assert.deepEqual(schema, ts.normalize(AB, "mcp").schema);
  });
});

describe("values JSON cannot carry", () => {
  const at = (value) => ({ type: "object", properties: { "a/b~c": { type: "number", default: value } } });
  const pointer = "/properties/a~1b~0c/default";

  for (const [label, value] of [
    ["BigInt", 1n],
    ["a function", () => 1],
    ["a symbol", Symbol("s")],
    ["undefined", undefined],
    ["NaN", NaN],
    ["Infinity", Infinity],
    ["-Infinity", -Infinity],
  ]) {
    test(`${label} is invalid-value at its escaped pointer`, () => {
      throwsCode(assert, () => ts.normalize(at(value), "mcp"), "invalid-value", pointer);
    });
  }

  test("array holes and undefined items", () => {
    throwsCode(assert, () => ts.normalize({ enum: ["a", undefined] }, "mcp"), "invalid-value", "/enum/1");
    // eslint-disable-next-line no-sparse-arrays
    throwsCode(assert, () => ts.normalize({ enum: ["a", , "c"] }, "mcp"), "invalid-value", "/enum/1");
  });

  test("undefined as the whole input", () => {
    throwsCode(assert, () => ts.normalize(undefined, "mcp"), "invalid-value", "");
  });

  test("a cycle is cyclic-input at the pointer that closes it", () => {
    const schema = { type: "object", properties: { a: { type: "array", items: null } } };
    schema.properties.a.items = schema;
    throwsCode(assert, () => ts.normalize(schema, "mcp"), "cyclic-input", "/properties/a/items");
  });

  test("a subtree shared by two places is not a cycle", () => {
    const shared = { type: "string" };
    const schema = { type: "object", properties: { a: shared, b: shared } };
    assert.deepEqual(ts.normalize(schema, "mcp"), ts.normalize(structuredClone(schema), "mcp"));
  });

  test("values that serialize themselves (Date) are accepted", () => {
    const date = new Date(0);
    assert.deepEqual(
      ts.normalize({ type: "string", default: date }, "mcp"),
      ts.normalize({ type: "string", default: date.toJSON() }, "mcp"),
    );
  });

  test("nesting deeper than the stack is refused, not a crash", () => {
    let deep = { type: "string" };
    for (let i = 0; i < 200_000; i++) deep = { items: deep };
    throwsCode(assert, () => ts.normalize(deep, "mcp"), "too-deep");
  });
});
