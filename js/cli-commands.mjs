// The `toolschema` commands written for people: explain, diff, cost, and
// check --strict as a CI gate. cli.mjs parses the original commands and hands
// these over; each parses its own options, so --target may repeat here.
//
// Output for a person goes to stdout (the JSON of --json too); progress goes
// to stderr. Colour only where it can be seen: a terminal, unless NO_COLOR is
// set; FORCE_COLOR overrides both ways, as Node's own tty.getColorDepth reads
// them (https://nodejs.org/api/tty.html#writestreamgetcolordepthenv,
// https://no-color.org).
import { readFileSync, readSync } from "node:fs";
import { isatty } from "node:tty";
import { parseArgs } from "node:util";
import { ToolSchemaError, checkSchema, normalize, normalizeTools, targets } from "./node.mjs";
import { schemaSlot, toolEntries } from "./tools.mjs";

export class UsageError extends Error {}

export const COMMANDS = ["explain", "diff", "cost"];

const INPUT_HELP = `Input: a file, or stdin when the file is "-" or absent: a JSON Schema, a tool list in any
shape "normalize" reads (OpenAI, Responses, Anthropic, MCP, Gemini), or an MCP tools/list response.`;

const COLOUR_HELP = `Colour on a terminal; none when piped or with NO_COLOR set; FORCE_COLOR=1 forces it, FORCE_COLOR=0
turns it off. On a terminal, long lists show a progress line on stderr.`;

export const HELP = {
  explain: `Usage: toolschema explain --target <id> [--target <id>...] [file|-]

Every change the target makes, grouped by tool and by kind of change (the report's code), each
with its JSON pointer and message, marked when it loses meaning (lossy). Each kind cites the
rule behind it from the package's CONSTRAINTS.md, and each target its provider's documentation.
On strict targets, says whether each tool can be sent with strict: true, and why not.

Options:
  -t, --target <id>   target id, repeatable ("toolschema targets" lists them)
  --json              the same as JSON: [{target, source, tools: [{name, pointer, strict, groups}]}]
  -h, --help          show this help

${INPUT_HELP}
${COLOUR_HELP}
Exit status: 0 done, 2 error.
`,
  diff: `Usage: toolschema diff --target <id> [--target <id>...] [file|-]

The input against what each target receives, as a structural diff per tool: "-" a member the
target does not get, "+" one it gets that the input does not have, "~" a value that changed.
Pointers are relative to the tool (or to the schema, for a lone schema).

Options:
  -t, --target <id>   target id, repeatable ("toolschema targets" lists them)
  --json              the same as JSON: [{target, tools: [{name, pointer, changes: [{op, pointer, from?, to?}]}]}]
  -h, --help          show this help

${INPUT_HELP}
${COLOUR_HELP}
Exit status: 0 done (with or without differences), 2 error.
`,
  cost: `Usage: toolschema cost [--target <id>...] [--compact] [file|-]

What the input costs on the wire as given and for each target: UTF-8 bytes of the compact JSON
and tokens with the o200k_base encoding (OpenAI's GPT-4o, GPT-4.1, GPT-5 and o-series; other
providers' tokenizers are not public, so for them it is an estimate). A tool counts as its whole
definition in the shape given; a list as the JSON array of its tools.
Without --target: one total line per target. With --target: a line per tool and a total.
Needs the optional peer dependency gpt-tokenizer (npm install gpt-tokenizer).

Options:
  -t, --target <id>   target id, repeatable; default every target
  --compact           measure the targets' outputs with the compact option (repeated
                      subschemas in $defs, ignored keywords dropped)
  --json              the result of cost() from "toolschema/cost" as JSON
  -h, --help          show this help

${INPUT_HELP}
${COLOUR_HELP}
Exit status: 0 done, 2 error.
`,
  check: `Usage: toolschema check --target <id> [--strict] [--json] [file|-]

Without --strict: what the target would reject in the input as it is; prints it as JSON, exit 1
if anything (see toolschema --help).

With --strict, a CI gate: does toolschema's output for the target keep the input's meaning? A
problem is a lossy change (a keyword the target cannot take, a union collapsed), a tool a strict
target cannot send with strict: true (it would fail open), a tool whose schema could not be
normalized, or an output the target's checker refuses. One line per problem on stdout:
  <pointer>: <code> <message>
where the pointer is a JSON pointer into the input file; a summary line on stderr.

Options:
  -t, --target <id>   target id
  --strict            the gate described above
  --allow <code>      with --strict: a code that is not a problem here, repeatable (e.g.
                      --allow keyword-spilled, for constraints moved into the description)
  --json              with --strict: {target, tools, problems: [{tool, pointer, code, message}]}
  -h, --help          show this help

${INPUT_HELP}
${COLOUR_HELP}
Exit status: 0 no problem, 1 problems, 2 error.
`,
};

/** Runs `command` with its own arguments; returns the exit status (a promise for `cost`). */
export function runCommand(command, argv) {
  const options = {
    target: { type: "string", short: "t", multiple: true },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  };
  if (command === "cost") options.compact = { type: "boolean" };
  if (command === "check") {
    options.strict = { type: "boolean" };
    options.allow = { type: "string", multiple: true };
  }
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options });
  } catch (err) {
    throw new UsageError(err.message);
  }
  const { values: opts, positionals } = parsed;
  const files = positionals;
  if (opts.help) return void process.stdout.write(HELP[command]);
  if (files.length > 1) throw new UsageError(`one input at a time, got ${files.length}`);
  const ids = opts.target ?? [];
  if (command === "check" && !opts.strict) throw new UsageError("this form of check needs --strict; without it, check takes the options in toolschema --help");
  if (command !== "cost" && ids.length === 0) throw new UsageError(`${command} needs --target <id>; "toolschema targets" lists them`);
  if (command === "check" && ids.length > 1) throw new UsageError("check --strict takes one --target");
  const known = new Set(targets().map((t) => t.id));
  for (const id of ids) {
    if (!known.has(id)) throw new ToolSchemaError("unknown-target", "", `unknown target "${id}"; "toolschema targets" lists them`);
  }
  const document = readInput(files[0]);
  const out = painter(process.stdout);
  if (command === "explain") return explain(document, ids, opts, out);
  if (command === "diff") return diff(document, ids, opts, out);
  if (command === "check") return gate(document, ids[0], opts, out);
  return costCommand(document, ids, opts, out);
}

export function readText(file) {
  const stdin = file === undefined || file === "-";
  // isatty(0), not process.stdin.isTTY: creating process.stdin turns a pipe
  // non-blocking, and a read before the writer has written then fails EAGAIN.
  if (stdin && isatty(0)) throw new UsageError("no input: give a file, or pipe JSON into stdin");
  try {
    return stdin ? readStdin() : readFileSync(file, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read ${stdin ? "stdin" : file}: ${err.message}`);
  }
}

// All of stdin, also when it arrives non-blocking (inherited so, or set by
// another reader): EAGAIN means "not yet", so wait briefly and read again.
function readStdin() {
  const chunks = [];
  const buffer = Buffer.alloc(1 << 16);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    let n;
    try {
      n = readSync(0, buffer, 0, buffer.length, null);
    } catch (err) {
      if (err.code === "EAGAIN") {
        Atomics.wait(pause, 0, 0, 5);
        continue;
      }
      if (err.code === "EOF") break;
      throw err;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function readInput(file) {
  const text = readText(file);
  try {
    return JSON.parse(text);
  } catch (err) {
    const name = file === undefined || file === "-" ? "stdin" : file;
    throw new ToolSchemaError("invalid-json", "", `${name} is not JSON: ${err.message}`);
  }
}

// ---------------------------------------------------------------------------
// What each target does to the input, tool by tool.

/**
 * The input normalized for `target`, one entry per tool (one for a lone
 * schema): `{index, name, sentName, pointer, schemaPointer, input, output,
 * inputSchema, outputSchema, report, strict, strictError, error}`, where the
 * pointers are JSON pointers into the input document. `listFindings` are the
 * list's own diagnostics (a name rewritten, a list too large).
 */
function normalized(document, target) {
  const entries = toolEntries(document);
  if (entries === undefined) {
    const result = normalize(document, target);
    return {
      single: true,
      listFindings: [],
      tools: [{ index: 0, name: null, sentName: null, pointer: "", schemaPointer: "", input: document, output: result.schema, inputSchema: document, outputSchema: result.schema, modified: !sameJson(document, result.schema), ...verdict(result) }],
    };
  }
  const { tools: out, telemetry } = normalizeTools(document, { target });
  const sent = toolEntries(out);
  const tools = entries.map(({ tool, path }, i) => {
    const slot = schemaSlot(tool);
    const pointer = toPointer(path);
    const report = telemetry.tools[i];
    return {
      index: i,
      name: nameOf(tool) ?? `#${i}`,
      sentName: report.providerName ?? nameOf(tool),
      pointer,
      schemaPointer: slot === undefined ? undefined : pointer + toPointer(slot.path),
      input: tool,
      output: sent[i].tool,
      inputSchema: slot?.value,
      outputSchema: slot === undefined ? undefined : schemaSlot(sent[i].tool)?.value,
      modified: report.modified,
      ...verdict(report),
    };
  });
  return { single: false, listFindings: telemetry.diagnostics ?? [], tools };
}

const verdict = ({ report, strict, strictError, error }) => ({ report, strict, strictError, error });

const nameOf = (tool) => {
  const name = tool?.function?.name ?? tool?.name;
  return typeof name === "string" ? name : undefined;
};

const toPointer = (path) => path.map((key) => "/" + String(key).replace(/~/g, "~0").replace(/\//g, "~1")).join("");

function label(tool) {
  return tool.name === null ? "schema" : tool.sentName !== tool.name && tool.sentName !== undefined ? `${tool.name} (sent as ${tool.sentName})` : tool.name;
}

// ---------------------------------------------------------------------------
// explain

function explain(document, ids, opts, out) {
  const info = new Map(targets().map((t) => [t.id, t]));
  const rules = constraints();
  const sections = [];
  for (const target of ids) {
    const run = withProgress(`explain ${target}`, document, () => normalized(document, target));
    const tools = run.tools.map((tool) => ({
      index: tool.index,
      name: tool.name,
      sentName: tool.sentName,
      pointer: tool.schemaPointer ?? tool.pointer,
      modified: tool.modified,
      strict: tool.strict,
      strictError: tool.strictError,
      error: tool.error,
      groups: groupByCode(tool.report?.diagnostics ?? []).map((g) => ({ ...g, rule: ruleFor(rules, g.code, target) })),
      counters: tool.report?.counters ?? {},
    }));
    const { description, source } = info.get(target);
    sections.push({ target, description, source, contract: contractSection(rules, target), single: run.single, tools, listFindings: run.listFindings });
  }
  if (opts.json) return printJson(sections);
  const lines = [];
  for (const s of sections) {
    if (lines.length > 0) lines.push("");
    lines.push(`${out.bold(s.target)}: ${s.description}`);
    lines.push(`  provider rules: ${out.cyan(s.source)}`);
    if (s.contract !== undefined) lines.push(`  contract: CONSTRAINTS.md, "${s.contract}" (in the package)`);
    lines.push(`  ${explainSummary(s)}`);
    for (const tool of s.tools) {
      if (!tool.modified && tool.groups.length === 0 && tool.error === undefined && tool.sentName === tool.name) continue;
      lines.push("");
      let head = `${out.bold(label(tool))}  ${out.dim(tool.pointer || "/")}`;
      if (tool.strict !== undefined) head += tool.strict ? `  ${out.green("strict")}` : `  ${out.yellow("not strict")}`;
      lines.push(head);
      if (tool.error !== undefined) {
        lines.push(`  ${out.red("failed")} ${tool.error.code} at ${tool.error.pointer || "/"}: ${tool.error.message}`);
        lines.push(`    sent as the empty object schema instead`);
      }
      if (tool.strictError !== undefined) {
        lines.push(`  ${out.yellow("fails open")}: ${tool.strictError.code} at ${tool.strictError.pointer || "/"}: ${tool.strictError.message}`);
      }
      for (const g of tool.groups) {
        const tag = g.lossy ? ` ${out.red("lossy")}` : "";
        lines.push(`  ${out.magenta(g.code)} ×${g.changes.length}${tag}`);
        if (g.rule !== undefined) lines.push(`    ${out.dim(`rule: ${g.rule.text}`)}`);
        for (const c of g.changes) lines.push(`    ${out.cyan(c.pointer || "/")}  ${c.message}${c.lossy && !g.lossy ? ` ${out.red("(lossy)")}` : ""}`);
      }
      const counted = Object.entries(tool.counters).filter(([, n]) => n > 0);
      if (counted.length > 0) lines.push(`  ${out.dim(`rewrites counted: ${counted.map(([k, n]) => `${k} ${n}`).join(", ")}`)}`);
      else if (tool.groups.length === 0 && tool.error === undefined) lines.push(`  ${out.dim("changed without a reported rewrite (unused $defs, $schema); toolschema diff shows what")}`);
    }
    for (const d of s.listFindings) {
      if (d.code === "tool-name-rewritten") continue; // shown on the tool's line
      lines.push("");
      lines.push(`${out.magenta(d.code)}: ${d.message}`);
    }
  }
  process.stdout.write(lines.join("\n") + "\n");
  return 0;
}

function explainSummary(s) {
  const changes = s.tools.reduce((n, t) => n + t.groups.reduce((m, g) => m + g.changes.length, 0), 0);
  const lossy = s.tools.reduce((n, t) => n + t.groups.reduce((m, g) => m + g.changes.filter((c) => c.lossy).length, 0), 0);
  const changed = s.tools.filter((t) => t.modified).length;
  const unit = s.single ? "schema" : `${s.tools.length} tool(s), ${changed} changed`;
  let line = `${unit}: ${changes} change(s), ${lossy} lossy`;
  const strict = s.tools.filter((t) => t.strict !== undefined);
  if (strict.length > 0) line += `; ${strict.filter((t) => t.strict).length} strict, ${strict.filter((t) => !t.strict).length} not strict`;
  const failed = s.tools.filter((t) => t.error !== undefined).length;
  if (failed > 0) line += `; ${failed} failed`;
  return line;
}

/** Diagnostics grouped by code, in order of first appearance: `[{code, lossy, changes}]`. */
function groupByCode(diagnostics) {
  const groups = new Map();
  for (const d of diagnostics) {
    let g = groups.get(d.code);
    if (g === undefined) groups.set(d.code, (g = { code: d.code, lossy: true, changes: [] }));
    g.changes.push({ pointer: d.pointer, message: d.message, lossy: d.lossy });
    g.lossy &&= d.lossy;
  }
  return [...groups.values()];
}

/**
 * The contract, CONSTRAINTS.md (shipped with the package): a table of rules
 * per target section. Returns `{sections: [{title, ids, rows}]}`, where `ids`
 * are the target ids the section is about (named in its heading, or opening
 * a row as in "Other OpenAI-compatible providers"). Missing or unreadable:
 * no sections, and explain cites the provider's documentation alone.
 */
function constraints() {
  let text;
  for (const at of ["./CONSTRAINTS.md", "../CONSTRAINTS.md"]) {
    try {
      text = readFileSync(new URL(at, import.meta.url), "utf8");
      break;
    } catch {
      // not beside this file: the repository layout has it one level up
    }
  }
  const sections = [];
  for (const line of (text ?? "").split("\n")) {
    const heading = line.match(/^## (.*)$/);
    if (heading !== null) {
      sections.push({ title: heading[1].replace(/`/g, "").trim(), ids: new Set([...heading[1].matchAll(/`([a-z][a-z0-9-]*)`/g)].map((m) => m[1])), rows: [] });
      continue;
    }
    const section = sections.at(-1);
    const cells = line.startsWith("|") ? line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim()) : [];
    if (section === undefined || cells.length < 2 || /^-+$/.test(cells[0]) || /^(Contract )?[Rr]ule\b/.test(cells[0]) || cells[0] === "Target") continue;
    const opener = cells[0].match(/^`([a-z][a-z0-9-]*)`$/);
    if (opener !== null) section.ids.add(opener[1]);
    section.rows.push({ target: opener?.[1], text: cells[opener === null ? 0 : 1] });
  }
  return { sections };
}

/** The heading of the contract's section about `target`. */
function contractSection(rules, target) {
  return rules.sections.find((s) => s.ids.has(target))?.title;
}

/**
 * The rule of the target's own section that names `code`, as its first
 * sentence: `{section, text}`. Only that section: "All targets" names many
 * codes in passing, and a rule quoted for a change it did not make would
 * mislead; then the message and the provider's documentation stand alone.
 */
function ruleFor(rules, code, target) {
  for (const section of rules.sections) {
    if (!section.ids.has(target)) continue;
    const row = section.rows.find((r) => (r.target === undefined || r.target === target) && r.text.includes(`\`${code}\``));
    if (row !== undefined) return { section: section.title, text: firstSentence(row.text) };
  }
  return undefined;
}

// Up to the first full stop outside code spans, without the backticks.
function firstSentence(text) {
  let code = false;
  let end = text.length;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "`") code = !code;
    else if (!code && text[i] === "." && (i + 1 === text.length || /\s/.test(text[i + 1]))) {
      end = i + 1;
      break;
    }
  }
  const sentence = text.slice(0, end).replace(/`/g, "");
  return sentence.length > 300 ? sentence.slice(0, 299) + "…" : sentence;
}

// `--json` of explain and diff: the sections as computed, without the
// internal `single` flag.
function printJson(sections) {
  process.stdout.write(JSON.stringify(sections.map(({ single, ...rest }) => rest), null, 2) + "\n");
  return 0;
}

// ---------------------------------------------------------------------------
// diff

function diff(document, ids, opts, out) {
  const sections = [];
  for (const target of ids) {
    const run = withProgress(`diff ${target}`, document, () => normalized(document, target));
    const tools = run.tools.map((tool) => ({ index: tool.index, name: tool.name, pointer: tool.pointer, changes: structuralDiff(tool.input, tool.output) }));
    sections.push({ target, single: run.single, tools });
  }
  if (opts.json) return printJson(sections);
  const lines = [];
  for (const s of sections) {
    if (lines.length > 0) lines.push("");
    const changed = s.tools.filter((t) => t.changes.length > 0);
    const count = s.tools.reduce((n, t) => n + t.changes.length, 0);
    lines.push(`${out.bold(s.target)}: ${s.single ? "schema" : `${s.tools.length} tool(s), ${changed.length} changed`}, ${count} difference(s)`);
    for (const tool of changed) {
      if (!s.single) lines.push(`${out.bold(tool.name)}  ${out.dim(tool.pointer)}`);
      for (const c of tool.changes) {
        if (c.op === "remove") lines.push(out.red(`  - ${c.pointer || "/"}: ${show(c.from)}`));
        else if (c.op === "add") lines.push(out.green(`  + ${c.pointer || "/"}: ${show(c.to)}`));
        else lines.push(out.yellow(`  ~ ${c.pointer || "/"}: ${show(c.from)} → ${show(c.to)}`));
      }
    }
  }
  process.stdout.write(lines.join("\n") + "\n");
  return 0;
}

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The changes from `a` to `b`, JSON values: `[{op: "remove"|"add"|"change",
 * pointer, from?, to?}]`, in `a`'s member order, then `b`'s new members.
 * Objects are compared member by member and arrays position by position, so
 * a change is shown at the deepest pointer where the two differ.
 */
export function structuralDiff(a, b, pointer = "", changes = []) {
  if (isObject(a) && isObject(b)) {
    for (const key of Object.keys(a)) {
      const at = `${pointer}/${escape(key)}`;
      if (!Object.hasOwn(b, key)) changes.push({ op: "remove", pointer: at, from: a[key] });
      else structuralDiff(a[key], b[key], at, changes);
    }
    for (const key of Object.keys(b)) {
      if (!Object.hasOwn(a, key)) changes.push({ op: "add", pointer: `${pointer}/${escape(key)}`, to: b[key] });
    }
  } else if (Array.isArray(a) && Array.isArray(b) && (a.length === b.length || a.some((v) => typeof v === "object" && v !== null))) {
    const shared = Math.min(a.length, b.length);
    for (let i = 0; i < shared; i++) structuralDiff(a[i], b[i], `${pointer}/${i}`, changes);
    for (let i = shared; i < a.length; i++) changes.push({ op: "remove", pointer: `${pointer}/${i}`, from: a[i] });
    for (let i = shared; i < b.length; i++) changes.push({ op: "add", pointer: `${pointer}/${i}`, to: b[i] });
  } else if (!sameJson(a, b)) {
    // Scalars, and arrays of scalars of another length (enum, required, type): the whole value.
    changes.push({ op: "change", pointer, from: a, to: b });
  }
  return changes;
}

const escape = (key) => key.replace(/~/g, "~0").replace(/\//g, "~1");
const sameJson = (a, b) => a === b || JSON.stringify(a) === JSON.stringify(b);

function show(value) {
  const text = JSON.stringify(value);
  return text.length > 100 ? text.slice(0, 99) + "…" : text;
}

// ---------------------------------------------------------------------------
// check --strict

function gate(document, target, opts, out) {
  const run = withProgress(`check ${target}`, document, () => normalized(document, target));
  const allowed = new Set(opts.allow ?? []);
  const problems = [];
  for (const tool of run.tools) {
    const at = (p) => (tool.schemaPointer ?? tool.pointer) + (p ?? "");
    const add = (p) => {
      if (!allowed.has(p.code)) problems.push({ tool: tool.name, pointer: at(p.pointer), code: p.code, message: p.message });
    };
    if (tool.error !== undefined) {
      add({ ...tool.error, message: `cannot be normalized, so the empty object schema is sent: ${tool.error.message}` });
      continue;
    }
    // Failing open is one problem, at the node strict mode cannot express;
    // the report's strict-failed diagnostic says the same at the root.
    if (tool.strictError !== undefined) add({ ...tool.strictError, message: `fails open (not strict): ${tool.strictError.message}` });
    for (const d of tool.report?.diagnostics ?? []) if (d.lossy && !(d.code === "strict-failed" && tool.strictError !== undefined)) add(d);
    // A schema that failed open is sent to the relaxed target, whose rules
    // the strict checker does not describe; any other output must pass it.
    if (tool.outputSchema !== undefined && tool.strict !== false) for (const v of checkSchema(tool.outputSchema, target)) add(v);
  }
  const failing = new Set(problems.map((p) => p.tool)).size;
  if (opts.json) {
    process.stdout.write(JSON.stringify({ target, tools: run.tools.length, problems }, null, 2) + "\n");
  } else {
    for (const p of problems) process.stdout.write(`${out.cyan(p.pointer || "/")}: ${out.red(p.code)} ${p.message}\n`);
  }
  const err = painter(process.stderr);
  const unit = run.single ? "schema" : `${run.tools.length} tool(s)`;
  const summary = problems.length === 0 ? err.green(`${target}: ${unit}, no problem`) : err.red(`${target}: ${problems.length} problem(s) in ${failing} of ${unit}`);
  process.stderr.write(summary + "\n");
  return problems.length === 0 ? 0 : 1;
}

// ---------------------------------------------------------------------------
// cost

async function costCommand(document, ids, opts, out) {
  const { cost } = await import("./cost.mjs");
  const total = toolEntries(document)?.length ?? 1;
  const bar = progress("cost", total * ((ids.length || targets().length) + 1));
  let result;
  try {
    result = cost(document, { ...(ids.length > 0 ? { targets: ids } : {}), ...(opts.compact ? { compact: true } : {}), onProgress: bar.tick });
  } finally {
    bar.done();
  }
  if (opts.json) {
    process.stdout.write(JSON.stringify(result, null, 2) + "\n");
    return 0;
  }
  const n = (v) => v.toLocaleString("en-US");
  const delta = (side) => {
    if (result.input.tokens === 0) return "";
    const pct = ((side.tokens - result.input.tokens) / result.input.tokens) * 100;
    const text = `${pct >= 0 ? "+" : ""}${pct.toFixed(1)}%`;
    return pct > 0 ? out.red(text) : pct < 0 ? out.green(text) : text;
  };
  const rows = [];
  if (ids.length === 0) {
    rows.push(["", "tokens", "bytes", "vs input"].map((h) => out.bold(h)));
    rows.push(["input", n(result.input.tokens), n(result.input.bytes), ""]);
    for (const t of result.targets) rows.push([t.target, n(t.tokens), n(t.bytes), delta(t)]);
  } else {
    const sides = [["input", result.input], ...result.targets.map((t) => [t.target, t])];
    rows.push(["tool", ...sides.flatMap(([name]) => [`${name} tokens`, "bytes"])].map((h) => out.bold(h)));
    result.input.tools.forEach((tool, i) => {
      const name = tool.name ?? "schema";
      rows.push([name, ...sides.flatMap(([, side]) => [n(side.tools[i].tokens) + (side.tools[i].error ? out.red(" !") : ""), n(side.tools[i].bytes)])]);
    });
    if (result.input.tools.length > 1 || toolEntries(document) !== undefined) {
      rows.push([out.bold("total"), ...sides.flatMap(([, side]) => [out.bold(n(side.tokens)), n(side.bytes)])]);
    }
  }
  process.stdout.write(table(rows) + "\n");
  process.stdout.write(out.dim(`tokens: ${result.encoding} (gpt-tokenizer); a list counts as the JSON array of its tools`) + "\n");
  const failed = result.targets.flatMap((t) => t.tools.filter((tool) => tool.error).map((tool) => `${t.target}: ${tool.name ?? "schema"}`));
  if (failed.length > 0) process.stdout.write(out.red(`! sent as the empty object schema (could not be normalized): ${failed.join(", ")}`) + "\n");
  return 0;
}

/** Columns padded to their widest cell (colour codes not counted); numbers right-aligned. */
function table(rows) {
  const width = (s) => s.replace(/\x1b\[[0-9;]*m/g, "").length;
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => width(r[c] ?? ""))));
  return rows
    .map((r) =>
      r
        .map((cell, c) => {
          const pad = " ".repeat(widths[c] - width(cell));
          return c === 0 ? cell + pad : pad + cell;
        })
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

// ---------------------------------------------------------------------------
// Colour and progress

/** Whether `stream` gets colour: Node's reading of FORCE_COLOR, NO_COLOR and TERM on a terminal. */
export function useColour(stream, env = process.env) {
  if (stream.isTTY === true && typeof stream.hasColors === "function") return stream.hasColors(env);
  // Not a terminal: only FORCE_COLOR asks for colour ("", 1, 2, 3, true; 0 and false refuse).
  return env.FORCE_COLOR !== undefined && ["", "1", "2", "3", "true"].includes(env.FORCE_COLOR);
}

function painter(stream) {
  const on = useColour(stream);
  const wrap = (open, close) => (on ? (s) => `\x1b[${open}m${s}\x1b[${close}m` : (s) => String(s));
  return { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), magenta: wrap(35, 39), cyan: wrap(36, 39) };
}

// A list this long shows progress: below it, a run is over before a person
// would read the line.
const PROGRESS_FROM = 50;

/**
 * A progress line on stderr, rewritten in place (at most every 100 ms), for
 * a terminal only: piped, stderr stays free of it.
 */
function progress(what, total) {
  const stream = process.stderr;
  if (stream.isTTY !== true || total < PROGRESS_FROM) return { tick() {}, done() {} };
  let last = 0;
  let shown = false;
  return {
    tick(done) {
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      shown = true;
      stream.write(`\r\x1b[K${what}: ${done}/${total}`);
    },
    done() {
      if (shown) stream.write("\r\x1b[K");
    },
  };
}

// explain, diff and check normalize a list in one call; on a long list the
// line says what is running while it does.
function withProgress(what, document, run) {
  const size = toolEntries(document)?.length ?? 1;
  const stream = process.stderr;
  const shown = stream.isTTY === true && size >= PROGRESS_FROM;
  if (shown) stream.write(`\r\x1b[K${what}: normalizing ${size} tools`);
  try {
    return run();
  } finally {
    if (shown) stream.write("\r\x1b[K");
  }
}
