// adaptSchemaForStrict and its bypass: options.noStrict, else PI_NO_STRICT.
// The variable is read on every call, so the tests set it in-process.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { throwsCode, ts } from "./helpers.mjs";

const schema = { type: "object", properties: { a: { type: "string" }, b: { type: "number" } }, required: ["a"] };
const nonStrict = () => ({ strict: false, schema: ts.normalize(schema, "openai").schema });
const original = process.env.PI_NO_STRICT;

afterEach(() => {
  if (original === undefined) delete process.env.PI_NO_STRICT;
  else process.env.PI_NO_STRICT = original;
});

describe("adaptSchemaForStrict", () => {
  test("strict=false gives the plain openai schema", () => {
    delete process.env.PI_NO_STRICT;
    assert.deepEqual(ts.adaptSchemaForStrict(schema, false), nonStrict());
  });

  for (const value of ["1", "true", "TRUE", "yes", "Yes", "on", "ON", " on "]) {
    test(`PI_NO_STRICT=${JSON.stringify(value)} turns strict off`, () => {
      process.env.PI_NO_STRICT = value;
      assert.deepEqual(ts.adaptSchemaForStrict(schema, true), nonStrict());
    });
  }

  test("options.noStrict turns strict off without an environment variable", () => {
    delete process.env.PI_NO_STRICT;
    assert.deepEqual(ts.adaptSchemaForStrict(schema, true, { noStrict: true }), nonStrict());
  });

  test("strict=true without a bypass is tryEnforceStrictSchema", () => {
    delete process.env.PI_NO_STRICT;
    assert.deepEqual(ts.adaptSchemaForStrict(schema, true), ts.tryEnforceStrictSchema(schema));
  });

  for (const value of ["0", "false", "no", "off", "", "2", "enabled"]) {
    test(`PI_NO_STRICT=${JSON.stringify(value)} leaves strict on`, () => {
      process.env.PI_NO_STRICT = value;
      assert.equal(ts.adaptSchemaForStrict(schema, true).strict, true);
    });
  }

  test("an explicit noStrict: false wins over the environment", () => {
    process.env.PI_NO_STRICT = "1";
    assert.equal(ts.adaptSchemaForStrict(schema, true, { noStrict: false }).strict, true);
  });

  test("other options reach the core; unknown ones are refused there", () => {
    delete process.env.PI_NO_STRICT;
    assert.equal(typeof ts.adaptSchemaForStrict(schema, true, { spill: "none" }).strict, "boolean");
    throwsCode(assert, () => ts.adaptSchemaForStrict(schema, true, { noSuchOption: 1 }), "invalid-options");
    throwsCode(assert, () => ts.adaptSchemaForStrict(schema, false, { noSuchOption: 1 }), "invalid-options");
  });

  test("tryEnforceStrictSchema and adaptSchemaForStrict answer {strict, schema} only", () => {
    delete process.env.PI_NO_STRICT;
    for (const result of [ts.tryEnforceStrictSchema(schema), ts.adaptSchemaForStrict(schema, true)]) {
      assert.deepEqual(Object.keys(result).sort(), ["schema", "strict"]);
      assert.equal(typeof result.strict, "boolean");
    }
  });
});
