// toolschema/webmcp against a real WebMCP implementation: the built package
// (pkg/) and @mcp-b/webmcp-polyfill (a devDependency) loaded into headless
// Chromium (scripts/setup-browser.sh) through an import map, served over
// 127.0.0.1 (a secure context, which WebMCP requires). Pages register tools
// through `registerTool` and the polyfill's `document.modelContext`; agents
// read them back with `getTools` and run them with the polyfill's
// `executeTool`. The README's WebMCP example runs in the same page.
// Node-only checks (errors, option handling) and the declarations (tsc
// against @mcp-b/webmcp-types, the polyfill's own types) run without it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, resolve, sep } from "node:path";
import { after, before, describe, test } from "node:test";
import { pkgDir, root, ts } from "./helpers.mjs";

const webmcp = await import(new URL("../../pkg/webmcp.mjs", import.meta.url).href);
const CHROMIUM = "/usr/bin/chromium";
const POLYFILL = `${root}node_modules/@mcp-b/webmcp-polyfill/dist/`;
const TYPES = { ".mjs": "text/javascript", ".js": "text/javascript", ".html": "text/html", ".wasm": "application/wasm" };

// The same page both halves run in: a page's tools and an agent reading them.
const PAGE = `<!doctype html><meta charset="utf-8"><title>webmcp</title>
<script type="importmap">{"imports": {"toolschema": "/pkg/browser.mjs", "toolschema/webmcp": "/pkg/webmcp.mjs",
  "@mcp-b/webmcp-polyfill": "/polyfill/index.js"}}</script>
<script type="module">
  import { initializeWebMCPPolyfill } from "@mcp-b/webmcp-polyfill";
  initializeWebMCPPolyfill();
  window.ts = await import("toolschema");
  window.webmcp = await import("toolschema/webmcp");
  document.title = "ready";
</script>`;

/** The README's WebMCP section: its one code block and the lines it says it prints. */
function readmeExample() {
  const readme = readFileSync(`${root}pkg-template/README.md`, "utf8");
  const start = readme.indexOf("\n## WebMCP");
  assert.ok(start >= 0, 'pkg-template/README.md has no "## WebMCP..." section');
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  const blocks = [...section.matchAll(/^```js fragment\n([\s\S]*?)^```$/gm)].map(([, code]) => code);
  assert.equal(blocks.length, 1, "the WebMCP section has one js fragment block");
  const expected = [...blocks[0].matchAll(/console\.log\(.*\);?\s*\/\/ → (.*)$/gm)].map(([, text]) => text.trimEnd());
  return { code: blocks[0], expected };
}

let server;
let context;
let page;

describe("in Chromium with @mcp-b/webmcp-polyfill", () => {
  before(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} missing: run scripts/setup-browser.sh`);
    const { code } = readmeExample();
    const files = { "/index.html": PAGE, "/readme.mjs": code };
    server = createServer((req, res) => {
      const url = decodeURIComponent(new URL(req.url, "http://x").pathname);
      if (files[url] !== undefined) return res.writeHead(200, { "content-type": TYPES[extname(url)] }).end(files[url]);
      const [base, dir] = url.startsWith("/pkg/") ? ["/pkg/", pkgDir] : url.startsWith("/polyfill/") ? ["/polyfill/", POLYFILL] : [];
      const path = dir && resolve(dir, url.slice(base.length));
      if (!path || !path.startsWith(resolve(dir) + sep) || !statSync(path, { throwIfNoEntry: false })?.isFile()) return res.writeHead(404).end();
      res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" }).end(readFileSync(path));
    });
    await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
    const { chromium } = await import("playwright-core");
    context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "toolschema-webmcp-profile-")), {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    page = await context.newPage();
    const errors = [];
    page.on("pageerror", (err) => errors.push(err.message));
    await page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
    await page.waitForFunction(() => document.title === "ready", null, { timeout: 30_000 }).catch((err) => {
      throw new Error(`${err.message.split("\n")[0]}; page errors: ${errors.join(" | ") || "none"}`);
    });
  });

  after(async () => {
    await context?.close();
    server?.close();
  });

  /** Runs `fn` in a fresh page (a fresh polyfill registry), as JSON in and out. */
  async function inPage(fn, arg) {
    await page.reload();
    await page.waitForFunction(() => document.title === "ready", null, { timeout: 30_000 });
    return JSON.parse(await page.evaluate(async ([source, a]) => JSON.stringify(await eval(`(${source})`)(a)), [fn.toString(), arg]));
  }

  // A schema that registration in the WebMCP subset would refuse as written: a
  // $ref, a format, a nullable union, a oneOf of constants, an open map with a
  // value schema (webmachinelearning/webmcp#289).
  const ORDER = {
    type: "object",
    $defs: { Sku: { type: "string", pattern: "^[A-Z]{3}-[0-9]{4}$" } },
    properties: {
      sku: { $ref: "#/$defs/Sku" },
      quantity: { type: "integer", minimum: 1 },
      email: { type: "string", format: "email" },
      note: { anyOf: [{ type: "string", maxLength: 200 }, { type: "null" }] },
      speed: { oneOf: [{ const: "standard" }, { const: "express" }] },
      labels: { type: "object", additionalProperties: { type: "string" } },
    },
    required: ["sku", "quantity"],
    additionalProperties: false,
  };

  // The order without its map, for the agent's side below (the map would go
  // out as entries there too).
  const STRICT_ORDER = { ...ORDER, properties: Object.fromEntries(Object.entries(ORDER.properties).filter(([name]) => name !== "labels")) };

  describe("pages: registerTool in Chromium with @mcp-b/webmcp-polyfill", () => {
    test("the registered schema is in WebMCP's subset; the tool's execute gets checked, repaired arguments", async () => {
      const got = await inPage(async (schema) => {
        const calls = [];
        const registered = await webmcp.registerTool(null, {
          name: "place.order",
          description: "Place an order",
          inputSchema: schema,
          execute: (args) => {
            calls.push(args);
            return { content: [{ type: "text", text: `ordered ${args.quantity}` }] };
          },
        });
        const [listed] = await document.modelContext.getTools();
        const run = (args) => document.modelContext.executeTool(listed, JSON.stringify(args));
        const ok = await run({ sku: "ABC-1234", quantity: "3", note: null, speed: "express", labels: [{ key: "gift", value: "yes" }] });
        const bad = await run({ sku: "abc", quantity: 0 });
        return {
          registered,
          listed: listed.inputSchema,
          violations: ts.checkSchema(listed.inputSchema, "webmcp"),
          asWritten: ts.checkSchema(schema, "webmcp").map((v) => v.code),
          ok: JSON.parse(ok),
          bad: JSON.parse(bad),
          calls,
        };
      }, ORDER);
      // What the polyfill holds and hands to agents is what registerTool normalized.
      assert.deepEqual(got.listed, got.registered.inputSchema);
      assert.deepEqual(got.violations, []);
      assert.ok(got.asWritten.includes("forbidden-keyword") && got.asWritten.includes("additional-properties-not-false"), String(got.asWritten));
      const props = got.listed.properties;
      assert.deepEqual(props.sku, { type: "string", pattern: "^[A-Z]{3}-[0-9]{4}$" });
      assert.deepEqual(props.note, { type: ["string", "null"], maxLength: 200 });
      assert.deepEqual(props.speed, { enum: ["standard", "express"] });
      // WebMCP takes additionalProperties only as false: the typed map goes
      // out as {key, value} entries, and comes back as the map (below).
      assert.equal(props.labels.type, "array");
      assert.deepEqual(props.labels.items.properties, { key: { type: "string" }, value: { type: "string" } });
      assert.match(props.email.description, /format/);
      const lossy = got.registered.report.diagnostics.filter((d) => d.lossy).map((d) => [d.code, d.pointer]);
      assert.deepEqual(lossy.sort(), [
        ["keyword-spilled", "/properties/email"],
        ["one-of-to-any-of", "/properties/speed"],
      ]);
      // "3" was repaired to 3 and the entries became the map before execute ran; the second call never reached it.
      assert.deepEqual(got.calls, [{ sku: "ABC-1234", quantity: 3, note: null, speed: "express", labels: { gift: "yes" } }]);
      assert.deepEqual(got.ok.content, [{ type: "text", text: "ordered 3" }]);
      assert.equal(got.bad.isError, true);
      assert.match(got.bad.content[0].text, /sku/);
      assert.match(got.bad.content[0].text, /quantity/);
    });

    test("options.onInvalid answers a call that does not fit; the deprecated navigator.modelContext is the fallback", async () => {
      const got = await inPage(async () => {
        const ran = [];
        // Only the deprecated name: the helper must find it there.
        const ctx = document.modelContext;
        Object.defineProperty(Document.prototype, "modelContext", { configurable: true, get: () => undefined });
        await webmcp.registerTool(undefined, {
          name: "ping",
          description: "Ping",
          inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
          execute: (args) => ran.push(args),
        }, { onInvalid: (prepared) => `refused: ${prepared.errors.map((e) => e.pointer || "/").join(",")}` });
        const [tool] = await navigator.modelContext.getTools();
        return { answer: await ctx.executeTool(tool, JSON.stringify({ n: "x" })), ran };
      });
      assert.equal(got.answer, "refused: /n");
      assert.deepEqual(got.ran, []);
    });
  });

  describe("agents: getTools in Chromium with @mcp-b/webmcp-polyfill", () => {
    test("schemas normalized for the agent's target, names the provider takes, calls restored before the page's tool runs", async () => {
      const got = await inPage(async (schema) => {
        const calls = [];
        // Registered by the page as written, straight through the polyfill.
        await document.modelContext.registerTool({
          name: "place.order",
          description: "Place an order",
          inputSchema: schema,
          execute: (args) => (calls.push(args), "placed"),
        });
        const agent = await webmcp.getTools(null, { provider: "openai", model: "gpt-5", strict: true });
        const [tool] = agent.tools;
        const strict = agent.telemetry.tools[0].strict;
        // A strict model sends every property, null for the optional ones.
        const sent = { sku: "ABC-1234", quantity: 2, email: null, note: null, speed: null };
        const done = await agent.execute(tool.name, sent);
        const refused = await agent.execute(tool.name, { sku: "ABC-1234" });
        return { target: agent.target, tool, strict, names: agent.telemetry.names, violations: ts.checkSchema(tool.inputSchema, "openai-strict"), done, refused, calls };
      }, STRICT_ORDER);
      assert.equal(got.target, "openai-strict");
      assert.equal(got.strict, true);
      assert.deepEqual(got.violations, []);
      // OpenAI refuses "." in a function name; the call comes back by the name sent.
      assert.match(got.tool.name, /^[a-zA-Z0-9_-]+$/);
      assert.deepEqual(got.names, { [got.tool.name]: "place.order" });
      // The null the strict schema made the model send for optional fields is gone;
      // `note` is nullable as written, so its null stays.
      assert.deepEqual(got.calls, [{ sku: "ABC-1234", quantity: 2, note: null }]);
      assert.equal(got.done.ok, true);
      assert.equal(got.done.result, "placed");
      assert.equal(got.refused.ok, false);
      assert.match(got.refused.message, /quantity/);
    });

    test("inputSchema as JSON text (Chrome 149-154, webmcp#278/#287) reads as the object does; one unreadable schema fails only its tool", async () => {
      const got = await inPage(async (schema) => {
        await document.modelContext.registerTool({ name: "order", description: "Order", inputSchema: schema, execute: () => "ok" });
        await document.modelContext.registerTool({ name: "zz", description: "Broken", inputSchema: { type: "object" }, execute: () => "ok" });
        const byObject = await webmcp.getTools(document.modelContext, { target: "google" });
        // The generation before webmcp#241: getTools() serialized each schema; the
        // second arrives truncated, as a broken serialization would.
        const older = {
          getTools: async () =>
            (await document.modelContext.getTools()).map((t) => ({ ...t, inputSchema: t.name === "zz" ? "{\"type\":" : JSON.stringify(t.inputSchema) })),
          executeTool: (tool, input) => document.modelContext.executeTool(tool, input),
        };
        const byText = await webmcp.getTools(older, { target: "google" });
        return { byObject: byObject.tools, byText: byText.tools, errors: byText.telemetry.tools.map((t) => t.error?.code ?? null), run: await byText.execute("order", { sku: "ABC-1234", quantity: 1 }) };
      }, ORDER);
      assert.deepEqual(got.byText[0], got.byObject[0]);
      assert.equal(got.byObject[0].inputSchema.properties.quantity.type, "integer");
      assert.deepEqual(got.errors, [null, "not-a-schema"]);
      assert.deepEqual(got.byText[1].inputSchema, { type: "object", properties: {} });
      assert.equal(got.run.ok, true);
    });

    test("the README's WebMCP example runs in the page and prints what it says", async () => {
      const { expected } = readmeExample();
      assert.ok(expected.length > 0);
      const printed = await inPage(async () => {
        const lines = [];
        const log = console.log;
        console.log = (...args) => lines.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
        try {
          await import(`/readme.mjs?${Date.now()}`);
        } finally {
          console.log = log;
        }
        return lines;
      });
      let at = 0;
      for (const want of expected) {
        const found = printed.indexOf(want, at);
        assert.ok(found >= 0, `expected ${JSON.stringify(want)} in order in:\n${printed.join("\n")}`);
        at = found + 1;
      }
    });
  });

});

describe("without a browser", () => {
  test("no modelContext anywhere is webmcp-unavailable, with what to do", async () => {
    for (const fn of [() => webmcp.registerTool(null, { name: "a", description: "a", execute() {} }), () => webmcp.getTools(undefined, { target: "openai" })]) {
      await assert.rejects(fn, (err) => err instanceof ts.ToolSchemaError && err.code === "webmcp-unavailable" && /polyfill/.test(err.message));
    }
  });

  test("bad tools and options are invalid-options; a bad schema is the core's error", async () => {
    const ctx = { registerTool: async () => assert.fail("must not register"), getTools: async () => [] };
    const code = (c, pointer = "") => (err) => err instanceof ts.ToolSchemaError && err.code === c && err.pointer === pointer;
    await assert.rejects(webmcp.registerTool(ctx, { name: "a", description: "a" }), code("invalid-options", "/execute"));
    await assert.rejects(webmcp.registerTool(ctx, { name: "a", description: "a", execute() {} }, { emptyString: true }), code("invalid-options"));
    await assert.rejects(webmcp.registerTool(ctx, { name: "a", description: "a", inputSchema: "{", execute() {} }), code("invalid-json"));
    await assert.rejects(webmcp.getTools(ctx, {}), code("invalid-options"));
    await assert.rejects(webmcp.getTools(ctx, { target: "openai", input: "text" }), code("invalid-options"));
    await assert.rejects(webmcp.getTools({ getTools: async () => ({}) }, { target: "openai" }), code("not-a-schema"));
    // An agent's modelContext without executeTool can still prepare calls.
    const agent = await webmcp.getTools({ getTools: async () => [{ name: "t", description: "t", inputSchema: { type: "object", properties: { n: { type: "integer" } } } }] }, { target: "openai" });
    assert.deepEqual(agent.prepare("t", { n: "4" }).args, { n: 4 });
    await assert.rejects(agent.execute("t", { n: 4 }), code("webmcp-unavailable"));
  });
});

describe("declarations (tsc against @mcp-b/webmcp-types)", () => {
  const tsc = `${root}node_modules/.bin/tsc`;
  const consumer = mkdtempSync(join(tmpdir(), "toolschema-webmcp-types-"));
  after(() => rmSync(consumer, { recursive: true, force: true }));
  for (const [name, dir] of [["toolschema", pkgDir], ["@mcp-b/webmcp-types", `${root}node_modules/@mcp-b/webmcp-types`]]) {
    mkdirSync(join(consumer, "node_modules", name, ".."), { recursive: true });
    symlinkSync(dir, join(consumer, "node_modules", name), "dir");
  }
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ private: true, type: "module" }));
  const compile = (code) => {
    writeFileSync(join(consumer, "use.mts"), code);
    const config = { compilerOptions: { strict: true, noEmit: true, lib: ["es2022", "dom"], types: [], module: "nodenext", moduleResolution: "nodenext", skipLibCheck: true }, files: ["use.mts"] };
    writeFileSync(join(consumer, "tsconfig.json"), JSON.stringify(config));
    return spawnSync(tsc, ["-p", consumer], { encoding: "utf8" });
  };

  test("the polyfill's ModelContext is accepted; results are typed; misuse does not compile", () => {
    const run = compile(`import type { ModelContext } from "@mcp-b/webmcp-types";
import { getTools, registerTool } from "toolschema/webmcp";
declare const mc: ModelContext;
const { inputSchema, report } = await registerTool(mc, {
  name: "add", description: "Add", inputSchema: { type: "object", properties: { n: { type: "integer" } } },
  execute: (args: { n: number }) => args.n + 1,
}, { emptyStrings: true });
const type: "object" | undefined = inputSchema?.type;
const lossy: boolean | undefined = report?.lossy;
const agent = await getTools(mc, { target: "anthropic" });
const call = await agent.execute<{ n: number }>(agent.tools[0].name, { n: 1 });
if (call.ok) { const n: number = call.args.n; void n; } else { const m: string = call.message; void m; }
// @ts-expect-error a misspelt target
await getTools(mc, { target: "opneai" });
// @ts-expect-error execute is required
await registerTool(mc, { name: "x", description: "x" });
void type; void lossy;
`);
    assert.equal(run.status, 0, run.stdout + run.stderr);
  });

  test("the compile can fail, so the test above is not vacuous", () => {
    const run = compile(`import { getTools } from "toolschema/webmcp";\nconst t: number = (await getTools(null, { target: "openai" })).target;\nvoid t;\n`);
    assert.notEqual(run.status, 0);
    assert.match(run.stdout, /TS2322/);
  });
});
