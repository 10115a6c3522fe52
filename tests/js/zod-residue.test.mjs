// Serialized Zod 4 instances (what JSON.stringify makes of a schema passed
// where JSON Schema belongs) through the built package: the core reads them
// as the JSON Schema they stand for. The residues come from the installed zod
// (tests/zod/residue.mjs); the Rust fixtures hold the same inputs, and the
// first test keeps those checked-in inputs what zod really produces.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { FIXTURES, propertiesResidue, rootResidue } from "../zod/residue.mjs";
import { root, ts } from "./helpers.mjs";

const codes = (out) => out.report.diagnostics.map((d) => d.code);

describe("serialized Zod 4 instances", () => {
  test("the fixtures' inputs are what the installed zod serializes", () => {
    for (const [name, make] of Object.entries(FIXTURES)) {
      const checkedIn = JSON.parse(readFileSync(`${root}tests/fixtures/${name}/input.json`, "utf8"));
      assert.deepEqual(make(), checkedIn, `${name}: regenerate with node tests/zod/residue.mjs --write`);
    }
  });

  test("an enum is sent as its values, never as the serialized object", () => {
    for (const target of ["google", "openai-strict", "mcp"]) {
      const out = ts.normalize(propertiesResidue(), target);
      const mode = out.schema.properties.mode;
      assert.deepEqual(mode.enum, ["fast", "slow"], `${target}: ${JSON.stringify(mode)}`);
      assert.equal(mode.type, "string");
      assert.ok(!JSON.stringify(out.schema).includes("def"), `${target}: ${JSON.stringify(out.schema)}`);
      assert.ok(codes(out).includes("zod-instance-recovered"), target);
    }
    const strict = ts.normalize(propertiesResidue(), "openai-strict");
    assert.equal(strict.strict, true);
    // A numeric native enum keeps its type where the target has one.
    assert.deepEqual(strict.schema.properties.count, { type: "integer", enum: [1, 2] });
    assert.deepEqual(strict.schema.properties.side, { type: "string", enum: ["left", "right"] });
    assert.deepEqual(strict.schema.properties.path, { type: "string" });
  });

  test("a whole parameter object: members, optional ones, awkward names, losses reported", () => {
    const out = ts.normalize(rootResidue(), "mcp");
    const { properties, required } = out.schema;
    assert.equal(out.schema.type, "object");
    assert.deepEqual(properties.level, { type: "integer", enum: [1, 2] });
    assert.deepEqual(properties.kind, { type: "string", enum: ["file"] });
    assert.deepEqual(properties.limit, { type: "integer" });
    assert.deepEqual(properties.email, { type: "string", format: "email" });
    assert.deepEqual(properties.tags, { type: "array", items: { type: "string" } });
    assert.deepEqual(properties.anything, {});
    assert.deepEqual(properties.options.required, ["note"]);
    assert.deepEqual(properties.options.properties.depth, { type: "number", default: 1 });
    assert.ok(!required.includes("later"));
    const names = properties.names;
    assert.deepEqual(Object.keys(names.properties), ["__proto__", "constructor", "default", "const"]);
    assert.ok(Object.hasOwn(names.properties, "__proto__"));
    assert.deepEqual(names.required, ["__proto__", "constructor", "default"]);
    const lost = out.report.diagnostics.find((d) => d.code === "zod-instance-unrecoverable");
    assert.equal(lost?.pointer, "/properties/later");
    assert.ok(lost.lossy);
  });
});
