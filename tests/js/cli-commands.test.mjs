// explain, diff, cost and check --strict, run as a user runs them: piped
// (plain text) and on a terminal (colour, progress), on real schemas from
// ../shared/corpus. And toolschema/cost: its counts are gpt-tokenizer's own,
// the core entry never loads the tokenizer, and without it cost says so.
//
// The terminal is a real pseudo-terminal: util-linux `script -qec` runs the
// command with stdin, stdout and stderr on a pty (FORCE_COLOR is tested
// separately, piped). Without `script` those tests are skipped, naming it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { countTokens as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { pkgDir, root, ts } from "./helpers.mjs";

const { cost, countTokens, ENCODING } = await import(`${pkgDir}cost.mjs`);

const corpus = `${root}../shared/corpus/`;
const work = mkdtempSync(join(tmpdir(), "toolschema-cli-commands-"));
after(() => rmSync(work, { recursive: true, force: true }));

// A corpus file as the MCP tool list a server would answer with.
const mcpList = (name) => JSON.parse(readFileSync(`${corpus}${name}.json`, "utf8")).map((e) => ({ name: e.name, inputSchema: e.schema }));
const save = (name, value) => {
  const path = join(work, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
};
// firecrawl-mcp: 26 real tools, open maps among them (strict since they go
// out as entries); gen-zod4: 2 of its 30 tools still fall open on
// openai-strict (a tuple, an allOf conflict); server-github:
// all 26 are strict and lossless.
const firecrawl = mcpList("mcp-npm-firecrawl-mcp");
const fallsOpen = mcpList("gen-zod4");
const github = mcpList("mcp-npm-modelcontextprotocol-server-github");
const firecrawlFile = save("firecrawl.json", { jsonrpc: "2.0", id: 1, result: { tools: firecrawl } });
const fallsOpenFile = save("falls-open.json", { jsonrpc: "2.0", id: 1, result: { tools: fallsOpen } });
const githubFile = save("github.json", github);
// Every schema of the corpus as one list: long enough for the progress line.
const everything = readdirSync(corpus).filter((f) => f.endsWith(".json")).flatMap((f) => mcpList(f.slice(0, -5)));
const everythingFile = save("everything.json", everything);

const plainEnv = () => {
  const env = { ...process.env };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  delete env.NODE_DISABLE_COLORS;
  // Node's colour detection (hasColors) answers "no colour" whenever CI is set
  // outside the CI services it knows, so a terminal under CI=true (.ci/run)
  // would show none; the tests judge the CLI, not the machine they run on.
  delete env.CI;
  return env;
};
const ESC = /\x1b\[/;

function cli(args, { input = "", env = {} } = {}) {
  const run = spawnSync(process.execPath, [`${pkgDir}cli.mjs`, ...args], { input, encoding: "utf8", env: { ...plainEnv(), ...env } });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, json: () => JSON.parse(run.stdout) };
}

const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;
const noScript = hasScript ? false : "util-linux `script` is missing (apt-get install bsdutils): no pseudo-terminal to run the CLI on";
const quote = (s) => `'${String(s).replace(/'/g, "'\\''")}'`;

/** The CLI on a pseudo-terminal: stdout and stderr both arrive on the pty, in `out`. */
function tty(args, env = {}) {
  const command = [process.execPath, `${pkgDir}cli.mjs`, ...args].map(quote).join(" ");
  const run = spawnSync("script", ["-qec", command, "/dev/null"], { input: "", encoding: "utf8", env: { ...plainEnv(), TERM: "xterm-256color", ...env } });
  return { status: run.status, out: run.stdout };
}

describe("check --strict, the CI gate", () => {
  test("a list that falls open on openai-strict fails: one `pointer: code message` line per problem, pointers into the file", () => {
    const run = cli(["check", "--target", "openai-strict", "--strict", fallsOpenFile]);
    assert.equal(run.status, 1, run.stderr);
    assert.doesNotMatch(run.stdout + run.stderr, ESC, "piped output has no colour");
    const lines = run.stdout.trimEnd().split("\n");
    for (const line of lines) assert.match(line, /^\/\S*: [a-z][a-z0-9-]* \S/);
    // Every tool the API says is not strict has its reason on a line, at the
    // node strict mode cannot express.
    const { telemetry } = ts.normalizeTools(fallsOpen, { target: "openai-strict" });
    const notStrict = telemetry.tools.filter((t) => t.strict === false);
    // The allOf of two patterns (a tuple whose positions differ was the
    // second before tuples went out as objects of their positions).
    assert.equal(notStrict.length, 1);
    for (const t of notStrict) {
      const pointer = `/result/tools/${t.index}/inputSchema${t.strictError.pointer}`;
      assert.ok(lines.includes(`${pointer}: ${t.strictError.code} fails open (not strict): ${t.strictError.message}`), `no line for ${t.name}`);
    }
    // And every lossy change of the tools that stay strict.
    const lossy = telemetry.tools.filter((t) => t.strict).flatMap((t) => t.report.diagnostics.filter((d) => d.lossy).map((d) => `/result/tools/${t.index}/inputSchema${d.pointer}: ${d.code} ${d.message}`));
    assert.ok(lossy.length > 0);
    for (const line of lossy) assert.ok(lines.includes(line), line);
    assert.equal(lines.length, notStrict.length + lossy.length);
    assert.equal(run.stderr, `openai-strict: ${lines.length} problem(s) in 9 of 30 tool(s)\n`);
  });

  test("a strict-clean list passes: exit 0, nothing on stdout", () => {
    const run = cli(["check", "-t", "openai-strict", "--strict", githubFile]);
    assert.equal(run.status, 0, run.stdout);
    assert.equal(run.stdout, "");
    assert.equal(run.stderr, "openai-strict: 26 tool(s), no problem\n");
    assert.ok(ts.normalizeTools(github, { target: "openai-strict" }).telemetry.tools.every((t) => t.strict && !t.report.lossy));
  });

  test("--json has the same problems as the lines; --allow takes a code out", () => {
    const plain = cli(["check", "-t", "openai-strict", "--strict", firecrawlFile]).stdout.trimEnd().split("\n");
    const run = cli(["check", "-t", "openai-strict", "--strict", "--json", firecrawlFile]);
    assert.equal(run.status, 1);
    const { target, tools, problems } = run.json();
    assert.deepEqual([target, tools], ["openai-strict", 26]);
    assert.deepEqual(problems.map((p) => `${p.pointer}: ${p.code} ${p.message}`), plain);
    assert.ok(problems.every((p) => firecrawl.some((t) => t.name === p.tool)));
    const allowed = cli(["check", "-t", "openai-strict", "--strict", "--allow", "keyword-spilled", firecrawlFile]);
    assert.equal(allowed.status, 1);
    const rest = allowed.stdout.trimEnd().split("\n");
    assert.deepEqual(rest, plain.filter((l) => !/: keyword-spilled /.test(l)));
    assert.ok(rest.length < plain.length);
  });

  test("a lone schema from stdin: a lossy change is a problem at its pointer", () => {
    const schema = { type: "object", properties: { id: { type: "string", pattern: "^[a-z]+$" } } };
    const run = cli(["check", "-t", "cca", "--strict"], { input: JSON.stringify(schema) });
    assert.equal(run.status, 1);
    assert.equal(run.stdout, "/properties/id: keyword-spilled pattern not accepted by cca; moved into description\n");
    const ok = cli(["check", "-t", "mcp", "--strict"], { input: JSON.stringify(schema) });
    assert.equal(ok.status, 0, ok.stdout);
  });

  test("without --strict, check is unchanged (JSON of what the target rejects as is)", () => {
    const run = cli(["check", "-t", "openai-strict", githubFile]);
    assert.equal(run.status, 1);
    assert.ok(run.json().length > 0);
  });
});

describe("explain", () => {
  test("every diagnostic of every tool, grouped by code, with the provider's rules", () => {
    const run = cli(["explain", "-t", "google", firecrawlFile]);
    assert.equal(run.status, 0, run.stderr);
    const { telemetry } = ts.normalizeTools(firecrawl, { target: "google" });
    const google = ts.targets().find((t) => t.id === "google");
    assert.match(run.stdout, new RegExp(`^google: ${google.description.replace(/[()]/g, "\\$&")}\n  provider rules: ${google.source}\n`));
    const total = telemetry.tools.reduce((n, t) => n + t.report.diagnostics.length, 0);
    assert.match(run.stdout, new RegExp(`26 tool\\(s\\), 26 changed: ${total} change\\(s\\)`));
    // Each tool's block: its name and schema pointer, each code with its count, each change.
    const blocks = run.stdout.split("\n\n").slice(1);
    for (const t of telemetry.tools) {
      const block = blocks.find((b) => b.startsWith(`${t.name}  /result/tools/${t.index}/inputSchema\n`));
      assert.ok(block, `no block for ${t.name}`);
      const codes = [...new Set(t.report.diagnostics.map((d) => d.code))];
      for (const code of codes) {
        const n = t.report.diagnostics.filter((d) => d.code === code).length;
        assert.match(block, new RegExp(`^  ${code} ×${n}`, "m"));
      }
      for (const d of t.report.diagnostics) assert.ok(block.includes(`    ${d.pointer || "/"}  ${d.message}`), d.message);
    }
  });

  test("strict targets say which tools fail open and why; a code the target's section names cites its rule", () => {
    const list = mcpList("gen-zod4");
    const run = cli(["explain", "-t", "openai-strict"], { input: JSON.stringify(list) });
    assert.equal(run.status, 0, run.stderr);
    const { telemetry } = ts.normalizeTools(list, { target: "openai-strict" });
    for (const t of telemetry.tools.filter((t) => t.strict === false)) {
      assert.ok(run.stdout.includes(`  fails open: ${t.strictError.code} at ${t.strictError.pointer || "/"}: ${t.strictError.message}`), t.name);
    }
    // CONSTRAINTS.md, OpenAI strict section, rule 1.1 names default-dropped.
    assert.match(run.stdout, /^ {2}default-dropped ×\d+ lossy\n {4}rule: 1\.1 default is inlined as {2}\(default: X\) into an existing description/m);
    assert.match(run.stdout, /^ {2}contract: CONSTRAINTS\.md, "OpenAI strict \(openai-strict;/m);
  });

  test("--json: the report grouped, for several targets", () => {
    const run = cli(["explain", "-t", "google", "-t", "anthropic", "--json", firecrawlFile]);
    assert.equal(run.status, 0, run.stderr);
    const sections = run.json();
    assert.deepEqual(sections.map((s) => s.target), ["google", "anthropic"]);
    for (const s of sections) {
      const { telemetry } = ts.normalizeTools(firecrawl, { target: s.target });
      s.tools.forEach((tool, i) => {
        assert.equal(tool.name, firecrawl[i].name);
        assert.equal(tool.pointer, `/result/tools/${i}/inputSchema`);
        const flat = tool.groups.flatMap((g) => g.changes.map((c) => ({ code: g.code, ...c })));
        const sorted = (list) => list.map((d) => JSON.stringify([d.code, d.pointer, d.message, d.lossy])).sort();
        assert.deepEqual(sorted(flat), sorted(telemetry.tools[i].report.diagnostics));
      });
    }
  });
});

/** Applies diff's changes (pointers relative to `value`) to a copy of `value`. */
function applyChanges(value, changes) {
  const root = { v: structuredClone(value) };
  const parts = (p) => ["v", ...p.split("/").slice(1).map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"))];
  // Array members are removed from the end, so earlier indices stay put.
  const removals = changes.filter((c) => c.op === "remove").reverse();
  for (const c of [...changes.filter((c) => c.op !== "remove"), ...removals]) {
    const keys = parts(c.pointer);
    const parent = keys.slice(0, -1).reduce((o, k) => o[k], root);
    const last = keys.at(-1);
    if (c.op === "remove") Array.isArray(parent) ? parent.splice(Number(last), 1) : delete parent[last];
    else parent[last] = structuredClone(c.to);
  }
  return root.v;
}

describe("diff", () => {
  test("a lone schema: one line per member that differs", () => {
    const schema = { type: "object", properties: { id: { type: "string", pattern: "^a" } } };
    const run = cli(["diff", "-t", "cca", "-t", "openai-strict"], { input: JSON.stringify(schema) });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(
      run.stdout,
      [
        "cca: schema, 2 difference(s)",
        '  - /properties/id/pattern: "^a"',
        '  + /properties/id/description: "{pattern: \\"^a\\"}"',
        "",
        "openai-strict: schema, 5 difference(s)",
        '  - /properties/id/type: "string"',
        '  - /properties/id/pattern: "^a"',
        '  + /properties/id/anyOf: [{"type":"string","pattern":"^a"},{"type":"null"}]',
        "  + /additionalProperties: false",
        '  + /required: ["id"]',
        "",
      ].join("\n"),
    );
  });

  for (const target of ["openai-strict", "google", "anthropic"]) {
    test(`${target}: the changes of --json turn each corpus tool into what the target receives`, () => {
      const run = cli(["diff", "-t", target, "--json", firecrawlFile]);
      assert.equal(run.status, 0, run.stderr);
      const [section] = run.json();
      const { tools: sent } = ts.normalizeTools(firecrawl, { target });
      assert.equal(section.tools.length, firecrawl.length);
      section.tools.forEach((tool, i) => {
        assert.equal(tool.pointer, `/result/tools/${i}`);
        assert.deepEqual(applyChanges(firecrawl[i], tool.changes), sent[i], tool.name);
      });
      assert.ok(section.tools.some((t) => t.changes.length > 0));
    });
  }
});

describe("toolschema/cost", () => {
  const bytes = (value) => Buffer.byteLength(JSON.stringify(value));
  const tokens = (value) => o200k(JSON.stringify(value));

  test("per tool and per list, as given and per target: bytes of the compact JSON, tokens as gpt-tokenizer counts them", () => {
    const result = cost(github, { targets: ["openai-strict", "google"] });
    assert.equal(result.encoding, ENCODING);
    assert.equal(ENCODING, "o200k_base");
    assert.deepEqual({ bytes: result.input.bytes, tokens: result.input.tokens }, { bytes: bytes(github), tokens: tokens(github) });
    github.forEach((tool, i) => assert.deepEqual(result.input.tools[i], { index: i, name: tool.name, bytes: bytes(tool), tokens: tokens(tool) }));
    assert.deepEqual(result.targets.map((t) => t.target), ["openai-strict", "google"]);
    for (const side of result.targets) {
      const { tools: sent } = ts.normalizeTools(github, { target: side.target });
      assert.deepEqual({ bytes: side.bytes, tokens: side.tokens }, { bytes: bytes(sent), tokens: tokens(sent) });
      sent.forEach((tool, i) => assert.deepEqual(side.tools[i], { index: i, name: tool.name, bytes: bytes(tool), tokens: tokens(tool) }));
    }
    // Strict mode adds a null branch per optional member and closes every object: it costs more.
    assert.ok(result.targets[0].tokens > result.input.tokens);
    assert.ok(result.input.tokens > 1000 && result.input.tokens < result.input.bytes);
  });

  test("a lone schema, a tool list's MCP envelope not counted, every target by default", () => {
    const schema = firecrawl[0].inputSchema;
    const single = cost(schema, { targets: "google" });
    assert.equal(single.input.tokens, tokens(schema));
    assert.equal(single.targets[0].tokens, tokens(ts.normalize(schema, "google").schema));
    assert.deepEqual(single.input.tools, [{ index: 0, name: null, bytes: bytes(schema), tokens: tokens(schema) }]);
    const all = cost({ jsonrpc: "2.0", id: 1, result: { tools: firecrawl } });
    assert.deepEqual(all.targets.map((t) => t.target), ts.targets().map((t) => t.id));
    assert.equal(all.input.tokens, tokens(firecrawl));
  });

  test("text that spells a special token is counted as text, not refused", () => {
    const tool = { name: "t", description: "ends with <|endoftext|>", inputSchema: { type: "object", properties: {} } };
    const result = cost([tool], { targets: ["mcp"] });
    assert.ok(result.input.tokens > countTokens(JSON.stringify([{ ...tool, description: "ends with" }])));
    assert.throws(() => o200k("<|endoftext|>"), /special token/, "gpt-tokenizer refuses it by default");
  });

  test("onProgress counts every tool of every side", () => {
    const seen = [];
    cost(github.slice(0, 3), { targets: ["openai", "google"], onProgress: (done, total) => seen.push([done, total]) });
    assert.deepEqual(seen, Array.from({ length: 9 }, (_, i) => [i + 1, 9]));
  });

  test("bad options and targets are ToolSchemaErrors", () => {
    assert.throws(() => cost({}, { targets: ["nope"] }), (e) => e instanceof ts.ToolSchemaError && e.code === "unknown-target");
    assert.throws(() => cost({}, { targets: [1] }), (e) => e instanceof ts.ToolSchemaError && e.code === "invalid-options");
    assert.throws(() => cost({}, []), (e) => e instanceof ts.ToolSchemaError && e.code === "invalid-options");
    assert.throws(() => cost({}, { targets: ["google"], maxDepth: "x" }), (e) => e instanceof ts.ToolSchemaError && e.code === "invalid-options");
  });

  test("the cost command prints cost()'s numbers; --json is cost()'s result", () => {
    const run = cli(["cost", "-t", "openai", "-t", "google", "--json", githubFile]);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.json(), cost(github, { targets: ["openai", "google"] }));
    const table = cli(["cost", "-t", "google", githubFile]);
    assert.equal(table.status, 0, table.stderr);
    const result = cost(github, { targets: ["google"] });
    const n = (v) => v.toLocaleString("en-US");
    const lines = table.stdout.split("\n");
    assert.match(lines[0], /^tool +input tokens +bytes +google tokens +bytes$/);
    github.forEach((tool, i) => {
      const [input, google] = [result.input.tools[i], result.targets[0].tools[i]];
      assert.match(lines[i + 1], new RegExp(`^${tool.name} +${n(input.tokens)} +${n(input.bytes)} +${n(google.tokens)} +${n(google.bytes)}$`));
    });
    assert.match(lines[github.length + 1], new RegExp(`^total +${n(result.input.tokens)} +${n(result.input.bytes)} +${n(result.targets[0].tokens)} +${n(result.targets[0].bytes)}$`));
  });

  test("without --target: a total per target, with the change against the input", () => {
    const run = cli(["cost", githubFile]);
    assert.equal(run.status, 0, run.stderr);
    const result = cost(github);
    const lines = run.stdout.split("\n");
    assert.match(lines[1], new RegExp(`^input +${result.input.tokens.toLocaleString("en-US")} `));
    result.targets.forEach((t, i) => {
      const pct = ((t.tokens - result.input.tokens) / result.input.tokens) * 100;
      assert.match(lines[i + 2], new RegExp(`^${t.target} +${t.tokens.toLocaleString("en-US")} +${t.bytes.toLocaleString("en-US")} +\\${pct >= 0 ? "+" : "-"}${Math.abs(pct).toFixed(1)}%$`));
    });
  });
});

describe("toolschema/cost types (cost.d.ts)", () => {
  // tsc from devDependencies, strict, ES2022 alone (no DOM, no Node types),
  // against the built package: every @ts-expect-error must be an error.
  const consumer = join(work, "types");
  mkdirSync(join(consumer, "node_modules"), { recursive: true });
  symlinkSync(pkgDir, join(consumer, "node_modules", "toolschema"), "dir");
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ private: true, type: "module" }));
  const usage = `
    import { cost, countTokens, ENCODING, TOKENIZER, type CostResult, type ToolCost } from "toolschema/cost";
    import { ToolSchemaError } from "toolschema";
    const result: CostResult = cost([{ name: "a", inputSchema: { type: "object" } }], { targets: ["openai", "google"], spill: "none", onProgress: (done: number, total: number) => void (done / total) });
    const first: ToolCost = result.targets[0].tools[0];
    const n: number = result.input.tokens + result.input.bytes + first.tokens + countTokens("x");
    const name: string | null = first.name;
    const e: string | undefined = first.error?.code;
    const enc: "o200k_base" = ENCODING;
    const tok: "gpt-tokenizer" = TOKENIZER;
    cost({ type: "object" }, { targets: "mcp" });
    cost("{}");
    try { cost({}); } catch (err) { if (err instanceof ToolSchemaError && err.code === "missing-dependency") void err.pointer; }
    // @ts-expect-error a misspelt target id
    cost({}, { targets: ["gogle"] });
    // @ts-expect-error results are read-only
    result.input.tokens = 1;
    // @ts-expect-error not an option
    cost({}, { tokenizer: "cl100k" });
    void [n, name, e, enc, tok];
  `;
  const compile = (dir, file, compilerOptions) => {
    const project = join(consumer, dir);
    mkdirSync(project);
    writeFileSync(join(project, file), usage);
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, lib: ["es2022"], types: [], ...compilerOptions }, include: [file] }));
    return spawnSync(`${root}node_modules/.bin/tsc`, ["-p", project], { encoding: "utf8" });
  };

  test("tsc: nodenext (ESM) and bundler resolution", () => {
    const esm = compile("nodenext", "cost.mts", { module: "nodenext", moduleResolution: "nodenext" });
    assert.equal(esm.status, 0, esm.stdout + esm.stderr);
    const bundler = compile("bundler", "cost.ts", { module: "esnext", moduleResolution: "bundler" });
    assert.equal(bundler.status, 0, bundler.stdout + bundler.stderr);
  });

  test("the compile can fail: a wrong result type is reported", () => {
    const project = join(consumer, "misuse");
    mkdirSync(project);
    writeFileSync(join(project, "m.mts"), 'import { cost } from "toolschema/cost";\nconst t: string = cost({}).input.tokens;\nvoid t;\n');
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, lib: ["es2022"], types: [], module: "nodenext", moduleResolution: "nodenext" }, include: ["m.mts"] }));
    const run = spawnSync(`${root}node_modules/.bin/tsc`, ["-p", project], { encoding: "utf8" });
    assert.notEqual(run.status, 0);
    assert.match(run.stdout, /TS2322/);
  });
});

describe("the tokenizer stays out of the core", () => {
  // A consumer whose node_modules/toolschema is the built package (a symlink:
  // Node resolves it to pkg/, whose parent holds the dev dependencies).
  const consumer = join(work, "consumer");
  mkdirSync(join(consumer, "node_modules"), { recursive: true });
  symlinkSync(pkgDir, join(consumer, "node_modules", "toolschema"), "dir");
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ private: true, type: "module" }));
  // Module hooks (node:module register) write every URL Node resolves to a log.
  writeFileSync(join(work, "hooks.mjs"), 'import { appendFileSync } from "node:fs";\nlet log;\nexport function initialize(data) { log = data.log; }\nexport async function resolve(specifier, context, next) {\n  const result = await next(specifier, context);\n  appendFileSync(log, result.url + "\\n");\n  return result;\n}\n');
  writeFileSync(join(work, "register.mjs"), `import { register } from "node:module";\nregister(${JSON.stringify(new URL(`file://${join(work, "hooks.mjs")}`).href)}, { data: { log: process.env.LOAD_LOG } });\n`);
  let runs = 0;
  const loaded = (args) => {
    const log = join(work, `loads-${runs++}.txt`);
    writeFileSync(log, "");
    const run = spawnSync(process.execPath, ["--import", join(work, "register.mjs"), ...args], { cwd: consumer, encoding: "utf8", env: { ...plainEnv(), LOAD_LOG: log } });
    assert.equal(run.status, 0, run.stderr);
    return readFileSync(log, "utf8").split("\n").filter(Boolean);
  };
  const tokenizer = (urls) => urls.filter((u) => u.includes("/gpt-tokenizer/"));

  test("importing toolschema (ESM) and normalizing loads no tokenizer; importing toolschema/cost does", () => {
    const core = loaded(["--input-type=module", "-e", 'const ts = await import("toolschema"); ts.normalize({ type: "object" }, "google");']);
    assert.ok(core.some((u) => u.endsWith("/pkg/node.mjs")), "the hook saw the package load");
    assert.deepEqual(tokenizer(core), []);
    const withCost = loaded(["--input-type=module", "-e", 'const { cost } = await import("toolschema/cost"); cost({ type: "object" }, { targets: ["mcp"] });']);
    assert.ok(tokenizer(withCost).length > 0, "the hook sees the tokenizer when cost loads it");
  });

  test("require('toolschema') loads no tokenizer", () => {
    const run = spawnSync(process.execPath, ["-e", 'require("toolschema"); console.log(Object.keys(require.cache).filter((k) => k.includes("gpt-tokenizer")).length)'], { cwd: consumer, encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), "0");
  });

  test("the CLI's other commands load no tokenizer; cost does", () => {
    const normalizeRun = loaded([`${pkgDir}cli.mjs`, "normalize", "-t", "google", githubFile]);
    assert.ok(normalizeRun.some((u) => u.endsWith("/pkg/cli-commands.mjs")));
    assert.deepEqual(tokenizer(normalizeRun), []);
    assert.deepEqual(tokenizer(loaded([`${pkgDir}cli.mjs`, "explain", "-t", "google", githubFile])), []);
    assert.ok(tokenizer(loaded([`${pkgDir}cli.mjs`, "cost", "-t", "google", githubFile])).length > 0);
  });

  test("without gpt-tokenizer installed: missing-dependency, from cost() and from the command", () => {
    // A copy of the package, so that nothing above it holds the dev dependencies.
    const bare = join(work, "bare");
    mkdirSync(join(bare, "node_modules"), { recursive: true });
    cpSync(pkgDir, join(bare, "node_modules", "toolschema"), { recursive: true });
    writeFileSync(join(bare, "package.json"), JSON.stringify({ private: true, type: "module" }));
    const code = 'const { cost } = await import("toolschema/cost"); const { normalize } = await import("toolschema"); console.log(JSON.stringify(normalize({}, "mcp").schema)); try { cost({}); } catch (e) { console.log(e.name, e.code, e.message); }';
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", code], { cwd: bare, encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    const [schema, error] = run.stdout.trim().split("\n");
    assert.equal(schema, JSON.stringify(ts.normalize({}, "mcp").schema), "importing toolschema/cost still works");
    assert.match(error, /^ToolSchemaError missing-dependency token counts need the gpt-tokenizer package, an optional peer dependency of toolschema: npm install gpt-tokenizer/);
    const command = spawnSync(process.execPath, [join(bare, "node_modules", "toolschema", "cli.mjs"), "cost", githubFile], { cwd: bare, encoding: "utf8" });
    assert.equal(command.status, 2);
    assert.equal(command.stdout, "");
    assert.match(command.stderr, /^toolschema: missing-dependency: token counts need the gpt-tokenizer package.*npm install gpt-tokenizer/);
  });
});

describe("colour, progress and help", () => {
  test("piped: plain; FORCE_COLOR=1 forces colour; NO_COLOR keeps it off", () => {
    const args = ["explain", "-t", "openai-strict", fallsOpenFile];
    const plain = cli(args);
    assert.doesNotMatch(plain.stdout, ESC);
    const forced = cli(args, { env: { FORCE_COLOR: "1" } });
    assert.match(forced.stdout, /\x1b\[1mopenai-strict\x1b\[22m/);
    assert.match(forced.stdout, /\x1b\[33mnot strict\x1b\[39m/);
    assert.equal(forced.stdout.replace(/\x1b\[[0-9;]*m/g, ""), plain.stdout, "colour is the only difference");
    assert.doesNotMatch(cli(args, { env: { NO_COLOR: "1" } }).stdout, ESC);
    assert.doesNotMatch(cli(args, { env: { FORCE_COLOR: "0" } }).stdout, ESC);
  });

  test("on a terminal: colour, unless NO_COLOR", { skip: noScript }, () => {
    const run = tty(["check", "-t", "openai-strict", "--strict", fallsOpenFile]);
    assert.equal(run.status, 1, run.out);
    assert.match(run.out, /\x1b\[36m\/result\/tools\/23\/inputSchema\/properties\/s\/allOf\x1b\[39m: \x1b\[31mstrict-unrepresentable\x1b\[39m fails open/);
    assert.match(run.out, /\x1b\[31mopenai-strict: \d+ problem\(s\) in 9 of 30 tool\(s\)\x1b\[39m/);
    const plain = tty(["check", "-t", "openai-strict", "--strict", fallsOpenFile], { NO_COLOR: "1" });
    assert.equal(plain.status, 1);
    assert.doesNotMatch(plain.out, ESC);
    assert.match(plain.out, /^\/result\/tools\/23\/inputSchema\/properties\/s\/allOf: strict-unrepresentable fails open/m);
  });

  test("a long list shows a progress line on a terminal, and none when piped", { skip: noScript }, () => {
    assert.ok(everything.length >= 300, `${everything.length} corpus schemas`);
    const run = tty(["cost", "-t", "openai", everythingFile], { NO_COLOR: "1" });
    assert.equal(run.status, 0, run.out);
    // Rewritten in place (\r, erase line), and erased before the table.
    assert.match(run.out, new RegExp(`\\r\\x1b\\[Kcost: \\d+/${everything.length * 2}`));
    assert.match(run.out, /\r\x1b\[K\r?\n?tool +input tokens/);
    const gate = tty(["check", "-t", "mcp", "--strict", everythingFile], { NO_COLOR: "1" });
    assert.match(gate.out, new RegExp(`\\r\\x1b\\[Kcheck mcp: normalizing ${everything.length} tools`));
    const piped = cli(["check", "-t", "mcp", "--strict", everythingFile]);
    assert.doesNotMatch(piped.stderr, /normalizing|\r/);
    // A short list shows none even on a terminal.
    assert.doesNotMatch(tty(["check", "-t", "mcp", "--strict", githubFile]).out, /normalizing/);
  });

  test("--help per command, and usage errors exit 2", () => {
    for (const command of ["explain", "diff", "cost", "check"]) {
      const run = cli([command, "--help"]);
      assert.equal(run.status, 0);
      assert.match(run.stdout, new RegExp(`^Usage: toolschema ${command} `));
    }
    assert.equal(cli(["help", "cost"]).stdout, cli(["cost", "-h"]).stdout);
    assert.match(cli(["--help"]).stdout, /toolschema explain --target <id>\.\.\./);
    for (const [args, message, input] of [
      [["explain", githubFile], /explain needs --target/],
      [["diff", "-t", "nope", githubFile], /unknown-target: unknown target "nope"/],
      [["check", "--strict", "-t", "google", "-t", "mcp", githubFile], /one --target/],
      [["cost", "--frob", githubFile], /frob/],
      [["explain", "-t", "google", githubFile, githubFile], /one input at a time/],
      [["explain", "-t", "google"], /invalid-json: stdin is not JSON/, "{"],
    ]) {
      const run = cli(args, { input });
      assert.equal(run.status, 2, `${args.join(" ")}: ${run.stdout}`);
      assert.match(run.stderr, message);
    }
  });
});
