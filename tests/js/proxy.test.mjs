// toolschema/proxy between the real `openai` client and an OpenAI-compatible
// upstream on 127.0.0.1 (tests/js/proxy-upstream.mjs, which records every
// request and answers with tool calls shaped by OpenAI strict mode), for
// Chat Completions and Responses, JSON and SSE streams. The upstream must
// receive tools its target's checker accepts; the client must receive
// the calls by the tools' own names with arguments their own schemas accept,
// and the text of a streamed answer as it came. The same scenarios run with
// the handler in Node (in process), and served by workerd (the example
// Worker, bundled by wrangler from the packed package), Bun and Deno.
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { after, before, describe, test } from "node:test";
import OpenAI from "openai";
import { freePort, pkgDir, root, throwsCode, ts } from "./helpers.mjs";
import { ISSUE_TOOLS, RESTORED, TEXT, startUpstream } from "./proxy-upstream.mjs";

const { createProxy } = await import(new URL("../../pkg/proxy.mjs", import.meta.url).href);
const TARGET = "openai-strict";

let upstream;
before(async () => (upstream = await startUpstream()));
after(() => upstream?.close());

const chatTools = () => [
  ...Object.entries(ISSUE_TOOLS).map(([name, parameters]) => ({ type: "function", function: { name, description: `The ${name} tool`, parameters, strict: true } })),
  { type: "custom", custom: { name: "raw_sql", description: "Free-form SQL" } },
];
const responsesTools = () => [
  ...Object.entries(ISSUE_TOOLS).map(([name, parameters]) => ({ type: "function", name, description: `The ${name} tool`, parameters, strict: true })),
  { type: "web_search" },
];
const lastRequest = () => upstream.requests.at(-1);
const lastBody = () => JSON.parse(lastRequest().text);

/** The upstream received the function tools normalized for TARGET, under names it accepts; other tools as sent. */
function assertUpstreamTools(sent, api) {
  const { tools } = lastBody();
  assert.equal(tools.length, sent.length);
  const fn = tools.slice(0, 2).map((t) => (api === "chat" ? t.function : t));
  assert.deepEqual(fn.map((f) => f.name), ["issues_search", "issues_close"]);
  for (const f of fn) {
    assert.deepEqual(ts.checkSchema(f.parameters, TARGET), [], f.name);
    assert.equal(f.strict, true);
  }
  assert.deepEqual(fn[0].parameters.required, ["query", "labels", "limit", "state"]);
  assert.deepEqual(tools[2], sent[2], "a tool with no JSON Schema is sent as it came");
}

/** Calls `[{name, arguments}]` back in the tools' own names and shapes. */
function assertRestored(calls) {
  assert.deepEqual(calls.map((c) => c.name), ["issues.search", "issues.close"]);
  for (const c of calls) assert.deepEqual(JSON.parse(c.arguments), RESTORED[c.name], c.name);
}

/** The scenarios every runtime runs; `ctx`: `{openai, fetch, base}` reaching the proxy. */
const SCENARIOS = {
  async "chat, JSON: tools normalized on the way up, calls restored on the way down"({ openai }) {
    const tools = chatTools();
    const { data, response } = await openai.chat.completions.create({ model: "gpt-5", messages: [{ role: "user", content: "open bugs about wasm" }], tools }).withResponse();
    assertUpstreamTools(tools, "chat");
    assert.equal(lastRequest().headers.authorization, "Bearer sk-test");
    assert.equal(response.headers.get("x-toolschema-target"), TARGET);
    assertRestored(data.choices[0].message.tool_calls.map((c) => c.function));
    assert.equal(data.usage.total_tokens, 30);
  },

  async "chat, SSE: text flows as it came, each call arrives whole and restored, the SDK accumulates it"({ openai }) {
    const tools = chatTools();
    const stream = openai.chat.completions.stream({ model: "gpt-5", messages: [{ role: "user", content: "open bugs about wasm" }], tools, stream_options: { include_usage: true } });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const final = await stream.finalChatCompletion();
    assertUpstreamTools(tools, "chat");
    assert.equal(lastBody().stream, true);
    const text = chunks.flatMap((c) => c.choices.map((ch) => ch.delta?.content ?? "")).join("");
    assert.equal(text, TEXT.join(""));
    const firstCall = chunks.findIndex((c) => c.choices.some((ch) => ch.delta?.tool_calls));
    const lastText = chunks.findLastIndex((c) => c.choices.some((ch) => ch.delta?.content));
    assert.ok(lastText < firstCall, "the text chunks come before the calls, as the upstream sent them");
    // Each call in one piece, before the chunk that finishes the choice.
    const callChunks = chunks.filter((c) => c.choices.some((ch) => ch.delta?.tool_calls));
    assert.equal(callChunks.length, 1);
    assert.equal(chunks[chunks.indexOf(callChunks[0]) + 1].choices[0].finish_reason, "tool_calls");
    assertRestored(final.choices[0].message.tool_calls.map((c) => c.function));
    assert.equal(final.choices[0].finish_reason, "tool_calls");
    assert.equal(chunks.at(-1).usage.total_tokens, 30, "the usage chunk passes");
  },

  async "responses, JSON"({ openai }) {
    const tools = responsesTools();
    const response = await openai.responses.create({ model: "gpt-5", input: "open bugs about wasm", tools });
    assertUpstreamTools(tools, "responses");
    assertRestored(response.output.filter((i) => i.type === "function_call"));
    assert.equal(response.output_text, TEXT.join(""));
  },

  async "responses, SSE: argument deltas held back, one restored delta per call, the SDK's final response restored"({ openai }) {
    const tools = responsesTools();
    const stream = openai.responses.stream({ model: "gpt-5", input: "open bugs about wasm", tools });
    const events = [];
    for await (const event of stream) events.push(event);
    const final = await stream.finalResponse();
    assertUpstreamTools(tools, "responses");
    const deltas = events.filter((e) => e.type === "response.function_call_arguments.delta");
    assert.equal(deltas.length, 2);
    const done = events.filter((e) => e.type === "response.function_call_arguments.done");
    assert.deepEqual(deltas.map((d) => d.delta), done.map((d) => d.arguments));
    assert.deepEqual(done.map((d) => JSON.parse(d.arguments)), [RESTORED["issues.search"], RESTORED["issues.close"]]);
    const seq = events.map((e) => e.sequence_number);
    assert.deepEqual(seq, [...seq].sort((a, b) => a - b), "sequence numbers still rise");
    assert.equal(events.filter((e) => e.type === "response.output_text.delta").map((e) => e.delta).join(""), TEXT.join(""));
    assertRestored(final.output.filter((i) => i.type === "function_call"));
  },

  async "other paths and requests without tools pass through untouched"({ openai, fetch, base }) {
    const models = await openai.models.list();
    assert.equal(models.data[0].id, "local-model");
    assert.equal(lastRequest().url, "/v1/models");
    const text = '{"model": "m",   "input": ["a", null]}';
    const echo = await (await fetch(`${base}/v1/embeddings?x=1`, { method: "POST", body: text, headers: { "content-type": "application/json" } })).json();
    assert.equal(echo.echo, text);
    assert.equal(lastRequest().url, "/v1/embeddings?x=1");
    const plain = '{"model": "m",  "messages": [{"role": "user", "content": "hi"}]}';
    await (await fetch(`${base}/v1/chat/completions`, { method: "POST", body: plain, headers: { "content-type": "application/json" } })).arrayBuffer();
    assert.equal(lastRequest().text, plain, "a request with no tools is forwarded byte for byte");
  },
};

function inProcess(proxy) {
  const fetch = (url, init) => proxy(new Request(url, init));
  return { fetch, base: "http://proxy.test", openai: new OpenAI({ apiKey: "sk-test", baseURL: "http://proxy.test/v1", fetch, maxRetries: 0 }) };
}

describe("Node, the handler in process", () => {
  const ctx = () => inProcess(createProxy({ upstream: upstream.url, target: TARGET }));
  for (const [name, run] of Object.entries(SCENARIOS)) test(name, () => run(ctx()));

  test("a route picks the target per request: strict tools → openai-strict, none → openai", async () => {
    const targets = [];
    const { openai } = inProcess(createProxy({ upstream: upstream.url, route: { provider: "openai" }, onTools: (e) => targets.push(e.target) }));
    await openai.chat.completions.create({ model: "gpt-5", messages: [], tools: chatTools() });
    const loose = chatTools().map((t) => (t.type === "function" ? { ...t, function: { ...t.function, strict: undefined } } : t));
    await openai.chat.completions.create({ model: "gpt-5", messages: [], tools: loose });
    assert.deepEqual(targets, ["openai-strict", "openai"]);
    assert.deepEqual(ts.checkSchema(lastBody().tools[0].function.parameters, "openai"), []);
  });

  test("earlier calls and tool_choice are sent under the provider's names", async () => {
    const { openai } = inProcess(createProxy({ upstream: upstream.url, target: TARGET }));
    await openai.chat.completions.create({
      model: "gpt-5",
      tools: chatTools(),
      tool_choice: { type: "function", function: { name: "issues.search" } },
      messages: [
        { role: "user", content: "open bugs about wasm" },
        { role: "assistant", content: null, tool_calls: [{ id: "c0", type: "function", function: { name: "issues.search", arguments: '{"query":"x"}' } }] },
        { role: "tool", tool_call_id: "c0", content: "[]" },
      ],
    });
    const body = lastBody();
    assert.equal(body.tool_choice.function.name, "issues_search");
    assert.equal(body.messages[1].tool_calls[0].function.name, "issues_search");
  });

  test("a call its schema still rejects: restored as far as it goes, reported through onToolCall", async () => {
    const seen = [];
    const proxy = createProxy({ upstream: upstream.url, target: TARGET, onToolCall: (e) => seen.push(e) });
    const tools = [{ type: "function", function: { name: "issues.search", parameters: { ...ISSUE_TOOLS["issues.search"], properties: { ...ISSUE_TOOLS["issues.search"].properties, labels: { type: "array", items: { type: "string" }, maxItems: 0 } } } } }];
    const { openai } = inProcess(proxy);
    const completion = await openai.chat.completions.create({ model: "gpt-5", messages: [], tools });
    const [call] = completion.choices[0].message.tool_calls;
    assert.deepEqual(JSON.parse(call.function.arguments), { query: "wasm", labels: ["bug"] });
    assert.equal(seen.length, 1);
    assert.equal(seen[0].result.ok, false);
    assert.match(seen[0].result.message, /labels/);
  });

  test("SSE as other servers write it: CRLF lines, comments, a call sent whole without `index`, no finish_reason before [DONE]", async () => {
    const events = [
      ": keep-alive",
      `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { role: "assistant", content: "On it." } }] })}`,
      `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { tool_calls: [{ id: "call_9", type: "function", function: { name: "issues_close", arguments: '{"number": "7", "reason": null}' } }] } }] })}`,
      "data: [DONE]",
    ];
    const body = events.map((e) => `${e}\r\n\r\n`).join("");
    const fetch = async () => new Response(new Blob([body]).stream(), { headers: { "content-type": "text/event-stream" } });
    const proxy = createProxy({ upstream: "http://upstream.test", target: TARGET, fetch });
    const response = await proxy(new Request("http://proxy.test/v1/chat/completions", { method: "POST", body: JSON.stringify({ model: "m", stream: true, messages: [], tools: chatTools() }) }));
    const blocks = (await response.text()).split(/\r?\n\r?\n/).filter(Boolean);
    assert.equal(blocks[0], ": keep-alive");
    assert.equal(JSON.parse(blocks[1].slice(6)).choices[0].delta.content, "On it.");
    const [call] = JSON.parse(blocks[2].slice(6)).choices[0].delta.tool_calls;
    assert.deepEqual([call.index, call.id, call.function.name, JSON.parse(call.function.arguments)], [0, "call_9", "issues.close", RESTORED["issues.close"]]);
    assert.equal(blocks[3], "data: [DONE]");
    assert.equal(blocks.length, 4);
  });

  test("an upstream URL with a path prefix keeps it; hop-by-hop and host headers are not forwarded", async () => {
    const proxy = createProxy({ upstream: `${upstream.url}/api/`, target: TARGET });
    await (await proxy(new Request("http://proxy.test/v1/models?limit=2", { headers: { "x-trace": "t1", connection: "keep-alive", host: "proxy.test" } }))).arrayBuffer();
    const { url, headers } = lastRequest();
    assert.equal(url, "/api/v1/models?limit=2");
    assert.equal(headers["x-trace"], "t1");
    assert.equal(headers.host, new URL(upstream.url).host);
  });

  test("bad options are a ToolSchemaError at once", () => {
    throwsCode(assert, () => createProxy({ target: TARGET }), "invalid-options");
    throwsCode(assert, () => createProxy({ upstream: "ftp://x", target: TARGET }), "invalid-options");
    throwsCode(assert, () => createProxy({ upstream: upstream.url }), "invalid-options");
    throwsCode(assert, () => createProxy({ upstream: upstream.url, target: "gpt" }), "unknown-target");
    throwsCode(assert, () => createProxy({ upstream: upstream.url, target: TARGET, spil: "none" }), "invalid-options");
    throwsCode(assert, () => createProxy({ upstream: upstream.url, target: TARGET, onTools: 1 }), "invalid-options");
  });
});

// The other runtimes serve the packed package from a consumer project, as a
// user installs it; each prints its port, then runs the scenarios over HTTP.
const run = promisify(execFile);
const bin = (name) => `${root}node_modules/.bin/${name}`;
const missing = (path) => (existsSync(path) ? false : `${path} missing: run scripts/setup.sh`);
const work = mkdtempSync(join(tmpdir(), "toolschema-proxy-"));
after(() => rmSync(work, { recursive: true, force: true }));
const file = (name, text) => (writeFileSync(join(work, name), text), join(work, name));
const env = { ...process.env, NO_COLOR: "1", WRANGLER_SEND_METRICS: "false", CI: "true" };
let packed = false;
function consumer() {
  if (packed) return;
  const [{ filename }] = JSON.parse(execFileSync("npm", ["pack", pkgDir, "--pack-destination", work, "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
  file("package.json", JSON.stringify({ private: true, type: "module", dependencies: { toolschema: `file:./${filename}` } }));
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: work, stdio: "ignore" });
  packed = true;
}

/** Starts `command`, waits for the port it prints (or `port`) to answer, returns `{base, stop}`. */
async function serve(command, args, port) {
  let log = "";
  const child = execFile(command, args, { cwd: work, env });
  child.stdout.on("data", (chunk) => (log += chunk));
  child.stderr.on("data", (chunk) => (log += chunk));
  const exited = new Promise((_, reject) => child.on("exit", (code, signal) => reject(new Error(`${command} exited (${signal ?? code}):\n${log}`))));
  exited.catch(() => {});
  const stop = () => child.kill();
  try {
    for (let i = 0; i < 300; i++) {
      const printed = log.match(/^PORT (\d+)$/m)?.[1];
      const at = port ?? printed;
      if (at !== undefined) {
        const base = `http://127.0.0.1:${at}`;
        const up = await Promise.race([fetch(`${base}/v1/models`).then((r) => r.arrayBuffer().then(() => true), () => false), exited]);
        if (up) return { base, stop };
      }
      await Promise.race([new Promise((ok) => setTimeout(ok, 50)), exited]);
    }
    throw new Error(`${command} did not answer within 15 s:\n${log}`);
  } catch (err) {
    stop();
    throw err;
  }
}

function overHttp(base) {
  return { fetch, base, openai: new OpenAI({ apiKey: "sk-test", baseURL: `${base}/v1`, maxRetries: 0 }) };
}

function runtime(name, skip, start) {
  describe(name, { skip }, () => {
    let server;
    before(async () => {
      consumer();
      server = await start();
    });
    after(() => server?.stop());
    for (const [scenario, run] of Object.entries(SCENARIOS)) test(scenario, () => run(overHttp(server.base)));
  });
}

runtime("workerd: the example Worker (examples/proxy-worker), bundled by wrangler", missing(bin("wrangler")), async () => {
  for (const name of ["worker.mjs", "wrangler.toml"]) file(name, readFileSync(`${root}examples/proxy-worker/${name}`, "utf8"));
  // --outdir is relative to wrangler.toml's folder (toolchain.md pitfall 10).
  await run(bin("wrangler"), ["deploy", "--dry-run", "--outdir", "dist"], { cwd: work, env, timeout: 60_000 });
  const wasm = readdirSync(join(work, "dist")).filter((f) => f.endsWith(".wasm"));
  assert.equal(wasm.length, 1, "the bundle carries the one .wasm as a module");
  const port = await freePort();
  // The vars wrangler.toml sets are bindings; here they point at the test's
  // upstream. workerd's default outbound reaches public addresses only, and
  // the upstream is on the loopback interface.
  const config = file("config.capnp", `using Workerd = import "/workerd/workerd.capnp";
    const config :Workerd.Config = (
      services = [
        (name = "main", worker = .worker),
        (name = "internet", network = (allow = ["public", "private", "local"])),
      ],
      sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
    );
    const worker :Workerd.Worker = (
      modules = [
        (name = "worker.js", esModule = embed "dist/worker.js"),
        (name = "./${wasm[0]}", wasm = embed "dist/${wasm[0]}"),
      ],
      bindings = [
        (name = "UPSTREAM_URL", text = "${upstream.url}"),
        (name = "TARGET", text = "${TARGET}"),
      ],
      compatibilityDate = "2024-09-23",
    );\n`);
  return serve(bin("workerd"), ["serve", config], port);
});

runtime("Bun: Bun.serve", missing(bin("bun")), () => {
  const script = file("bun-proxy.mjs", `import { createProxy } from "toolschema/proxy";
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: createProxy({ upstream: process.argv[2], target: process.argv[3] }) });
    console.log("PORT " + server.port);\n`);
  return serve(bin("bun"), [script, upstream.url, TARGET]);
});

runtime("Deno: Deno.serve, network access to 127.0.0.1 only", missing(bin("deno")), () => {
  const script = file("deno-proxy.mjs", `import { createProxy } from "toolschema/proxy";
    Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log("PORT " + port) }, createProxy({ upstream: Deno.args[0], target: Deno.args[1] }));\n`);
  return serve(bin("deno"), ["run", "--allow-net=127.0.0.1", script, upstream.url, TARGET]);
});


test("make demo's proxy step: a strict model's nulls never reach the client (examples/proxy-demo.mjs)", async () => {
  const { spawnSync } = await import("node:child_process");
  const run = spawnSync(process.execPath, [`${root}examples/proxy-demo.mjs`], { encoding: "utf8", timeout: 30_000 });
  assert.equal(run.status, 0, run.stderr);
  const model = run.stdout.match(/the model called it with (\{.*\})/)?.[1];
  const client = run.stdout.match(/the client received +(\{.*\})/)?.[1];
  assert.ok(model && client, run.stdout);
  assert.ok(Object.values(JSON.parse(model)).includes(null));
  assert.ok(!Object.values(JSON.parse(client)).includes(null));
  assert.match(run.stdout, /26 tools sent by the client; the model server received 26 with strict: true/);
});
