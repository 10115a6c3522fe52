// The declarations of the integration subpaths (`toolschema/ai-sdk`,
// `toolschema/sdk`) against the real packages they plug into: each file of
// tests/js/types/ named below is compiled with tsc --noEmit under `strict`
// against the built package and the devDependencies, as
// sdk-types.test.mjs does for the main entry. Every `@ts-expect-error` in
// them fails the compile when the line below it compiles.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { pkgDir, root } from "./helpers.mjs";

const tsc = `${root}node_modules/.bin/tsc`;
const LINKED = ["openai", "@anthropic-ai/sdk", "@google/genai", "ai", "ai5", "ai6", "zod"];

const consumer = mkdtempSync(join(tmpdir(), "toolschema-integration-types-"));
after(() => rmSync(consumer, { recursive: true, force: true }));
for (const [name, target] of [["toolschema", pkgDir], ...LINKED.map((n) => [n, `${root}node_modules/${n}`])]) {
  mkdirSync(join(consumer, "node_modules", name, ".."), { recursive: true });
  symlinkSync(target, join(consumer, "node_modules", name), "dir");
}
writeFileSync(join(consumer, "package.json"), JSON.stringify({ private: true, type: "module" }));

function compile(file) {
  // The AI SDK's declarations use the DOM's fetch and stream types.
  const config = {
    compilerOptions: { strict: true, noEmit: true, lib: ["es2022", "dom"], types: [], module: "nodenext", moduleResolution: "nodenext", skipLibCheck: true },
    files: [file],
  };
  const project = join(consumer, `tsconfig.${file}.json`);
  writeFileSync(project, JSON.stringify(config));
  return spawnSync(tsc, ["-p", project], { encoding: "utf8" });
}

describe("integration types", () => {
  for (const file of ["ai-sdk.ts", "sdk-converters.ts"]) {
    test(`tests/js/types/${file} compiles under strict (every @ts-expect-error is needed)`, () => {
      const mts = file.replace(/\.ts$/, ".mts");
      copyFileSync(`${root}tests/js/types/${file}`, join(consumer, mts));
      const run = compile(mts);
      assert.equal(run.status, 0, run.stdout + run.stderr);
    });
  }

  test("the compile can fail: ai 6's wrapLanguageModel refuses a v4 middleware without @ts-expect-error", () => {
    writeFileSync(
      join(consumer, "misuse.mts"),
      `import { wrapLanguageModel } from "ai6";
      import { MockLanguageModelV3 } from "ai6/test";
      import { toolschemaMiddleware } from "toolschema/ai-sdk";
      const model = new MockLanguageModelV3();
      wrapLanguageModel({ model, middleware: toolschemaMiddleware({ specificationVersion: "v4" }) });\n`,
    );
    const run = compile("misuse.mts");
    assert.notEqual(run.status, 0);
    assert.match(run.stdout, /TS2322|TS2769|TS2345/);
  });
});
