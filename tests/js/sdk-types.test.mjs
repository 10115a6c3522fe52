// The declarations against the provider SDKs: tests/js/types/sdk.ts is
// compiled with tsc --noEmit under `strict` against the built package and the
// real `openai`, `@anthropic-ai/sdk` and `@google/genai` types
// (devDependencies). It assigns results to each SDK's tool parameter types
// without a cast, and its `@ts-expect-error` lines (a misspelt target id, a
// boolean schema, writes to frozen results) fail the compile if they ever
// type-check.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { pkgDir, root, ts } from "./helpers.mjs";

const tsc = `${root}node_modules/.bin/tsc`;
const dts = readFileSync(`${pkgDir}index.d.ts`, "utf8");

const consumer = mkdtempSync(join(tmpdir(), "toolschema-sdk-types-"));
after(() => rmSync(consumer, { recursive: true, force: true }));
for (const [name, target] of [["toolschema", pkgDir], ...["openai", "@anthropic-ai/sdk", "@google/genai"].map((n) => [n, `${root}node_modules/${n}`])]) {
  mkdirSync(join(consumer, "node_modules", name, ".."), { recursive: true });
  symlinkSync(target, join(consumer, "node_modules", name), "dir");
}
writeFileSync(join(consumer, "package.json"), JSON.stringify({ private: true, type: "module" }));

function compile(file, compilerOptions = {}) {
  const config = {
    compilerOptions: { strict: true, noEmit: true, lib: ["es2022"], types: [], module: "nodenext", moduleResolution: "nodenext", skipLibCheck: true, ...compilerOptions },
    files: [file],
  };
  const project = join(consumer, `tsconfig.${file}.json`);
  writeFileSync(project, JSON.stringify(config));
  return spawnSync(tsc, ["-p", project], { encoding: "utf8" });
}

describe("types against the provider SDKs", () => {
  test("tests/js/types/sdk.ts compiles under strict (every @ts-expect-error is needed)", () => {
    copyFileSync(`${root}tests/js/types/sdk.ts`, join(consumer, "sdk.mts"));
    const run = compile("sdk.mts");
    assert.equal(run.status, 0, run.stdout + run.stderr);
  });

  test("the compile can fail: a cast-free misuse is reported, so the test above is not vacuous", () => {
    writeFileSync(join(consumer, "misuse.mts"), `import type Anthropic from "@anthropic-ai/sdk";
      import { normalize } from "toolschema";
      const tool: Anthropic.Tool = { name: "x", input_schema: normalize({}, "llamacpp").schema };
      void tool;\n`);
    const run = compile("misuse.mts");
    assert.notEqual(run.status, 0);
    assert.match(run.stdout, /TS2741|TS2322/);
  });
});

describe("TargetId", () => {
  const declared = dts.match(/export type TargetId =([^;]*);/)[1].match(/"[a-z-]+"/g).map((id) => JSON.parse(id));

  test("is a closed union: no `string & {}` escape", () => {
    assert.doesNotMatch(dts.match(/export type TargetId =([^;]*);/)[1], /string/);
  });

  test("names every id targets() returns, and nothing else", () => {
    const runtime = ts.targets().map((t) => t.id);
    for (const id of runtime) assert.ok(declared.includes(id), `targets() has "${id}", TargetId does not`);
    for (const id of declared) assert.ok(runtime.includes(id), `TargetId has "${id}", targets() does not`);
  });

  test("ObjectRootTargetId leaves out exactly the targets whose root may be no object", () => {
    // Roots that are no object (a scalar, anything, a union, a recursive
    // array): a tool target wraps or coerces each into an object.
    const excluded = dts.match(/export type ObjectRootTargetId = Exclude<TargetId, ([^>]*)>;/)[1].match(/"[a-z-]+"/g).map((id) => JSON.parse(id));
    const roots = [{ type: "string" }, {}, true, { anyOf: [{ type: "string" }, { type: "object" }] }, { type: ["array", "null"], items: { $ref: "#" } }];
    for (const { id } of ts.targets()) {
      if (excluded.includes(id)) continue;
      for (const root of roots) {
        const { schema } = ts.normalize(root, id);
        assert.equal(schema.type, "object", `${id} is typed ObjectSchema but returned ${JSON.stringify(schema)} for ${JSON.stringify(root)}`);
      }
    }
  });
});

describe("targets()[].source", () => {
  test("every source is a public URL (provider documentation or a public issue)", () => {
    for (const { id, source } of ts.targets()) {
      for (const part of source.split("; ")) assert.match(part, /^https:\/\/\S+$/, `${id}: "${source}"`);
    }
  });
});
