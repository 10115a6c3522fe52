// The `toolschema` command, run as a user would: JSON on stdout, words on
// stderr, and the exit status (0 done, 1 violations, 2 error).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, test } from "node:test";
import { TRIVIAL, pkgDir, root, ts } from "./helpers.mjs";

const example = `${root}examples/github-tools-list.json`;
const mcpTools = JSON.parse(readFileSync(example, "utf8")).result.tools.slice(0, 3);

function cli(args, input) {
  const run = spawnSync(process.execPath, [`${pkgDir}cli.mjs`, ...args], { input: input ?? "", encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, json: () => JSON.parse(run.stdout) };
}

describe("toolschema normalize", () => {
  test("a single schema from stdin", () => {
    const run = cli(["normalize", "--target", "mcp"], JSON.stringify(TRIVIAL));
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.json(), ts.normalize(TRIVIAL, "mcp").schema);
  });

  test("an MCP tools/list response from a file keeps its shape", () => {
    const run = cli(["normalize", "-t", "google", example]);
    assert.equal(run.status, 0, run.stderr);
    const input = JSON.parse(readFileSync(example, "utf8"));
    const output = run.json();
    assert.equal(output.jsonrpc, "2.0");
    assert.equal(output.result.tools.length, input.result.tools.length);
    output.result.tools.forEach((tool, i) => {
      assert.equal(tool.name, input.result.tools[i].name);
      assert.deepEqual(tool.inputSchema, ts.normalize(input.result.tools[i].inputSchema, "google").schema);
    });
  });

  // Each shape: the input list, and where its schemas sit.
  const shapes = {
    "OpenAI chat tools": [
      mcpTools.map((t) => ({ type: "function", function: { name: t.name, parameters: t.inputSchema } })),
      (tool) => tool.function.parameters,
    ],
    "OpenAI Responses tools": [
      mcpTools.map((t) => ({ type: "function", name: t.name, parameters: t.inputSchema })),
      (tool) => tool.parameters,
    ],
    "Anthropic tools": [mcpTools.map((t) => ({ name: t.name, input_schema: t.inputSchema })), (tool) => tool.input_schema],
    "MCP tools": [mcpTools, (tool) => tool.inputSchema],
    "{tools: [...]}": [{ tools: mcpTools }, (tool) => tool.inputSchema, (doc) => doc.tools],
    "Gemini functionDeclarations (parametersJsonSchema)": [
      { functionDeclarations: mcpTools.map((t) => ({ name: t.name, parametersJsonSchema: t.inputSchema })) },
      (tool) => tool.parametersJsonSchema,
      (doc) => doc.functionDeclarations,
    ],
    "Gemini's request [{functionDeclarations}]": [
      [{ functionDeclarations: mcpTools.map((t) => ({ name: t.name, parameters: t.inputSchema })) }],
      (tool) => tool.parameters,
      (doc) => doc[0].functionDeclarations,
    ],
    "Gemini's request {tools: [{functionDeclarations}, {googleSearch}]}": [
      { tools: [{ googleSearch: {} }, { functionDeclarations: mcpTools.map((t) => ({ name: t.name, parameters: t.inputSchema })) }] },
      (tool) => tool.parameters,
      (doc) => doc.tools[1].functionDeclarations,
    ],
    "Gemini function declarations (parameters)": [
      mcpTools.map((t) => ({ name: t.name, description: t.description, parameters: t.inputSchema })),
      (tool) => tool.parameters,
    ],
  };
  for (const [label, [input, schemaOf, listOf = (doc) => doc]] of Object.entries(shapes)) {
    test(`${label} are rewritten in place`, () => {
      const run = cli(["normalize", "--target", "cca", "-"], JSON.stringify(input));
      assert.equal(run.status, 0, run.stderr);
      const out = listOf(run.json());
      assert.equal(out.length, mcpTools.length);
      out.forEach((tool, i) => assert.deepEqual(schemaOf(tool), ts.normalize(mcpTools[i].inputSchema, "cca").schema));
    });
  }

  test("openai-strict marks OpenAI-shaped tools with whether they are strict", () => {
    const input = mcpTools.map((t) => ({ type: "function", function: { name: t.name, parameters: t.inputSchema } }));
    const run = cli(["normalize", "--target", "openai-strict", "--compact"], JSON.stringify(input));
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim().split("\n").length, 1, "--compact prints one line");
    run.json().forEach((tool, i) => {
      const expected = ts.normalize(mcpTools[i].inputSchema, "openai-strict");
      assert.equal(tool.function.strict, expected.strict === true);
      assert.deepEqual(tool.function.parameters, expected.schema);
    });
  });

  test("--report and --summary write for people on stderr, JSON stays on stdout", () => {
    const run = cli(["normalize", "--target", "google", "--report", "--summary", example]);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(run.json().result.tools.length > 0);
    const lines = run.stderr.trim().split("\n");
    assert.match(lines.at(-1), /^google: 26 tools, \d+ lossy change\(s\) in \d+ of them, \d+ fallback\(s\)$/);
  });

  test("--report lists changes with their JSON pointers", () => {
    const schema = { type: "object", properties: { s: { type: "string", pattern: "^a", format: "email" } } };
    const run = cli(["normalize", "--target", "google", "--report"], JSON.stringify(schema));
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /^ {2}\/properties\/s\S* {2}[a-z-]+: /m);
  });
});

describe("tool names and list sizes", () => {
  const schema = { type: "object", properties: { title: { type: "string" }, n: { type: "integer" } }, required: ["title"] };
  const list = [{ name: "github/create_issue", inputSchema: schema }, { name: "ok", inputSchema: schema }];

  test("a name the target refuses is written as the API sends it, and the mapping is on stderr", () => {
    const run = cli(["normalize", "-t", "openai-strict"], JSON.stringify(list));
    assert.equal(run.status, 0, run.stderr);
    const expected = ts.normalizeTools(list, { target: "openai-strict" });
    assert.deepEqual(run.json().map((t) => t.name), expected.tools.map((t) => t.name));
    assert.equal(run.json()[0].name, "github_create_issue");
    assert.match(run.stderr, /^sent as github_create_issue for "github\/create_issue"$/m);
    // Targets without a name rule keep the name and say nothing.
    const mcp = cli(["normalize", "-t", "mcp"], JSON.stringify(list));
    assert.equal(mcp.json()[0].name, "github/create_issue");
    assert.equal(mcp.stderr, "");
  });

  test("restore --tool finds the tool by the name the model called", () => {
    const dir = mkdtempSync(`${tmpdir()}/toolschema-cli-`);
    writeFileSync(`${dir}/tools.json`, JSON.stringify(list));
    const run = cli(["restore", "-t", "openai-strict", "--schema", `${dir}/tools.json`, "--tool", "github_create_issue"], '{"title": "t", "n": null}');
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.json(), { title: "t" });
    assert.match(run.stderr, /^tool: github\/create_issue$/m);
    const unknown = cli(["restore", "-t", "openai-strict", "--schema", `${dir}/tools.json`, "--tool", "nope"], "{}");
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /no tool named "nope"/);
    rmSync(dir, { recursive: true });
  });

  test("a llamacpp list past the grammar ceiling is reported on stderr", () => {
    const big = Array.from({ length: 60 }, (_, i) => ({ name: `t${i}`, description: "d".repeat(1700), inputSchema: schema }));
    const run = cli(["normalize", "-t", "llamacpp", "--compact"], JSON.stringify(big));
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /^tool-list-too-large: /m);
  });
});

describe("toolschema check", () => {
  test("output of normalize passes check (exit 0, [] on stdout)", () => {
    const normalized = cli(["normalize", "--target", "google", example]).stdout;
    const run = cli(["check", "--target", "google"], normalized);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.json(), []);
  });

  test("violations exit 1 and are listed per tool, with --report on stderr", () => {
    const run = cli(["check", "--target", "openai-strict", "--report", example]);
    assert.equal(run.status, 1);
    const found = run.json();
    assert.ok(found.length > 0);
    for (const entry of found) {
      assert.equal(typeof entry.tool, "string");
      assert.ok(entry.violations.length > 0);
    }
    assert.match(run.stderr, /^\S+ \/\S* [a-z-]+: /m);
  });
});

describe("the rest of the command line", () => {
  test("targets prints what targets() returns", () => {
    const run = cli(["targets"]);
    assert.equal(run.status, 0);
    assert.deepEqual(run.json(), ts.targets());
  });

  test("--help and --version", () => {
    assert.match(cli(["--help"]).stdout, /^Usage:/);
    assert.equal(cli(["--version"]).stdout.trim(), ts.version());
  });

  for (const [label, args, input, message] of [
    ["no command", [], "", /no command/],
    ["an unknown command", ["frob"], "", /unknown command "frob"/],
    ["an unknown option", ["normalize", "--frob"], "", /frob/],
    ["no --target", ["normalize"], "{}", /--target/],
    ["input that is not JSON", ["normalize", "-t", "mcp"], "{", /invalid-json/],
    ["a missing file", ["normalize", "-t", "mcp", `${root}no-such-file.json`], "", /cannot read/],
    ["a list element that is not a tool", ["normalize", "-t", "mcp"], "[{\"name\": \"x\"}]", /tool #0/],
    // A string where a schema belongs is read as JSON text, like the API does.
    ["a broken schema in one tool", ["normalize", "-t", "mcp"], "[{\"name\": \"x\", \"inputSchema\": \"{\"}]", /invalid-json: tool x: /],
    // The API's code and pointer for a list shape it cannot read, and for a tool given as a schema.
    ["an unreadable Gemini group", ["normalize", "-t", "google"], JSON.stringify({ tools: [{ functionDeclarations: { name: "f" } }] }), /not-a-schema at \/tools\/0\/functionDeclarations: /],
    ["one tool where a schema belongs", ["normalize", "-t", "openai"], JSON.stringify({ name: "f", inputSchema: { type: "object" } }), /not-a-schema: .*tool\.inputSchema/],
  ]) {
    test(`${label}: message on stderr, exit 2`, () => {
      const run = cli(args, input);
      assert.equal(run.status, 2, run.stdout);
      assert.equal(run.stdout, "");
      assert.match(run.stderr, message);
    });
  }
});
