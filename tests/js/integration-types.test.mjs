// The declarations of toolschema/mcp and toolschema/proxy: tests/js/types/
// integrations.ts is compiled with tsc --noEmit under `strict` against the
// built package, resolved by its subpath exports, and the real
// @modelcontextprotocol/sdk types (a devDependency). Its `@ts-expect-error`
// lines (misspelt targets, a target with a route, a missing upstream) fail
// the compile if they ever type-check.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { pkgDir, root } from "./helpers.mjs";

const tsc = `${root}node_modules/.bin/tsc`;
const consumer = mkdtempSync(join(tmpdir(), "toolschema-integration-types-"));
after(() => rmSync(consumer, { recursive: true, force: true }));
for (const [name, target] of [["toolschema", pkgDir], ...["@modelcontextprotocol/sdk", "@types/node", "zod"].map((n) => [n, `${root}node_modules/${n}`])]) {
  mkdirSync(join(consumer, "node_modules", name, ".."), { recursive: true });
  symlinkSync(target, join(consumer, "node_modules", name), "dir");
}
writeFileSync(join(consumer, "package.json"), JSON.stringify({ private: true, type: "module" }));

function compile(file) {
  const config = {
    // @types/node for the Fetch API's Request and Response, as a Node
    // consumer has them; the SDK's own types need skipLibCheck as everywhere.
    compilerOptions: { strict: true, noEmit: true, lib: ["es2022"], types: ["node"], module: "nodenext", moduleResolution: "nodenext", skipLibCheck: true },
    files: [file],
  };
  const project = join(consumer, `tsconfig.${file}.json`);
  writeFileSync(project, JSON.stringify(config));
  return spawnSync(tsc, ["-p", project], { encoding: "utf8" });
}

test("tests/js/types/integrations.ts compiles under strict (every @ts-expect-error is needed)", () => {
  copyFileSync(`${root}tests/js/types/integrations.ts`, join(consumer, "integrations.mts"));
  const run = compile("integrations.mts");
  assert.equal(run.status, 0, run.stdout + run.stderr);
});

test("the compile can fail: misuses of the wrapped client are reported, so the test above is not vacuous", () => {
  writeFileSync(join(consumer, "misuse.mts"), `import { Client } from "@modelcontextprotocol/sdk/client/index.js";
    import { withToolSchema } from "toolschema/mcp";
    const mcp = withToolSchema(new Client({ name: "x", version: "1" }), { target: "openai" });
    const count: number = (await mcp.listTools()).tools;
    await mcp.callTool({ arguments: {} });
    void count;\n`);
  const run = compile("misuse.mts");
  assert.notEqual(run.status, 0);
  assert.match(run.stdout, /misuse\.mts\(4,\d+\): error TS2322/);
  assert.match(run.stdout, /misuse\.mts\(5,\d+\): error TS2741/);
});
