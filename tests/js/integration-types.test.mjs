// The declarations of the integration subpaths (toolschema/mcp, /proxy,
// /ai-sdk, /sdk) against the real packages they plug into: each file of
// tests/js/types/ named below is compiled with tsc --noEmit under `strict`
// against the built package, resolved by its subpath exports, and the
// devDependencies, as sdk-types.test.mjs does for the main entry. Every
// `@ts-expect-error` in them fails the compile when the line below it compiles,
// and a misuse per integration must fail, so the compiles are not vacuous.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { pkgDir, root } from "./helpers.mjs";

const tsc = `${root}node_modules/.bin/tsc`;
const LINKED = ["@modelcontextprotocol/sdk", "@types/node", "openai", "@anthropic-ai/sdk", "@google/genai", "ai", "ai5", "ai6", "zod"];

const consumer = mkdtempSync(join(tmpdir(), "toolschema-integration-types-"));
after(() => rmSync(consumer, { recursive: true, force: true }));
for (const [name, target] of [["toolschema", pkgDir], ...LINKED.map((n) => [n, `${root}node_modules/${n}`])]) {
  mkdirSync(join(consumer, "node_modules", name, ".."), { recursive: true });
  symlinkSync(target, join(consumer, "node_modules", name), "dir");
}
writeFileSync(join(consumer, "package.json"), JSON.stringify({ private: true, type: "module" }));

// `node`: @types/node for the Fetch API's Request and Response, as a Node
// consumer has them (MCP, proxy); `dom`: the AI SDK's declarations use the
// DOM's fetch and stream types. The SDKs' own types need skipLibCheck.
function compile(file, env) {
  const compilerOptions =
    env === "node"
      ? { strict: true, noEmit: true, lib: ["es2022"], types: ["node"], module: "nodenext", moduleResolution: "nodenext", skipLibCheck: true }
      : { strict: true, noEmit: true, lib: ["es2022", "dom"], types: [], module: "nodenext", moduleResolution: "nodenext", skipLibCheck: true };
  const project = join(consumer, `tsconfig.${file}.json`);
  writeFileSync(project, JSON.stringify({ compilerOptions, files: [file] }));
  return spawnSync(tsc, ["-p", project], { encoding: "utf8" });
}

describe("integration types", () => {
  for (const [file, env] of [["integrations.ts", "node"], ["ai-sdk.ts", "dom"], ["sdk-converters.ts", "dom"]]) {
    test(`tests/js/types/${file} compiles under strict (every @ts-expect-error is needed)`, () => {
      const mts = file.replace(/\.ts$/, ".mts");
      copyFileSync(`${root}tests/js/types/${file}`, join(consumer, mts));
      const run = compile(mts, env);
      assert.equal(run.status, 0, run.stdout + run.stderr);
    });
  }

  test("the compile can fail: misuses of the wrapped MCP client are reported", () => {
    writeFileSync(join(consumer, "misuse-mcp.mts"), `import { Client } from "@modelcontextprotocol/sdk/client/index.js";
    import { withToolSchema } from "toolschema/mcp";
    const mcp = withToolSchema(new Client({ name: "x", version: "1" }), { target: "openai" });
    const count: number = (await mcp.listTools()).tools;
    await mcp.callTool({ arguments: {} });
    void count;\n`);
    const run = compile("misuse-mcp.mts", "node");
    assert.notEqual(run.status, 0);
    assert.match(run.stdout, /misuse-mcp\.mts\(4,\d+\): error TS2322/);
    assert.match(run.stdout, /misuse-mcp\.mts\(5,\d+\): error TS2741/);
  });

  test("the compile can fail: ai 6's wrapLanguageModel refuses a v4 middleware without @ts-expect-error", () => {
    writeFileSync(
      join(consumer, "misuse-ai.mts"),
      `import { wrapLanguageModel } from "ai6";
      import { MockLanguageModelV3 } from "ai6/test";
      import { toolschemaMiddleware } from "toolschema/ai-sdk";
      const model = new MockLanguageModelV3();
      wrapLanguageModel({ model, middleware: toolschemaMiddleware({ specificationVersion: "v4" }) });\n`,
    );
    const run = compile("misuse-ai.mts", "dom");
    assert.notEqual(run.status, 0);
    assert.match(run.stdout, /TS2322|TS2769|TS2345/);
  });
});
