// The packed package (npm pack pkg/) installed into a scratch consumer
// project, then imported by name in each runtime: Node (ESM, CommonJS, the
// bin), Bun, Deno without permission flags, workerd (bundled by wrangler with
// the workerd condition), Chromium, and the browser entry's init() under
// Node. Each runs the same smoke (normalize, a deliberate trap, recovery, an
// error) and must answer what the in-process package answers. Runtimes come
// from devDependencies and Debian's chromium; a missing one is a skip naming
// its setup script, never a silent pass.
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { promisify } from "node:util";
import { after, before, describe, test } from "node:test";
import { TRIVIAL, freePort, pkgDir, quietly, root, ts } from "./helpers.mjs";

const run = promisify(execFile);
const bin = (name) => `${root}node_modules/.bin/${name}`;
const missing = (path, how) => (existsSync(path) ? false : `${path} missing: run ${how}`);
const work = mkdtempSync(join(tmpdir(), "toolschema-consumer-"));
after(() => rmSync(work, { recursive: true, force: true }));

// The smoke, as source text so every runtime runs the same code. `ts` is the
// imported package; console.error is silenced around the deliberate panic.
const SMOKE = `(ts) => {
  const out = { version: ts.version(), targets: ts.targets().length };
  out.trivial = ts.normalize(${JSON.stringify(TRIVIAL)}, "mcp").schema;
  const log = console.error; console.error = () => {};
  try { ts.version[Symbol.for("toolschema.panicForTest")](); } catch (e) { out.trap = [e.name, e.code]; } finally { console.error = log; }
  out.after = ts.normalizeSchemaForMCP({ type: "string" });
  try { ts.normalize("{", "mcp"); } catch (e) { out.error = [e instanceof ts.ToolSchemaError, e.code]; }
  return out;
}`;
const expected = quietly(() => eval(SMOKE)(ts));
assert.deepEqual(expected.trap, ["ToolSchemaError", "internal"]);

const file = (name, text) => (writeFileSync(join(work, name), text), join(work, name));
const esmSmoke = `import * as ts from "toolschema";\nconsole.log(JSON.stringify((${SMOKE})(ts)));\n`;
const cjsSmoke = `const ts = require("toolschema");\nconsole.log(JSON.stringify((${SMOKE})(ts)));\n`;
const lastJson = (stdout) => JSON.parse(stdout.trim().split("\n").at(-1));
const inWork = { cwd: work, env: { ...process.env, NO_COLOR: "1" } };

// The consumer's files over loopback HTTP. `wasmType` lets a test serve the
// .wasm with another content type, as misconfigured servers do.
let server;
let origin;
let wasmType = "application/wasm";
const TYPES = { ".mjs": "text/javascript", ".js": "text/javascript", ".html": "text/html" };

before(async () => {
  const [{ filename }] = JSON.parse(execFileSync("npm", ["pack", pkgDir, "--pack-destination", work, "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
  file("package.json", JSON.stringify({ private: true, type: "module", dependencies: { toolschema: `file:./${filename}` } }));
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: work, stdio: "ignore" });

  server = createServer((req, res) => {
    const path = join(work, new URL(req.url, "http://x").pathname);
    if (!path.startsWith(work) || !existsSync(path)) return res.writeHead(404).end();
    const type = extname(path) === ".wasm" ? wasmType : TYPES[extname(path)] ?? "application/octet-stream";
    res.writeHead(200, { "content-type": type }).end(readFileSync(path));
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  origin = `http://127.0.0.1:${server.address().port}`;
});
after(() => server?.close());

describe("the packed package in each runtime", () => {
  test("Node: ESM, CommonJS, and the toolschema bin", async () => {
    assert.deepEqual(lastJson((await run(process.execPath, [file("node.mjs", esmSmoke)], inWork)).stdout), expected);
    assert.deepEqual(lastJson((await run(process.execPath, [file("node.cjs", cjsSmoke)], inWork)).stdout), expected);
    const { stdout } = await run(join(work, "node_modules/.bin/toolschema"), ["targets", "--compact"], inWork);
    assert.deepEqual(JSON.parse(stdout), ts.targets());
  });

  // Node before 20.16 and 22.3 has no process.getBuiltinModule: the ES
  // module entry then imports node:fs itself. Where there is one, the entry
  // imports no built-in (a built-in's module wrapper costs start-up time).
  test("Node without process.getBuiltinModule: the ES module entry imports node:fs", async () => {
    const noBuiltins = file("no-builtin-module.mjs", "delete process.getBuiltinModule;\n");
    const { stdout } = await run(process.execPath, ["--import", noBuiltins, file("node-old.mjs", esmSmoke)], inWork);
    assert.deepEqual(lastJson(stdout), expected);
    const entry = readFileSync(join(work, "node_modules/toolschema/node.mjs"), "utf8");
    assert.deepEqual(entry.match(/^import .*$/gm), ['import * as glue from "./toolschema_glue.mjs";']);
  });

  test("Bun: ESM and CommonJS", { skip: missing(bin("bun"), "scripts/setup.sh") }, async () => {
    assert.deepEqual(lastJson((await run(bin("bun"), [file("bun.mjs", esmSmoke)], inWork)).stdout), expected);
    assert.deepEqual(lastJson((await run(bin("bun"), [file("bun.cjs", cjsSmoke)], inWork)).stdout), expected);
  });

  const deno = missing(bin("deno"), "scripts/setup.sh");
  test("Deno without permission flags; PI_NO_STRICT is then ignored, not an error or a prompt", { skip: deno }, async () => {
    const script = file("deno.mjs", `${esmSmoke}
      const s = ${JSON.stringify(TRIVIAL)};
      console.log(JSON.stringify([ts.adaptSchemaForStrict(s, true), ts.tryEnforceStrictSchema(s)]));\n`);
    const { stdout } = await run(bin("deno"), ["run", script], { ...inWork, env: { ...inWork.env, PI_NO_STRICT: "1" } });
    const lines = stdout.trim().split("\n");
    assert.deepEqual(JSON.parse(lines.at(-2)), expected);
    const [adapted, tried] = JSON.parse(lines.at(-1));
    assert.equal(tried.strict, true);
    assert.deepEqual(adapted, tried);
  });

  test("Deno with --allow-env=PI_NO_STRICT honours the bypass", { skip: deno }, async () => {
    const script = file("deno-env.mjs", `import * as ts from "toolschema";
      console.log(JSON.stringify(ts.adaptSchemaForStrict(${JSON.stringify(TRIVIAL)}, true)));\n`);
    const { stdout } = await run(bin("deno"), ["run", "--allow-env=PI_NO_STRICT", script], { ...inWork, env: { ...inWork.env, PI_NO_STRICT: "yes" } });
    assert.deepEqual(lastJson(stdout), { strict: false, schema: ts.normalize(TRIVIAL, "openai").schema });
  });

  test("workerd: wrangler bundles the workerd entry; an HTTP request runs the smoke", { skip: missing(bin("wrangler"), "scripts/setup.sh") }, async () => {
    file("worker.mjs", `import * as ts from "toolschema";
      export default { async fetch() { return Response.json((${SMOKE})(ts)); } };\n`);
    file("wrangler.toml", 'name = "smoke"\nmain = "worker.mjs"\ncompatibility_date = "2024-09-23"\n');
    // --outdir is relative to wrangler.toml's folder (toolchain.md pitfall 10).
    await run(bin("wrangler"), ["deploy", "--dry-run", "--outdir", "dist"], { ...inWork, env: { ...inWork.env, WRANGLER_SEND_METRICS: "false", CI: "true" } });
    const wasm = readdirSync(join(work, "dist")).filter((f) => f.endsWith(".wasm"));
    assert.equal(wasm.length, 1, "the bundle carries the one .wasm as a module");
    const port = await freePort();
    const config = file("config.capnp", `using Workerd = import "/workerd/workerd.capnp";
      const config :Workerd.Config = (
        services = [(name = "main", worker = .worker)],
        sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
      );
      const worker :Workerd.Worker = (
        modules = [
          (name = "worker.js", esModule = embed "dist/worker.js"),
          (name = "./${wasm[0]}", wasm = embed "dist/${wasm[0]}"),
        ],
        compatibilityDate = "2024-09-23",
      );\n`);
    let log = "";
    const child = execFile(bin("workerd"), ["serve", config], inWork);
    child.stdout.on("data", (chunk) => (log += chunk));
    child.stderr.on("data", (chunk) => (log += chunk));
    try {
      const body = await poll(`http://127.0.0.1:${port}/`).catch((err) => assert.fail(`${err.message}\n${log}`));
      assert.deepEqual(body, expected);
    } finally {
      child.kill();
    }
  });

  test("browser entry under Node: a failed automatic load is reported, init(url) recovers", async () => {
    wasmType = "application/octet-stream"; // also exercises the non-streaming compile
    const script = file("browser-node.mjs", `import * as ts from "toolschema";
      let first = "loaded";
      try { ts.version(); } catch (e) { first = [e.code, /init\\(/.test(e.message)]; }
      await ts.init(${JSON.stringify(`${origin}/node_modules/toolschema/toolschema_bg.wasm`)});
      await ts.init(); // idempotent
      console.log(JSON.stringify([first, (${SMOKE})(ts)]));\n`);
    try {
      const [first, smoke] = lastJson((await run(process.execPath, ["-C", "browser", script], inWork)).stdout);
      // Node 20 cannot fetch file: URLs, so its automatic load fails; a Node
      // that can would simply have loaded the module.
      if (first !== "loaded") assert.deepEqual(first, ["wasm-load-failed", true]);
      assert.deepEqual(smoke, expected);
    } finally {
      wasmType = "application/wasm";
    }
  });

  test("Chromium (headless): the browser entry through an import map", { skip: missing("/usr/bin/chromium", "scripts/setup-browser.sh") }, async () => {
    const { chromium } = await import("playwright-core");
    file("smoke.html", `<!doctype html>
      <script type="importmap">{"imports": {"toolschema": "/node_modules/toolschema/browser.mjs"}}</script>
      <script type="module">
        import * as ts from "toolschema";
        try { window.result = (${SMOKE})(ts); } catch (e) { window.result = { failed: String(e) }; }
        document.title = "done";
      </script>`);
    const context = await chromium.launchPersistentContext(join(work, "chromium-profile"), {
      executablePath: "/usr/bin/chromium",
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    try {
      const page = await context.newPage();
      await page.goto(`${origin}/smoke.html`);
      await page.waitForFunction(() => document.title === "done", null, { timeout: 20_000 });
      assert.deepEqual(await page.evaluate(() => window.result), expected);
    } finally {
      await context.close();
    }
  });
});

async function poll(url) {
  for (let i = 0; i < 100; i++) {
    try {
      return await (await fetch(url)).json();
    } catch {
      await new Promise((ok) => setTimeout(ok, 100));
    }
  }
  throw new Error(`${url} did not answer within 10 s`);
}
