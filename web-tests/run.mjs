// Every fixture in tests/fixtures, for every target it has a golden for,
// through the packed npm package in three runtimes: Node (ESM import of the
// installed package), headless Chromium (the browser entry through an import
// map) and workerd (the workerd entry, bundled by wrangler). Each runtime
// starts once and answers the whole bundle in one batch (cases.mjs); the
// answers are compared here with expected/<target>.json ({schema, strict?}),
// report/<target>.json (the lossy [code, pointer] pairs) and
// error/<target>.json (a thrown ToolSchemaError with that code and pointer).
//
// Usage: node web-tests/run.mjs [node|chromium|workerd ...]   (`make test-web`
// builds pkg/ first). Prints `<runtime>: N passed, N failed` per runtime and a
// closing `N passed, N failed`; exits 1 on any failure. A runtime that cannot
// start fails every case it was given: a missing browser is a failure here,
// not a skip, because this suite exists to prove those runtimes.
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const here = fileURLToPath(new URL(".", import.meta.url));
const root = resolve(here, "..");
const bin = (name) => join(root, "node_modules/.bin", name);
const CHROMIUM = "/usr/bin/chromium";
const MAX_SHOWN = 40; // failure lines per runtime
const STARTUP_MS = 60_000; // per runtime: start, load the package, answer every case
const RUNTIMES = { node: runNode, chromium: runChromium, workerd: runWorkerd };
const TYPES = { ".mjs": "text/javascript", ".js": "text/javascript", ".html": "text/html", ".json": "application/json", ".wasm": "application/wasm" };

const wanted = process.argv.slice(2);
for (const name of wanted) if (!(name in RUNTIMES)) usage(`unknown runtime ${name}`);
const runtimes = wanted.length > 0 ? wanted : Object.keys(RUNTIMES);

const { bundle, expectations, problems } = collect(join(root, "tests/fixtures"));
addArguments(join(root, "tests/arguments"));
if (problems.length > 0) {
  for (const p of problems) console.log(`fixture tree: ${p}`);
  console.log(`0 passed, ${problems.length} failed`);
  process.exit(1);
}

const t0 = Date.now();
const work = mkdtempSync(join(tmpdir(), "toolschema-web-tests-"));
// workerd is a plain child: if this process dies unexpectedly, stop it and
// drop the scratch project anyway.
const children = new Set();
process.on("exit", () => {
  for (const child of children) child.kill();
  rmSync(work, { recursive: true, force: true });
});
let exitCode = 1;
try {
  install(work);
  writeFileSync(join(work, "fixtures.json"), JSON.stringify(bundle));
  for (const file of ["cases.mjs", "node-entry.mjs", "index.html", "worker.mjs"]) copyFileSync(join(here, file), join(work, file));
  console.log(`web-tests: ${bundle.fixtures.length} fixtures, ${bundle.cases.length} cases per runtime (package installed in ${seconds(t0)})`);

  // The runtimes run side by side; results print in a fixed order.
  const outcomes = await Promise.all(runtimes.map((name) => timed(() => RUNTIMES[name](work))));
  let passed = 0;
  let failed = 0;
  runtimes.forEach((name, i) => {
    const { value, error, elapsed } = outcomes[i];
    const failures = error === undefined ? judge(value) : bundle.cases.map(() => error);
    const failing = failures.filter((f) => f !== null);
    if (error !== undefined) {
      console.log(`  FAIL ${name}: could not run: ${error}`);
    } else {
      let shown = 0;
      for (const [j, f] of failures.entries()) {
        if (f !== null && shown++ < MAX_SHOWN) console.log(`  FAIL ${name} ${caseName(j)}: ${f}`);
      }
      if (failing.length > MAX_SHOWN) console.log(`  ... and ${failing.length - MAX_SHOWN} more ${name} failures`);
    }
    const ok = bundle.cases.length - failing.length;
    console.log(`${name}: ${ok} passed, ${failing.length} failed (${elapsed})`);
    passed += ok;
    failed += failing.length;
  });
  console.log(`${passed} passed, ${failed} failed`);
  exitCode = failed === 0 && passed > 0 ? 0 : 1;
} catch (err) {
  console.log(`web-tests: ${err?.stack ?? err}`);
  console.log(`0 passed, ${bundle.cases.length * runtimes.length} failed`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(exitCode);

function usage(message) {
  console.error(`web-tests: ${message}\nusage: node web-tests/run.mjs [${Object.keys(RUNTIMES).join("|")} ...]`);
  process.exit(2);
}

/**
 * Reads the fixture tree into the bundle the runtimes get (inputs and options
 * only) and the expectations that stay here. A target counts when it has an
 * expected/ or error/ file; a fixture with both for one target is an error.
 */
function collect(dir) {
  const fixtures = [];
  const cases = [];
  const expectations = [];
  const problems = [];
  const json = (path) => JSON.parse(readFileSync(path, "utf8"));
  const names = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  for (const name of names) {
    const at = (...parts) => join(dir, name, ...parts);
    const listing = (sub) => (existsSync(at(sub)) ? readdirSync(at(sub)).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5)) : []);
    let input, meta;
    try {
      input = json(at("input.json"));
      meta = json(at("fixture.json"));
    } catch (err) {
      problems.push(`${name}: ${err.message}`);
      continue;
    }
    const index = fixtures.push({ name, input, options: meta.options ?? {} }) - 1;
    const expected = listing("expected");
    const errors = listing("error");
    for (const target of [...new Set([...expected, ...errors])].sort()) {
      if (expected.includes(target) && errors.includes(target)) {
        problems.push(`${name}: both expected/${target}.json and error/${target}.json`);
        continue;
      }
      cases.push({ fixture: index, target });
      if (errors.includes(target)) {
        expectations.push({ error: json(at("error", `${target}.json`)) });
      } else {
        const report = at("report", `${target}.json`);
        expectations.push({ golden: json(at("expected", `${target}.json`)), lossy: existsSync(report) ? json(report) : undefined });
      }
    }
  }
  if (cases.length === 0) problems.push(`no fixture in ${dir} has an expected/ or error/ file`);
  return { bundle: { fixtures, cases }, expectations, problems };
}

/**
 * The round-trip fixtures (tests/arguments/*.json: a call, its arguments and
 * what must come back) join the bundle as `{argument}` cases.
 */
function addArguments(dir) {
  bundle.arguments = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    const f = JSON.parse(readFileSync(join(dir, file), "utf8"));
    const index = bundle.arguments.push({ name: file.slice(0, -5), call: f.call, target: f.target, schema: f.schema, args: f.args, options: f.options }) - 1;
    bundle.cases.push({ argument: index });
    expectations.push({ argument: f.expect });
  }
}

function caseName(i) {
  const { fixture, target, argument } = bundle.cases[i];
  if (argument !== undefined) return `arguments/${bundle.arguments[argument].name}`;
  return `${bundle.fixtures[fixture].name} [${target}]`;
}

/** An argument case: each field the fixture expects, compared as JSON text. */
function judgeArgument(got, want) {
  if (got.ok === undefined) return `expected a result, got ${got.error?.name} ${got.error?.code ?? ""}: ${got.error?.message}`;
  for (const key of ["args", "codes", "messages", "ok", "valid", "lossy"]) {
    if (key in want && JSON.stringify(got.ok[key]) !== JSON.stringify(want[key])) {
      return `${key}: got ${clip(got.ok[key])}, expected ${clip(want[key])}`;
    }
  }
  return null;
}

/** One failure message per case, or null where the answer matches. */
function judge(results) {
  if (!Array.isArray(results) || results.length !== bundle.cases.length) {
    const why = `expected ${bundle.cases.length} answers, got ${Array.isArray(results) ? results.length : typeof results}`;
    return bundle.cases.map(() => why);
  }
  return results.map((got, i) => {
    const want = expectations[i];
    if (typeof got !== "object" || got === null) return `no answer for this case: ${clip(got)}`;
    if (want.argument !== undefined) return judgeArgument(got, want.argument);
    if (want.error !== undefined) {
      if (got.error === undefined) return `expected error ${JSON.stringify(want.error)}, got a schema: ${clip(got.ok?.schema)}`;
      const e = got.error;
      if (!e.toolSchemaError) return `expected a ToolSchemaError, got ${e.name}: ${e.message}`;
      const seen = { code: e.code, pointer: e.pointer };
      return differs(seen, { code: want.error.code, pointer: want.error.pointer }) === null ? null : `expected error ${JSON.stringify(want.error)}, got ${JSON.stringify(seen)}: ${e.message}`;
    }
    if (got.ok === undefined) return `expected a schema, got ${got.error?.name} ${got.error?.code ?? ""} at ${JSON.stringify(got.error?.pointer)}: ${got.error?.message}`;
    const { lossy, ...output } = got.ok;
    const diff = differs(output, want.golden, "");
    if (diff !== null) return `output differs from expected/: ${diff}`;
    if (want.lossy !== undefined) {
      const reportDiff = differs(lossy, want.lossy, "");
      if (reportDiff !== null) return `lossy diagnostics differ from report/: ${reportDiff}\n    got: ${clip(lossy)}`;
    }
    return null;
  });
}

/**
 * Where `got` and `want` first differ (a JSON Pointer and both values), or
 * null. Key order counts: providers generate arguments in schema order, so
 * the order of `properties` is part of the output.
 */
function differs(got, want, path = "") {
  const show = (v) => clip(v);
  if (Array.isArray(want) || Array.isArray(got)) {
    if (!Array.isArray(want) || !Array.isArray(got)) return `at "${path}": got ${show(got)}, want ${show(want)}`;
    if (got.length !== want.length) return `at "${path}": ${got.length} items, want ${want.length}: got ${show(got)}`;
    for (let i = 0; i < want.length; i++) {
      const d = differs(got[i], want[i], `${path}/${i}`);
      if (d !== null) return d;
    }
    return null;
  }
  if (typeof want === "object" && want !== null && typeof got === "object" && got !== null) {
    const gk = Object.keys(got);
    const wk = Object.keys(want);
    const missing = wk.filter((k) => !Object.hasOwn(got, k));
    const extra = gk.filter((k) => !Object.hasOwn(want, k));
    if (missing.length > 0 || extra.length > 0) return `at "${path}": missing keys ${JSON.stringify(missing)}, extra keys ${JSON.stringify(extra)}`;
    for (const k of wk) {
      const d = differs(got[k], want[k], `${path}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`);
      if (d !== null) return d;
    }
    if (gk.join("\0") !== wk.join("\0")) return `at "${path}": key order ${JSON.stringify(gk)}, want ${JSON.stringify(wk)}`;
    return null;
  }
  return Object.is(got, want) ? null : `at "${path}": got ${show(got)}, want ${show(want)}`;
}

function clip(value, max = 300) {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

async function timed(fn) {
  const start = Date.now();
  try {
    return { value: await withTimeout(fn(), STARTUP_MS), elapsed: seconds(start) };
  } catch (err) {
    return { error: String(err?.message ?? err).trim(), elapsed: seconds(start) };
  }
}

function withTimeout(promise, ms) {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The package as a user gets it: `npm pack pkg/`, installed into a fresh consumer project. */
function install(dir) {
  const pkg = join(root, "pkg");
  if (!existsSync(join(pkg, "package.json"))) throw new Error(`${pkg} is not built: run make pkg`);
  const [{ filename }] = JSON.parse(execFileSync("npm", ["pack", pkg, "--pack-destination", dir, "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, type: "module", dependencies: { toolschema: `file:./${filename}` } }));
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
}

async function runNode(dir) {
  const results = join(dir, "node-results.json");
  await run(process.execPath, ["node-entry.mjs", "fixtures.json", results], { cwd: dir, timeout: STARTUP_MS });
  return JSON.parse(readFileSync(results, "utf8"));
}

async function runChromium(dir) {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} missing: run scripts/setup-browser.sh`);
  const { chromium } = await import("playwright-core");
  const server = await serve(dir);
  const context = await chromium.launchPersistentContext(join(dir, "chromium-profile"), {
    executablePath: CHROMIUM,
    headless: true,
    // The flags toolchain.md measured for a root, offline, headless run.
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const pageErrors = [];
  try {
    const page = await context.newPage();
    page.on("pageerror", (err) => pageErrors.push(err.message));
    page.on("console", (msg) => msg.type() === "error" && pageErrors.push(msg.text()));
    await page.goto(`${server.origin}/index.html`);
    await page.waitForFunction(() => document.title === "done", null, { timeout: STARTUP_MS - 10_000 }).catch((err) => {
      throw new Error(`${err.message.split("\n")[0]}; page errors: ${pageErrors.join(" | ") || "none"}`);
    });
    // As JSON text: the driver's own value transfer drops a key named
    // `__proto__`, which schemas may declare as a property name.
    const { results, failure } = JSON.parse(await page.evaluate(() => JSON.stringify({ results: window.results, failure: window.failure })));
    if (failure !== undefined) throw new Error(`the page failed: ${failure}`);
    return results;
  } finally {
    await context.close();
    server.close();
  }
}

async function runWorkerd(dir) {
  if (!existsSync(bin("wrangler"))) throw new Error(`${bin("wrangler")} missing: run scripts/setup.sh`);
  const env = { ...process.env, NO_COLOR: "1", WRANGLER_SEND_METRICS: "false", CI: "true" };
  writeFileSync(join(dir, "wrangler.toml"), 'name = "web-tests"\nmain = "worker.mjs"\ncompatibility_date = "2024-09-23"\n');
  // --outdir is relative to wrangler.toml's folder (toolchain.md pitfall 10).
  await run(bin("wrangler"), ["deploy", "--dry-run", "--outdir", "dist"], { cwd: dir, env, timeout: STARTUP_MS });
  const out = readdirSync(join(dir, "dist"));
  const wasm = out.filter((f) => f.endsWith(".wasm"));
  if (wasm.length !== 1 || !out.includes("worker.js")) throw new Error(`expected worker.js and one .wasm in the bundle, got ${out.join(", ")}`);
  const port = await freePort();
  writeFileSync(join(dir, "config.capnp"), `using Workerd = import "/workerd/workerd.capnp";
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
);
`);
  let log = "";
  const child = execFile(bin("workerd"), ["serve", join(dir, "config.capnp")], { cwd: dir, env });
  children.add(child);
  child.stdout.on("data", (chunk) => (log += chunk));
  child.stderr.on("data", (chunk) => (log += chunk));
  const exited = new Promise((_, reject) => child.on("exit", (code, signal) => reject(new Error(`workerd exited (${signal ?? code}): ${log.trim()}`))));
  exited.catch(() => {}); // only observed while the worker is expected to run
  try {
    await Promise.race([ready(`http://127.0.0.1:${port}/`), exited]);
    const response = await Promise.race([
      fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: readFileSync(join(dir, "fixtures.json")), headers: { "content-type": "application/json" } }),
      exited,
    ]);
    const text = await response.text();
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${text.slice(0, 2000)}\n${log.trim()}`);
    return JSON.parse(text);
  } finally {
    child.kill();
    children.delete(child);
  }
}

/** Resolves once `url` answers at all (405 to a GET is the worker being up). */
async function ready(url) {
  for (let i = 0; i < 200; i++) {
    try {
      await (await fetch(url)).arrayBuffer();
      return;
    } catch {
      await new Promise((ok) => setTimeout(ok, 50));
    }
  }
  throw new Error(`${url} did not answer within 10 s`);
}

async function freePort() {
  const probe = createServer();
  await new Promise((ok) => probe.listen(0, "127.0.0.1", ok));
  const { port } = probe.address();
  await new Promise((ok) => probe.close(ok));
  return port;
}

/** The consumer project over loopback HTTP. */
async function serve(dir) {
  const server = createServer((req, res) => {
    const path = resolve(dir, `.${decodeURIComponent(new URL(req.url, "http://x").pathname)}`);
    if (!path.startsWith(dir + sep) || !statSync(path, { throwIfNoEntry: false })?.isFile()) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" }).end(readFileSync(path));
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}
