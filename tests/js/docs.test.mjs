// Every code block of the package README (pkg-template/README.md, what npm
// shows) and of the repository README runs as written, against the packed
// package installed into a fresh consumer project, the way a user pastes it:
//
// - `js` / `mjs` blocks run as ES modules, `cjs` blocks as CommonJS;
// - `ts` blocks are type-checked by tsc under `strict` (with the real
//   `openai`, `@anthropic-ai/sdk` and `@google/genai` types), then run;
// - `sh` blocks are commands, not run, except their `npx toolschema ...`
//   lines, which run in the consumer project against sample files named as
//   the README names them (tools.json, schema.json, tool.json, args.json);
// - `text`, `json` and `console` blocks are output or data, never run;
// - `js fragment` / `ts fragment` blocks are only parsed (js) or
//   type-checked (ts): for a snippet that cannot stand alone. None is used
//   today; a new one should be the exception.
//
// A line `console.log(...); // → text` states what it prints: the block's
// stdout must have that line, in that order. A fence with no language, or
// one not listed here, fails the suite, so every block is either run or
// deliberately marked as not runnable.
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { after, before, describe, test } from "node:test";
import { buildSync } from "esbuild";
import { pkgDir, root, ts } from "./helpers.mjs";

const run = promisify(execFile);
const READMES = { "pkg-template/README.md": readFileSync(`${root}pkg-template/README.md`, "utf8"), "README.md": readFileSync(`${root}README.md`, "utf8") };
const RUN = new Set(["js", "mjs", "cjs", "ts"]);
const NOT_RUN = new Set(["sh", "text", "json", "console"]);

/** The fenced code blocks of a Markdown text: `{lang, fragment, code, line}`. */
function codeBlocks(markdown) {
  const blocks = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].match(/^(\s*)(`{3,}|~{3,})(.*)$/);
    if (open === null) continue;
    const [, indent, fence, info] = open;
    const [lang = "", ...flags] = info.trim().split(/\s+/).filter(Boolean);
    const start = i;
    const body = [];
    for (i++; i < lines.length && !(lines[i].startsWith(indent + fence[0].repeat(fence.length)) && lines[i].trim() === fence[0].repeat(lines[i].trim().length)); i++) {
      body.push(lines[i].slice(indent.length));
    }
    if (i === lines.length) throw new Error(`unclosed code fence at line ${start + 1}`);
    blocks.push({ lang, fragment: flags.includes("fragment"), flags, code: body.join("\n") + "\n", line: start + 1 });
  }
  return blocks;
}

/** The `// → text` expectations of a block, in order. */
function expectations(code) {
  return [...code.matchAll(/console\.log\(.*\);?\s*\/\/ → (.*)$/gm)].map(([, text]) => text.trimEnd());
}

/** Asserts that `stdout` has each expected line, in order (other lines may come between). */
function assertPrints(stdout, expected, where) {
  const lines = stdout.split("\n");
  let at = 0;
  for (const want of expected) {
    const found = lines.indexOf(want, at);
    assert.ok(found >= 0, `${where}: expected a line ${JSON.stringify(want)} after line ${at} of the output:\n${stdout}`);
    at = found + 1;
  }
}

describe("the code block reader", () => {
  test("reads languages, flags, bodies and lines; nested fences of another length stay inside", () => {
    const blocks = codeBlocks("a\n```js\nx();\n```\n\n````md\n```js\ny\n```\n````\n  ```ts fragment\n  let a: number;\n  ```\n");
    assert.deepEqual(blocks.map(({ lang, fragment, code, line }) => [lang, fragment, code, line]), [
      ["js", false, "x();\n", 2],
      ["md", false, "```js\ny\n```\n", 6],
      ["ts", true, "let a: number;\n", 11],
    ]);
  });

  test("an unclosed fence is an error, not a block silently dropped", () => {
    assert.throws(() => codeBlocks("```js\nx();\n"), /unclosed code fence at line 1/);
  });

  test("expectations and their order", () => {
    assert.deepEqual(expectations('console.log(a); // → 1\nconsole.log(b);\nconsole.log(c) // → {"x":1}\n'), ["1", '{"x":1}']);
    assert.doesNotThrow(() => assertPrints("1\nnoise\n2\n", ["1", "2"], "t"));
    assert.throws(() => assertPrints("2\n1\n", ["1", "2"], "t"), /expected a line "2"/);
  });
});

for (const [file, text] of Object.entries(READMES)) {
  test(`${file}: every fence names a language this suite knows`, () => {
    const blocks = codeBlocks(text);
    assert.ok(blocks.length > 0);
    for (const { lang, line } of blocks) {
      assert.ok(RUN.has(lang) || NOT_RUN.has(lang), `${file}:${line}: fence language "${lang}" is neither run (${[...RUN]}) nor marked as not runnable (${[...NOT_RUN]})`);
    }
  });
}

// The consumer: the packed tarball installed offline, as in runtimes.test.mjs,
// plus the SDKs and zod from this repository's devDependencies (linked, so
// nothing is fetched), which the examples import or type against.
const work = mkdtempSync(join(tmpdir(), "toolschema-docs-"));
after(() => rmSync(work, { recursive: true, force: true }));
// gpt-tokenizer: the optional peer the cost examples need.
const LINKED = ["openai", "@anthropic-ai/sdk", "@google/genai", "@modelcontextprotocol/sdk", "ai", "zod", "@types/node", "gpt-tokenizer"];
const tsc = `${root}node_modules/.bin/tsc`;

// The files the README's CLI lines name: an MCP tools/list response, one
// tool, one schema, and the arguments a model sent for that tool.
const SAMPLE_TOOL = {
  name: "search_issues",
  description: "Search the issues of a repository",
  inputSchema: {
    type: "object",
    properties: { query: { type: "string" }, limit: { type: "integer", minimum: 1, maximum: 50 } },
    required: ["query"],
  },
};
const SAMPLES = {
  "tools.json": { jsonrpc: "2.0", id: 1, result: { tools: [SAMPLE_TOOL] } },
  "tool.json": SAMPLE_TOOL,
  "schema.json": SAMPLE_TOOL.inputSchema,
  "args.json": { query: "wasm", limit: null },
};

before(() => {
  const [{ filename }] = JSON.parse(execFileSync("npm", ["pack", pkgDir, "--pack-destination", work, "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
  writeFileSync(join(work, "package.json"), JSON.stringify({ private: true, type: "module", dependencies: { toolschema: `file:./${filename}` } }));
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: work, stdio: "ignore" });
  for (const name of LINKED) {
    mkdirSync(join(work, "node_modules", name, ".."), { recursive: true });
    symlinkSync(join(root, "node_modules", name), join(work, "node_modules", name), "dir");
  }
  for (const [name, value] of Object.entries(SAMPLES)) writeFileSync(join(work, name), JSON.stringify(value, null, 2));
});

const env = { ...process.env, NO_COLOR: "1", PI_NO_STRICT: "" };

async function runModule(path, where) {
  const { stdout } = await run(process.execPath, [path], { cwd: work, env, timeout: 60_000 }).catch((err) => {
    throw new Error(`${where} failed:\n${err.stderr || err.message}`);
  });
  return stdout;
}

function typecheck(dir, files) {
  const project = join(work, dir);
  mkdirSync(project, { recursive: true });
  for (const [name, code] of Object.entries(files)) writeFileSync(join(project, name), code);
  const config = {
    compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext", types: ["node"], skipLibCheck: true },
    include: Object.keys(files),
  };
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify(config));
  const result = execFileSync(tsc, ["-p", project], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).toString();
  return result;
}

for (const [file, text] of Object.entries(READMES)) {
  const slug = file.replace(/\W+/g, "-");
  describe(`${file}, every block as written`, () => {
    for (const block of codeBlocks(text)) {
      const where = `${file}:${block.line}`;
      const name = `${slug}-${block.line}`;
      if (block.lang === "ts") {
        test(`${where} (ts${block.fragment ? ", fragment" : ""}): tsc --strict${block.fragment ? "" : ", then runs"}`, async () => {
          const mts = `${name}.mts`;
          try {
            typecheck(`ts-${name}`, { [mts]: block.fragment ? `${block.code}\nexport {};\n` : block.code });
          } catch (err) {
            assert.fail(`${where} does not type-check under strict:\n${err.stdout}${err.stderr}`);
          }
          if (block.fragment) return;
          // Node 20 runs no TypeScript: esbuild strips the types, nothing else.
          const js = buildSync({ stdin: { contents: block.code, loader: "ts" }, format: "esm", write: false, logLevel: "silent" }).outputFiles[0].text;
          const path = join(work, `${name}.mjs`);
          writeFileSync(path, js);
          assertPrints(await runModule(path, where), expectations(block.code), where);
        });
      } else if (block.lang === "js" || block.lang === "mjs" || block.lang === "cjs") {
        test(`${where} (${block.lang}${block.fragment ? ", fragment: parsed" : ""}): runs`, async () => {
          const path = join(work, `${name}.${block.lang === "cjs" ? "cjs" : "mjs"}`);
          writeFileSync(path, block.code);
          if (block.fragment) {
            execFileSync(process.execPath, ["--check", path]);
            return;
          }
          assertPrints(await runModule(path, where), expectations(block.code), where);
        });
      } else if (block.lang === "sh") {
        const lines = block.code.split("\n").map((l) => l.replace(/\s+#.*$/, "").trim()).filter((l) => l.startsWith("npx toolschema"));
        for (const line of lines) {
          test(`${where}: ${line}`, async () => {
            // `-` reads stdin: give it the tool list. Exit 2 is an error;
            // `check` and `restore` exit 1 on a finding, which they print.
            const { stdout, status, stderr } = await new Promise((ok) => {
              const child = execFile("bash", ["-c", line], { cwd: work, env }, (err, stdout, stderr) => ok({ stdout, stderr, status: err?.code ?? 0 }));
              child.stdin.end(JSON.stringify(SAMPLES["tools.json"]));
            });
            const finding = /^npx toolschema (check|restore) /.test(line) ? [0, 1] : [0];
            assert.ok(finding.includes(status), `${where}: ${line} exited ${status}\n${stderr}`);
            if (!line.includes(">")) assert.ok(stdout.length > 0, `${where}: ${line} printed nothing`);
          });
        }
      }
    }
  });
}

// The docs agree with the package they describe.
describe("the package README and the package agree", () => {
  const readme = READMES["pkg-template/README.md"];
  const dts = readFileSync(`${pkgDir}index.d.ts`, "utf8");
  const section = (title) => {
    const start = readme.indexOf(`\n## ${title}\n`);
    assert.ok(start >= 0, `no "## ${title}" section`);
    const end = readme.indexOf("\n## ", start + 1);
    return readme.slice(start, end < 0 ? undefined : end);
  };
  const firstColumn = (md) => [...md.matchAll(/^\| `([a-z-]+)` \|/gm)].map(([, id]) => id);

  test("the target table lists exactly the ids targets() returns, strict where they are", () => {
    const rows = [...section("Targets").matchAll(/^\| `([a-z-]+)` \|.*\| *(yes)? *\|$/gm)].map(([, id, yes]) => [id, yes === "yes"]);
    assert.deepEqual(rows.sort(), ts.targets().map((t) => [t.id, t.strict]).sort());
  });

  test("the error table lists exactly the codes ErrorCode declares", () => {
    const declared = dts.match(/export type ErrorCode =([^;]*);/)[1].match(/"[a-z-]+"/g).map((c) => JSON.parse(c));
    assert.deepEqual(firstColumn(section("Errors")).sort(), declared.sort());
  });

  test("every function the package exports is in the API table", () => {
    const api = section("API");
    for (const name of Object.keys(ts)) {
      if (name === "ToolSchemaError") continue;
      assert.match(api, new RegExp(`\`${name}\\(`), `${name} is not in the API table`);
    }
  });

  test("the README ships in the package", () => {
    assert.equal(readFileSync(`${pkgDir}README.md`, "utf8"), readme);
  });
});
