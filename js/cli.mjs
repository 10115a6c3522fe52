#!/usr/bin/env node
// The `toolschema` command: normalize or check a schema, a tool list or an
// MCP tools/list response. JSON goes to stdout, everything meant for a person
// to stderr. Exit status: 0 done, 1 `check` found violations, 2 error.
import { parseArgs } from "node:util";
import { ToolSchemaError, checkSchema, normalize, normalizeTools, prepareToolCall, targets, version } from "./node.mjs";
import { SCHEMA_PLACES, nameHolder, schemaSlot, toolEntries } from "./tools.mjs";
import { COMMANDS, HELP as COMMAND_HELP, UsageError, readInput, readText, runCommand } from "./cli-commands.mjs";

const HELP = `Usage:
  toolschema normalize --target <id> [file|-]   rewrite each schema for the target
  toolschema check --target <id> [file|-]       list what the target would reject; exit 1 if anything
  toolschema restore --target <id> --schema <file> [--tool <name>] [args|-]
                                                the model's arguments back in the original schema's
                                                shape, repaired and validated; exit 1 if they still do not fit
  toolschema check --target <id> --strict [--json] [file|-]
                                                CI gate: one line per lossy change or strict-mode
                                                failure ("<pointer>: <code> <message>"); exit 1 if any
  toolschema explain --target <id>... [file|-]  every change per tool, grouped, with the rule behind it
  toolschema diff --target <id>... [file|-]     the input against what each target receives
  toolschema cost [--target <id>...] [file|-]   bytes and o200k tokens per tool and in total, per target
                                                (needs the optional peer dependency gpt-tokenizer)
  toolschema targets                            list the target ids (JSON)
  toolschema --version

Input (a file, or stdin when the file is "-" or absent), any of:
  a JSON Schema
  a tool list: OpenAI [{type: "function", function: {name, parameters}}], OpenAI Responses
    [{type: "function", name, parameters}], Anthropic [{name, input_schema}], MCP [{name, inputSchema}],
    Gemini [{name, parameters}] or [{name, parametersJsonSchema}]
  an MCP tools/list response: {result: {tools: [...]}} or {tools: [...]}; Gemini {functionDeclarations: [...]},
    [{functionDeclarations: [...]}] or {tools: [{functionDeclarations: [...]}]}
The output keeps the input's shape with each schema rewritten; with --target openai-strict,
OpenAI-shaped tools also get "strict" set to whether strict mode could express their schema.
A tool name the target's provider refuses is written as a valid one, and each such name is
listed on stderr ("sent as <new> for <original>"); give the new name to restore --tool.
For llamacpp, a list past the size where llama.cpp's tool grammar fails is reported on stderr.

Options:
  -t, --target <id>   target id (see "toolschema targets")
  --schema <file>     restore: the original schema, or the tool definition holding it, or
                      with --tool the tool list sent
  --tool <name>       restore: the tool name the model called (as sent, or the original)
  --empty-strings     restore: treat "" in optional fields as absent
  --report            print every change (normalize) or violation (check) with its JSON pointer on stderr
  --summary           print one summary line on stderr: tools, lossy changes, fallbacks, strict count
  --compact           print JSON without indentation
  -h, --help          show this help ("toolschema <command> --help" for explain, diff, cost,
                      check --strict)
`;

function main(argv) {
  // explain, diff, cost and check --strict parse their own options.
  const [first] = argv;
  if (COMMANDS.includes(first) || (first === "check" && argv.some((a) => a === "--strict" || a === "--help" || a === "-h"))) {
    return runCommand(first, argv.slice(1));
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        target: { type: "string", short: "t" },
        schema: { type: "string" },
        tool: { type: "string" },
        "empty-strings": { type: "boolean" },
        report: { type: "boolean" },
        summary: { type: "boolean" },
        compact: { type: "boolean" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "V" },
      },
    });
  } catch (err) {
    throw new UsageError(err.message);
  }
  const { values: opts, positionals } = parsed;
  const [command, file, ...extra] = positionals;
  if (command === "help" && Object.hasOwn(COMMAND_HELP, file ?? "")) return void process.stdout.write(COMMAND_HELP[file]);
  if (opts.help || command === "help") return void process.stdout.write(HELP);
  if (COMMANDS.includes(command)) return runCommand(command, argv.filter((a, i) => i !== argv.indexOf(command)));
  if (opts.version || command === "version") return void process.stdout.write(`${version()}\n`);
  if (command === "targets") return print(targets(), opts);
  if (command === "restore") {
    if (extra.length > 0) throw new UsageError(`one arguments input at a time, got ${positionals.length - 1}`);
    return runRestore(file, opts);
  }
  if (command !== "normalize" && command !== "check") {
    throw new UsageError(command === undefined ? "no command given" : `unknown command "${command}"`);
  }
  if (extra.length > 0) throw new UsageError(`one input at a time, got ${positionals.length - 1}`);
  if (opts.target === undefined) throw new UsageError(`${command} needs --target <id>; "toolschema targets" lists them`);
  const document = readInput(file);
  // The list as the API reads it: a shape it cannot read fails here with the
  // API's code and pointer, and its names and size are the API's.
  const listed = command === "normalize" && toolEntries(document) !== undefined ? normalizeTools(document, { target: opts.target }) : undefined;
  const { single, slots } = locateSchemas(document);
  return command === "normalize"
    ? runNormalize(document, single, slots, opts, listed?.telemetry)
    : runCheck(single, slots, opts);
}

/**
 * `restore`: the arguments (a file or stdin) are passed on as text, so that
 * text that is not JSON gets the same answer a model would.
 */
function runRestore(file, opts) {
  if (opts.target === undefined) throw new UsageError(`restore needs --target <id>, the target the schema was sent to`);
  if (opts.schema === undefined) throw new UsageError("restore needs --schema <file>, the original schema or tool definition");
  const tool = readInput(opts.schema);
  const text = readText(file);
  const options = { target: opts.target, emptyStrings: opts["empty-strings"] === true };
  if (opts.tool !== undefined) options.name = opts.tool;
  const result = prepareToolCall(text, tool, options);
  if (result.tool !== undefined) process.stderr.write(`tool: ${result.tool.name ?? `#${result.tool.index}`}\n`);
  if (opts.report) {
    for (const d of result.report.diagnostics) process.stderr.write(`${d.code} at ${d.pointer || "/"}: ${d.message}\n`);
  }
  for (const e of result.errors) process.stderr.write(`${e.keyword} at ${e.pointer || "/"}: ${e.message}\n`);
  print(result.args, opts);
  return result.ok ? 0 : 1;
}

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Finds where the schemas live. Each slot names its tool and the object and
 * key holding the schema, so results are written back in the input's shape.
 */
function locateSchemas(document) {
  const entries = toolEntries(document);
  if (entries === undefined) {
    return { single: true, slots: [{ name: "schema", holder: { schema: document }, key: "schema" }] };
  }
  return { single: false, slots: entries.map(({ tool }, index) => toolSlot(tool, index)).filter((slot) => slot !== undefined) };
}

function toolSlot(tool, index) {
  const slot = schemaSlot(tool);
  if (slot === undefined || !isObject(slot.holder)) {
    // An OpenAI function without parameters has nothing to rewrite.
    if (isObject(tool) && isObject(tool.function)) return undefined;
    throw new UsageError(`tool #${index} has no schema in a known place (${SCHEMA_PLACES})`);
  }
  const name = tool.function?.name ?? tool.name ?? `#${index}`;
  // Where openai-strict's flag goes: in `function` for OpenAI chat tools,
  // beside `parameters` for Responses tools.
  const strictHolder = slot.path.length === 2 || (slot.key === "parameters" && tool.type === "function") ? slot.holder : undefined;
  return { name, holder: slot.holder, key: slot.key, strictHolder };
}

// A tool's failure names the tool; the error itself stays a ToolSchemaError.
function forTool(slot, single, run) {
  try {
    return run();
  } catch (err) {
    if (!single && err instanceof ToolSchemaError) err.message = `tool ${slot.name}: ${err.message}`;
    throw err;
  }
}

function runNormalize(document, single, slots, opts, telemetry) {
  const results = [];
  for (const slot of slots) {
    const result = forTool(slot, single, () => normalize(slot.holder[slot.key], opts.target));
    slot.holder[slot.key] = result.schema;
    if (opts.target === "openai-strict" && slot.strictHolder !== undefined) slot.strictHolder.strict = result.strict === true;
    results.push({ slot, result });
  }
  if (telemetry !== undefined) applyListFindings(document, telemetry);
  if (opts.report) reportChanges(results);
  if (opts.summary) process.stderr.write(summarize(opts.target, single, results) + "\n");
  print(single ? slots[0].holder.schema : document, opts);
  return 0;
}

function runCheck(single, slots, opts) {
  const found = [];
  for (const slot of slots) {
    const violations = forTool(slot, single, () => checkSchema(slot.holder[slot.key], opts.target));
    if (opts.report) for (const v of violations) process.stderr.write(`${slot.name} ${v.pointer || "/"} ${v.code}: ${v.message}\n`);
    if (single) found.push(...violations);
    else if (violations.length > 0) found.push({ tool: slot.name, violations });
  }
  print(found, opts);
  return found.length > 0 ? 1 : 0;
}

/**
 * What concerns the list as a whole: names the target refuses are written as
 * the API sends them, and each is said on stderr with the original (the name
 * the model will call, and the one `restore --tool` takes); a list too large
 * for the target is said too.
 */
function applyListFindings(document, telemetry) {
  const entries = toolEntries(document);
  for (const report of telemetry.tools) {
    if (report.providerName === undefined) continue;
    nameHolder(entries[report.index].tool).name = report.providerName;
    process.stderr.write(`sent as ${report.providerName} for ${JSON.stringify(report.name)}\n`);
  }
  for (const d of telemetry.diagnostics) {
    if (d.code !== "tool-name-rewritten") process.stderr.write(`${d.code}: ${d.message}\n`);
  }
}

// Only schemas something happened to get lines; a clean run says so once.
function reportChanges(results) {
  let quiet = true;
  for (const { slot, result } of results) {
    const { report, strict, strictError } = result;
    if (report.diagnostics.length === 0 && strictError === undefined) continue;
    quiet = false;
    const lossy = report.diagnostics.filter((d) => d.lossy).length;
    let head = `${slot.name}: ${report.diagnostics.length} change(s), ${lossy} lossy`;
    if (strict !== undefined) head += strict ? ", strict" : ", not strict";
    process.stderr.write(head + "\n");
    if (strictError !== undefined) {
      process.stderr.write(`  ${strictError.pointer || "/"}  ${strictError.code}: ${strictError.message}\n`);
    }
    for (const d of report.diagnostics) {
      process.stderr.write(`  ${d.pointer || "/"}  ${d.code}: ${d.message}${d.lossy ? " (lossy)" : ""}\n`);
    }
  }
  if (quiet) process.stderr.write(`no changes in ${results.length} schema(s)\n`);
}

/**
 * One line per run, for `make demo`. A fallback (the whole schema replaced by
 * an empty object because the target could not take it) is counted by the
 * core as `fallbacks`.
 */
function summarize(target, single, results) {
  let lossy = 0;
  let lossyTools = 0;
  let fallbacks = 0;
  let strict = 0;
  for (const { result } of results) {
    const n = result.report.diagnostics.filter((d) => d.lossy).length;
    lossy += n;
    if (n > 0) lossyTools += 1;
    fallbacks += result.report.counters.fallbacks ?? 0;
    if (result.strict === true) strict += 1;
  }
  const unit = single ? "schema" : "tools";
  let line = `${target}: ${results.length} ${unit}, ${lossy} lossy change(s) in ${lossyTools} of them, ${fallbacks} fallback(s)`;
  if (target === "openai-strict") line += `, ${strict} strict / ${results.length - strict} not strict`;
  return line;
}

function print(value, opts) {
  process.stdout.write(JSON.stringify(value, null, opts.compact ? 0 : 2) + "\n");
  return 0;
}

// Output piped into a reader that stops early (`| head`) is not an error.
process.stdout.on("error", (err) => {
  if (err.code !== "EPIPE") throw err;
  process.exit(process.exitCode ?? 0);
});

try {
  process.exitCode = (await main(process.argv.slice(2))) ?? 0;
} catch (err) {
  if (err instanceof UsageError) {
    process.stderr.write(`toolschema: ${err.message} (see toolschema --help)\n`);
  } else if (err instanceof ToolSchemaError) {
    process.stderr.write(`toolschema: ${err.code}${err.pointer ? ` at ${err.pointer}` : ""}: ${err.message}\n`);
  } else {
    process.stderr.write(`toolschema: ${err?.stack ?? err}\n`);
  }
  process.exitCode = 2;
}
