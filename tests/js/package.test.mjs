// The package as npm would ship it: manifest, which file each runtime's
// conditions resolve to, and the hand-written types, checked with tsc against
// the runtime exports and in consumer configurations without DOM types.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { after, describe, test } from "node:test";
import { pkgDir, root, ts } from "./helpers.mjs";

const manifest = JSON.parse(readFileSync(`${pkgDir}package.json`, "utf8"));

// A consumer directory whose node_modules/toolschema is the built package.
const consumer = mkdtempSync(join(tmpdir(), "toolschema-consumer-"));
mkdirSync(join(consumer, "node_modules"));
symlinkSync(pkgDir, join(consumer, "node_modules", "toolschema"), "dir");
after(() => rmSync(consumer, { recursive: true, force: true }));

describe("manifest", () => {
  test("conditions in the order runtimes need (workerd before browser, deno and bun before node)", () => {
    const conditions = Object.keys(manifest.exports["."]);
    assert.deepEqual(conditions, ["types", "workerd", "browser", "deno", "bun", "node", "require", "default"]);
    assert.equal(manifest.exports["."].default, "./browser.mjs");
    assert.equal(manifest.exports["./toolschema_bg.wasm"], "./toolschema_bg.wasm");
  });

  test("no sideEffects: false (loading the wasm at import is a side effect)", () => {
    assert.equal(manifest.sideEffects, undefined);
  });

  // gpt-tokenizer is for toolschema/cost only (js/cost.mjs says why it is a
  // peer): optional, so installing toolschema never pulls it in.
  test("no runtime dependencies; the one peer, cost's tokenizer, is optional", () => {
    assert.equal(manifest.dependencies, undefined);
    assert.deepEqual(Object.keys(manifest.peerDependencies ?? {}), ["gpt-tokenizer"]);
    assert.deepEqual(manifest.peerDependenciesMeta, { "gpt-tokenizer": { optional: true } });
  });

  test("one .wasm file, shared by every entry", () => {
    assert.deepEqual(readdirSync(pkgDir).filter((f) => f.endsWith(".wasm")), ["toolschema_bg.wasm"]);
  });

  test("npm pack ships exactly the listed files", () => {
    const [packed] = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", pkgDir], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
    const shipped = packed.files.map((f) => f.path).sort();
    assert.deepEqual(shipped, [...manifest.files, "README.md", "package.json"].sort());
  });
});

describe("resolution per runtime condition", () => {
  const resolve = (conditions, how) => {
    const flags = conditions.flatMap((c) => ["-C", c]);
    const code = how === "import"
      ? 'console.log(import.meta.resolve("toolschema"))'
      : 'console.log(require.resolve("toolschema"))';
    const args = how === "import" ? [...flags, "--input-type=module", "-e", code] : [...flags, "-e", code];
    return basename(execFileSync(process.execPath, args, { cwd: consumer, encoding: "utf8" }).trim());
  };
  for (const [conditions, imported, required] of [
    [[], "node.mjs", "index.cjs"],
    [["bun"], "node.mjs", "index.cjs"],
    [["deno"], "deno.mjs", "deno.mjs"],
    [["workerd"], "workerd.mjs", "workerd.mjs"],
    [["browser"], "browser.mjs", "browser.mjs"],
    [["workerd", "worker", "browser"], "workerd.mjs", "workerd.mjs"],
  ]) {
    test(`conditions [${conditions.join(", ") || "node defaults"}]: import ${imported}, require ${required}`, () => {
      assert.equal(resolve(conditions, "import"), imported);
      assert.equal(resolve(conditions, "require"), required);
    });
  }

  test("the .wasm is reachable as a subpath", () => {
    const out = execFileSync(process.execPath, ["-e", 'console.log(require.resolve("toolschema/toolschema_bg.wasm"))'], { cwd: consumer, encoding: "utf8" });
    assert.equal(basename(out.trim()), "toolschema_bg.wasm");
  });
});

describe("types", () => {
  const dts = readFileSync(`${pkgDir}index.d.ts`, "utf8");

  test("index.d.ts declares exactly the runtime exports (and .d.cts is the same)", () => {
    const declared = [...dts.matchAll(/^export declare (?:function|class) (\w+)/gm)].map((m) => m[1]).sort();
    const runtime = Object.keys(ts).sort(); // no internals: the trap hook is not an export
    assert.deepEqual(declared, runtime);
    assert.equal(readFileSync(`${pkgDir}index.d.cts`, "utf8"), dts);
  });

  // NormalizeOptions is hand-written; the core's Options struct is the truth.
  test("NormalizeOptions names exactly the core's options, and the core accepts each", () => {
    const body = dts.match(/export interface NormalizeOptions \{\n([\s\S]*?)\n\}/)[1];
    const declared = [...body.matchAll(/^\s+(\w+)\?: (.+);$/gm)].map(([, name, type]) => [name, type]);
    const rust = readFileSync(`${root}src/options.rs`, "utf8").match(/pub struct Options \{\n([\s\S]*?)\n\}/)[1];
    // Fields marked #[serde(skip)] are set by the package itself, never read from options.
    const fields = [...rust.matchAll(/^(\s*#\[serde\(skip\)\]\n)?\s*pub (\w+):/gm)]
      .filter(([, skipped]) => skipped === undefined)
      .map(([, , f]) => f.replace(/_(\w)/g, (_, c) => c.toUpperCase()));
    assert.deepEqual(declared.map(([name]) => name).sort(), fields.sort());
    for (const [name, type] of declared) {
      const value = type.startsWith('"')
        ? JSON.parse(type.split(" | ")[0])
        : type === "boolean"
          ? false
          : type === "string[]"
            ? ["x-unused"]
            : 100;
      assert.doesNotThrow(() => ts.normalize({ type: "string" }, "openai-strict", { [name]: value }), name);
    }
  });

  test("ErrorCode lists every code the core and the JS layer throw", () => {
    const declared = dts.match(/export type ErrorCode =([^;]*);/)[1].match(/"[a-z-]+"/g).map((c) => JSON.parse(c));
    const rust = [...readFileSync(`${root}src/error.rs`, "utf8").matchAll(/=> "([a-z-]+)"/g)].map(([, c]) => c);
    const js = ["cyclic-input", "invalid-value", "unsupported-input", "wasm-load-failed", "missing-dependency", "webmcp-unavailable", "internal"];
    assert.deepEqual(declared.sort(), [...new Set([...rust, ...js])].sort());
  });

  test("every declaration and option has a JSDoc line", () => {
    const lines = dts.split("\n");
    lines.forEach((line, i) => {
      if (/^export declare function|^\s+\w+\??: /.test(line) && !/^\s+(readonly )?(code|pointer)|constructor/.test(line)) {
        assert.match(lines[i - 1], /\*\/\s*$/, `no doc comment above: ${line.trim()}`);
      }
    });
  });

  // TypeScript 7 from devDependencies. Both configurations leave DOM and
  // Node types out: the declarations must stand on ES2022 alone.
  const tsc = `${root}node_modules/.bin/tsc`;
  const usage = `
    const schema = { type: "object", properties: {} };
    const n = normalize(schema, "google", { spill: "none", maxDepth: 64 });
    const s: boolean | undefined = n.strict;
    const lossy: boolean = n.report.lossy;
    const a: { strict: boolean } = adaptSchemaForStrict(schema, true, { noStrict: true });
    const ids: string[] = targets().map((t) => t.id);
    try { enforceStrictSchema(schema); } catch (e) { if (e instanceof ToolSchemaError) { const c: string = e.code + e.pointer; } }
    // @ts-expect-error spill takes three values only
    normalize(schema, "mcp", { spill: "sometimes" });
    // @ts-expect-error normalizeSchema options are an object
    normalizeSchema(schema, "google");
    const call = prepareToolCall<{ query: string }>('{"query": "x"}', { name: "search", inputSchema: schema }, { target: "openai-strict" });
    const q: string | undefined = call.ok ? call.args.query : call.message;
    const v: boolean = validateArguments({}, schema).errors.every((e) => e.message.length > 0);
    const r: unknown = restoreArguments({ value: 1 }, { type: "integer" }, "google", { emptyStrings: true }).args;
    // @ts-expect-error restoreArguments needs a target
    restoreArguments({}, schema);
    void [s, lossy, a, ids, init, version, checkSchema, normalizeSchemaForCCA, q, v, r, repairArguments];
  `;
  const names = "normalize, normalizeSchema, adaptSchemaForStrict, targets, enforceStrictSchema, ToolSchemaError, init, version, checkSchema, normalizeSchemaForCCA, prepareToolCall, validateArguments, restoreArguments, repairArguments";

  function typecheck(dir, files, compilerOptions) {
    const project = join(consumer, dir);
    mkdirSync(project);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(project, name), text);
    const config = { compilerOptions: { strict: true, noEmit: true, lib: ["es2022"], types: [], ...compilerOptions }, include: Object.keys(files) };
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify(config));
    const run = spawnSync(tsc, ["-p", project], { encoding: "utf8" });
    assert.equal(run.status, 0, run.stdout + run.stderr);
  }

  test("tsc: nodenext, ESM (.mts) and CommonJS (.cts) consumers", () => {
    typecheck("nodenext", {
      "esm.mts": `import { ${names} } from "toolschema";\n${usage}`,
      "cjs.cts": `import ts = require("toolschema");\nconst { ${names} } = ts;\n${usage}`,
    }, { module: "nodenext", moduleResolution: "nodenext" });
  });

  test("tsc: bundler resolution with the workerd condition", () => {
    typecheck("bundler", { "worker.ts": `import { ${names} } from "toolschema";\n${usage}\nexport {};` },
      { module: "esnext", moduleResolution: "bundler", customConditions: ["workerd"] });
  });
});
