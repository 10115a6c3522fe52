// A failed load of the .wasm by the browser entry is a deployment problem,
// not a bug: it arrives as a ToolSchemaError "wasm-load-failed" that names
// the source and says what to do, from init() and from every call until a
// load succeeds, and a later init() with the right source still works. Run
// in child processes (the entry shares the glue module with pkg/node.mjs, so
// loading it here would swap the instance under the other suites), under
// Node's `browser` condition; Node 20 cannot fetch file: URLs, so the
// automatic load at import fails as it does when a bundler leaves the file
// behind.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { promisify } from "node:util";
import { after, before, describe, test } from "node:test";
import { pkgDir } from "./helpers.mjs";

const run = promisify(execFile);
const wasm = readFileSync(`${pkgDir}toolschema_bg.wasm`);

// Loopback only: /ok.wasm is the module, /page.wasm an HTML page (a server's
// fallback route), anything else a 404.
let server;
let origin;
before(async () => {
  server = createServer((req, res) => {
    if (req.url === "/ok.wasm") return res.writeHead(200, { "content-type": "application/wasm" }).end(wasm);
    if (req.url === "/page.wasm") return res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><p>app</p>");
    res.writeHead(404).end();
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  origin = `http://127.0.0.1:${server.address().port}`;
});
after(() => server?.close());

/** Runs `body` (an async module body with `ts`, the browser entry, in scope) and returns what it printed as JSON. */
async function browserEntry(body) {
  const script = `const ts = await import(${JSON.stringify(`${pkgDir}browser.mjs`)});
    const seen = (e) => ({ name: e?.name, code: e?.code, message: e?.message, cause: e?.cause?.name, isError: e instanceof ts.ToolSchemaError });
    const out = {};
    ${body}
    console.log(JSON.stringify(out));`;
  const { stdout } = await run(process.execPath, ["-C", "browser", "--input-type=module", "-e", script], { timeout: 60_000 });
  return JSON.parse(stdout.trim().split("\n").at(-1));
}

describe("the browser entry when the .wasm does not load", () => {
  test("calls after a failed automatic load throw wasm-load-failed, naming the file and init()", async () => {
    const out = await browserEntry(`try { out.version = ts.version(); } catch (e) { out.error = seen(e); }`);
    if (out.version !== undefined) return; // a Node that fetches file: URLs simply loaded it
    assert.equal(out.error.code, "wasm-load-failed");
    assert.equal(out.error.isError, true);
    assert.match(out.error.message, /toolschema_bg\.wasm/);
    assert.match(out.error.message, /init\(url\)/);
    assert.doesNotMatch(out.error.message, /a bug/);
  });

  for (const [what, source, reason] of [
    ["bytes that are not wasm", "new Uint8Array([0, 1, 2, 3])", /the 4 bytes given: .*magic word/],
    ["a wasm module that is not this package's", "new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0])", /the 8 bytes given: it is not toolschema's WebAssembly module/],
    ["a URL that answers 404", "`${ORIGIN}/missing.wasm`", /\/missing\.wasm: fetching .*HTTP 404/],
    ["a URL that answers an HTML page", "`${ORIGIN}/page.wasm`", /\/page\.wasm: .*magic word/],
  ]) {
    test(`init() with ${what} rejects with wasm-load-failed; the right source then loads`, async () => {
      const out = await browserEntry(`const ORIGIN = ${JSON.stringify(origin)};
        try { await ts.init(${source}); out.loaded = true; } catch (e) { out.init = seen(e); }
        try { ts.version(); } catch (e) { out.call = seen(e); }
        await ts.init(ORIGIN + "/ok.wasm");
        out.after = ts.normalize({ type: "string" }, "mcp").schema.type;`);
      assert.equal(out.loaded, undefined, "the bad source loaded");
      assert.equal(out.init.code, "wasm-load-failed");
      assert.equal(out.init.isError, true);
      assert.match(out.init.message, reason);
      assert.match(out.init.message, /init\(url\)/);
      assert.ok(out.init.cause, "the underlying error is the cause");
      // Until a load succeeds, calls say why the last one failed.
      assert.equal(out.call.code, "wasm-load-failed");
      assert.equal(out.call.message, out.init.message);
      assert.equal(out.after, "object");
    });
  }
});
