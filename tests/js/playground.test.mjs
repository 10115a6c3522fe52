// The playground (examples/playground/, `make playground`) assembled from the
// built package as scripts/playground.mjs assembles it, served by its server,
// and driven in headless Chromium: load, paste a real schema, switch targets,
// select diagnostics, and compare what the page shows with what the package
// returns in Node for the same input. Offline after load, no request leaves
// the page's origin, and axe-core (a dev dependency) finds no WCAG 2.1 A/AA
// violation in either colour scheme. Saves target/playground.png (the
// README's docs/playground.png is a copy of it).
//
// Also the page's two pure modules (the pretty-printer that maps pointers to
// lines, and the line diff) in Node, on every example and its outputs.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { pkgDir, root, ts } from "./helpers.mjs";
// The page's token counts are held to the package's own, in Node.
const { cost, countTokens } = await import(`${pkgDir}cost.mjs`);
import { browserFiles, buildPlayground, serve } from "../../scripts/playground.mjs";
import { diffLines } from "../../examples/playground/diff.mjs";
import { jsonLines, nearestNode } from "../../examples/playground/jsonlines.mjs";

const CHROMIUM = "/usr/bin/chromium";
const EXAMPLES = join(root, "examples/playground/examples");
const index = JSON.parse(readFileSync(join(EXAMPLES, "index.json"), "utf8"));
const example = (file) => readFileSync(join(EXAMPLES, file), "utf8");

describe("the page's modules", () => {
  const values = index.map((e) => JSON.parse(example(e.file)));

  test("every example is listed once with its origin, and every listed file exists", () => {
    const files = readdirSync(EXAMPLES).filter((f) => f !== "index.json").sort();
    assert.deepEqual(index.map((e) => e.file).sort(), files);
    for (const e of index) assert.ok(e.title.length > 0 && e.origin.length > 40, `${e.file}: title and origin`);
  });

  test("jsonLines writes what JSON.stringify(v, null, 2) writes, and each node's span holds that node", () => {
    for (const v of values) {
      for (const target of ["google", "openai-strict", "cca"]) {
        const out = Array.isArray(v) || v.result ? ts.normalizeTools(v, { target }).tools : ts.normalize(v, target).schema;
        for (const doc of [v, out]) {
          const { lines, spans } = jsonLines(doc);
          assert.equal(lines.join("\n"), JSON.stringify(doc, null, 2));
          // A node's lines, without the key before it and the comma after, parse back to the node.
          for (const [pointer, [first, last]] of spans) {
            const text = lines.slice(first, last + 1).join("\n").trim().replace(/^"(?:[^"\\]|\\.)*": /, "").replace(/,$/, "");
            const node = pointer.split("/").slice(1).reduce((o, t) => o[t.replaceAll("~1", "/").replaceAll("~0", "~")], doc);
            assert.deepEqual(JSON.parse(text), node, pointer);
          }
        }
      }
    }
  });

  test("nearestNode: the node, else its closest ancestor", () => {
    const { spans } = jsonLines({ a: { "b/c": [1, { d: 2 }] } });
    assert.deepEqual(nearestNode(spans, "/a/b~1c/1/d"), { pointer: "/a/b~1c/1/d", span: [5, 5], exact: true });
    assert.deepEqual(nearestNode(spans, "/a/b~1c/1/gone/deeper"), { pointer: "/a/b~1c/1", span: [4, 6], exact: false });
    assert.equal(nearestNode(spans, "/nothing").pointer, "");
  });

  test("diffLines: every line of both sides once and in order; equal rows only where lines are equal", () => {
    const check = (a, b) => {
      const rows = diffLines(a, b);
      assert.deepEqual(rows.map((r) => r.left).filter((x) => x !== null), a.map((_, i) => i));
      assert.deepEqual(rows.map((r) => r.right).filter((x) => x !== null), b.map((_, i) => i));
      return rows;
    };
    const rows = check(["a", "b", "c", "d"], ["a", "x", "c", "d", "e"]);
    assert.deepEqual([...rows], [{ left: 0, right: 0 }, { left: 1, right: 1 }, { left: 2, right: 2 }, { left: 3, right: 3 }, { left: null, right: 4 }]);
    assert.deepEqual([...check([], ["a"])], [{ left: null, right: 0 }]);
    assert.equal(rows.coarse, false);
    // Past MAX_CELLS the middle is replaced outright, and the rows say so.
    const big = Array.from({ length: 2100 }, (_, i) => `l${i}`);
    const coarse = check(["h", ...big, "t"], ["h", ...big.map((l, i) => (i % 2 ? l : `${l}'`)), "t"]);
    assert.equal(coarse.coarse, true);
    assert.deepEqual(coarse[0], { left: 0, right: 0 });
    assert.deepEqual(coarse.at(-1), { left: 2101, right: 2101 });
    for (const v of values) {
      const a = jsonLines(v).lines;
      const b = jsonLines(Array.isArray(v) || v.result ? ts.normalizeTools(v, { target: "google" }).tools : ts.normalize(v, "google").schema).lines;
      const same = check(a, b).filter((r) => r.left !== null && r.right !== null && a[r.left] === b[r.right]).length;
      // The longest common subsequence is at least what the common head and tail give.
      let head = 0;
      while (head < a.length && head < b.length && a[head] === b[head]) head++;
      assert.ok(same >= head && same <= Math.min(a.length, b.length));
    }
  });

  test("the browser entry's module graph: every file it reaches, the .wasm included", () => {
    const files = browserFiles(pkgDir);
    for (const f of ["browser.mjs", "api.mjs", "wasm.mjs", "toolschema_glue.mjs", "toolschema_bg.wasm"]) assert.ok(files.includes(f), f);
    assert.ok(!files.includes("node.mjs") && !files.includes("cli.mjs"));
  });
});

describe("the playground in headless Chromium", { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} missing: run scripts/setup-browser.sh` }, () => {
  const work = mkdtempSync(join(tmpdir(), "toolschema-playground-"));
  let server;
  let browser;
  let context;
  let page;
  const outside = []; // requests to any other origin
  const errors = []; // page errors and console errors

  before(async () => {
    buildPlayground(work, pkgDir);
    server = await serve(work, 0);
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(`${server.origin}/`)) return route.continue();
      outside.push(url);
      return route.abort();
    });
    page = await context.newPage();
    page.on("pageerror", (err) => errors.push(err.message));
    page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
    await page.goto(`${server.origin}/`);
    await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  // The page's state, read as JSON text (the driver's own transfer drops `__proto__` keys).
  const read = async (fn, arg) => JSON.parse(await page.evaluate(`JSON.stringify((${fn})(${JSON.stringify(arg)}))`));
  const outputText = () => read(() => [...document.querySelectorAll("#diff td.out[data-line]")].map((td) => td.textContent).join("\n"));
  const summaryRow = (target) =>
    read((t) => {
      const row = document.querySelector(`#summary tr[data-target="${t}"]`);
      if (row === null) return null;
      const cells = [...row.children].map((c) => c.textContent.trim());
      return { strict: cells[1], checker: cells[2], bytes: row.querySelector('[data-measure="bytes"]').textContent, tokens: row.querySelector('[data-measure="tokens"]').textContent };
    }, target);
  const format = (n) => new Intl.NumberFormat("en").format(n);
  const bytes = (value) => format(Buffer.byteLength(JSON.stringify(value)));
  const tokens = (value) => format(countTokens(JSON.stringify(value)));
  const inputTokens = () => read(() => document.querySelector('#summary tr.input-row [data-measure="tokens"]').textContent);
  const waitForTarget = (target) => page.waitForFunction((t) => document.getElementById("panel").dataset.target === t, target);

  // The Pydantic example, pasted with one hand-written property more: a tuple
  // whose second position is optional, which strict mode cannot express
  // (a tuple of required positions goes out as an object of them) and
  // Gemini's output widens, removing its prefixItems.
  const kitchen = JSON.parse(example("pydantic-kitchen.json"));
  kitchen.properties.span = { type: "array", prefixItems: [{ type: "integer" }, { type: "string" }], minItems: 1, maxItems: 2 };
  const kitchenText = JSON.stringify(kitchen, null, 2);

  test("loads: the module, every target, the examples, the first example normalized for the default targets", async () => {
    assert.equal(await page.textContent("#version"), `toolschema ${ts.version()}, ${ts.targets().length} targets`);
    const ids = await read(() => [...document.querySelectorAll("#targets input[type=checkbox]")].map((c) => c.value));
    assert.deepEqual(ids, ts.targets().map((t) => t.id));
    const options = await read(() => [...document.querySelectorAll("#example option")].map((o) => o.textContent));
    assert.deepEqual(options.slice(1), index.map((e) => e.title));
    // The first example is a tool list: the page's output for openai-strict is normalizeTools'.
    const list = JSON.parse(example(index[0].file));
    const { tools, telemetry } = ts.normalizeTools(list, { target: "openai-strict" });
    assert.equal(await page.textContent("#input-status"), "A tool list: an MCP tools/list response.");
    assert.equal(await outputText(), JSON.stringify(tools, null, 2));
    const strict = telemetry.tools.filter((t) => t.strict).length;
    assert.deepEqual(await summaryRow("openai-strict"), { strict: `${strict} of ${telemetry.tools.length}`, checker: "accepted", bytes: bytes(tools), tokens: tokens(tools) });
    assert.equal(await inputTokens(), tokens(list));
  });

  test("a pasted schema: each target's row shows the package's strict verdict, checker verdict, bytes and tokens", async () => {
    await page.fill("#source", kitchenText);
    await page.waitForFunction(() => document.getElementById("input-status").textContent === "A schema.");
    assert.equal(await page.inputValue("#example"), "", "pasting leaves the example choice");
    const targets = ["openai-strict", "google", "anthropic"];
    const costs = cost(kitchen, { targets });
    assert.equal(await inputTokens(), format(costs.input.tokens));
    for (const target of targets) {
      const result = ts.normalize(kitchen, target);
      const row = await summaryRow(target);
      assert.equal(row.bytes, bytes(result.schema), target);
      // What toolschema/cost gives for this schema and target, in Node.
      const measured = costs.targets.find((t) => t.target === target);
      assert.equal(row.tokens, format(measured.tokens), target);
      assert.equal(row.bytes, format(measured.bytes), target);
      if (target === "openai-strict") {
        assert.equal(result.strict, false); // the tuple with an optional position: the schema goes out non-strict
        assert.equal(row.strict, "no");
        assert.equal(row.checker, "sent non-strict");
      } else {
        assert.deepEqual(ts.checkSchema(result.schema, target), []);
        assert.equal(row.checker, "accepted");
      }
    }
  });

  test("the strict verdict names the reason with its pointer", async () => {
    await page.click("#tab-openai-strict");
    await waitForTarget("openai-strict");
    const { strictError } = ts.normalize(kitchen, "openai-strict");
    const verdict = await page.textContent('[data-verdict="strict"]');
    assert.match(verdict, /^Strict: no\. It is sent with strict: false/);
    const reason = await page.textContent("#verdict .reasons li");
    assert.equal(reason, `${strictError.code} at ${strictError.pointer}: ${strictError.message}`);
  });

  test("switching targets: the output shown is the package's, with its diagnostics and a diff against the input", async () => {
    await page.uncheck("#target-anthropic");
    await page.check("#target-cca");
    await page.waitForSelector('#summary tr[data-target="cca"]');
    assert.equal(await summaryRow("anthropic"), null);
    const tabs = await read(() => [...document.querySelectorAll('#tabs [role="tab"]')].map((t) => t.textContent));
    assert.deepEqual(tabs, ["openai-strict", "google", "cca"]); // the package's order
    for (const target of ["cca", "google"]) {
      await page.click(`#tab-${target}`);
      await waitForTarget(target);
      const result = ts.normalize(kitchen, target);
      assert.equal(await page.getAttribute(`#tab-${target}`, "aria-selected"), "true");
      assert.equal(await outputText(), JSON.stringify(result.schema, null, 2), target);
      const shown = await read(() => [...document.querySelectorAll("#diagnostics button.diagnostic")].map((b) => [b.querySelector(".code-id").textContent, b.dataset.pointer]));
      assert.deepEqual(shown, result.report.diagnostics.map((d) => [d.code, d.pointer]), target);
      assert.ok(Number(await page.getAttribute("#diff", "data-changed-rows")) > 0);
      const left = await read(() => [...document.querySelectorAll("#diff td.in[data-line]")].map((td) => td.textContent).join("\n"));
      assert.equal(left, JSON.stringify(kitchen, null, 2), "the left column is the input");
      const size = await page.textContent('[data-verdict="size"]');
      assert.ok(size.includes(`${bytes(result.schema)} B`) && size.includes(`${tokens(result.schema)} tokens (input ${tokens(kitchen)} tokens`), size);
    }
  });

  test("selecting a diagnostic highlights its node in the output, or its nearest node when the target removed it", async () => {
    const google = ts.normalize(kitchen, "google").schema;
    const highlighted = () => read(() => [...document.querySelectorAll("#diff tr.hl td.out")].map((td) => td.textContent).join("\n"));
    const parseNode = (text) => JSON.parse(text.trim().replace(/^"(?:[^"\\]|\\.)*": /, "").replace(/,$/, ""));

    await page.click('#diagnostics button[data-pointer="/properties/level"]');
    assert.equal(await page.getAttribute('#diagnostics button[data-pointer="/properties/level"]', "aria-pressed"), "true");
    assert.deepEqual(parseNode(await highlighted()), google.properties.level);
    assert.deepEqual(google.properties.level.enum, ["1", "2"]); // what enum-stringified did
    assert.match(await page.textContent("#highlight-status"), /^Highlighted \/properties\/level in the output/);

    // prefixItems is gone from Gemini's output: its parent is shown, and the page says so.
    await page.click('#diagnostics button[data-pointer="/properties/span/prefixItems"]');
    assert.equal(await page.getAttribute('#diagnostics button[data-pointer="/properties/level"]', "aria-pressed"), "false");
    assert.deepEqual(parseNode(await highlighted()), google.properties.span);
    assert.match(await page.textContent("#highlight-status"), /^\/properties\/span\/prefixItems is not in the output; its nearest node there, \/properties\/span, is highlighted/);
    // The input column marks the node where it was.
    const inputMarked = await read(() => [...document.querySelectorAll("#diff tr.hl-in td.in")].map((td) => td.textContent).join("\n"));
    assert.deepEqual(parseNode(inputMarked), kitchen.properties.span.prefixItems);
    // The highlighted row is scrolled into the diff's view.
    const visible = await read(() => {
      const wrap = document.getElementById("diff-wrap").getBoundingClientRect();
      const row = document.querySelector("#diff tr.hl-first").getBoundingClientRect();
      return row.top >= wrap.top && row.bottom <= wrap.bottom;
    });
    assert.equal(visible, true);
    await page.evaluate(() => (document.getElementById("source").scrollTop = 0));
    mkdirSync(join(root, "target"), { recursive: true });
    await page.screenshot({ path: join(root, "target/playground.png") });
  });

  test("axe-core finds no WCAG 2.1 A or AA violation, with results and a highlighted node on the page", async () => {
    // Evaluated through the driver, which the page's CSP does not govern; the page itself loads no script from elsewhere.
    await page.evaluate(readFileSync(join(root, "node_modules/axe-core/axe.min.js"), "utf8"));
    const audit = () =>
      page.evaluate(async () => {
        const { violations } = await globalThis.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
        return violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")})`);
      });
    assert.deepEqual(await audit(), [], "light colour scheme");
    await page.emulateMedia({ colorScheme: "dark" });
    try {
      assert.deepEqual(await audit(), [], "dark colour scheme");
    } finally {
      await page.emulateMedia({ colorScheme: "light" });
    }
  });

  test("the tab list works from the keyboard", async () => {
    await page.focus("#tab-google");
    await page.keyboard.press("ArrowRight");
    await waitForTarget("cca");
    assert.equal(await read(() => document.activeElement.id), "tab-cca");
    await page.keyboard.press("Home");
    await waitForTarget("openai-strict");
  });

  test("bad input: the package's own error, and no stale results", async () => {
    await page.fill("#source", '{"type": "object",');
    await page.waitForFunction(() => document.getElementById("input-status").classList.contains("error"));
    assert.match(await page.textContent("#input-status"), /^invalid-json: input is not valid JSON: EOF while parsing/);
    assert.equal(await page.getAttribute("#source", "aria-invalid"), "true");
    assert.equal(await read(() => document.querySelectorAll("#summary tr[data-target]").length), 0);
  });

  test("offline once loaded: an example and a new target still work; nothing was asked of another origin", async () => {
    await context.setOffline(true);
    try {
      const i = index.findIndex((e) => e.file === "zod4-discriminated-union.json");
      await page.selectOption("#example", String(i));
      await page.check("#target-anthropic-strict");
      await page.click("#tab-anthropic-strict");
      await waitForTarget("anthropic-strict");
      const value = JSON.parse(example(index[i].file));
      const result = ts.normalize(value, "anthropic-strict");
      assert.equal(await outputText(), JSON.stringify(result.schema, null, 2));
      assert.equal(await page.textContent("#example-origin"), index[i].origin);
      assert.equal((await summaryRow("anthropic-strict")).strict, result.strict ? "yes" : "no");
    } finally {
      await context.setOffline(false);
    }
    assert.deepEqual(outside, []);
    assert.deepEqual(errors, []);
  });
});
