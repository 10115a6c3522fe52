// Runs the fixture bundle through the package inside a runtime: Node,
// Chromium and workerd each import this file next to their own entry of the
// package, so every runtime executes exactly this code. It only collects what
// the package answered; the comparison with the goldens happens in the
// runner (run.mjs), once, for all runtimes. No imports: it is served to the
// browser and bundled into the worker as is.

/**
 * `bundle` is `{fixtures: [{name, input, options}], cases: [{fixture, target}]}`
 * (see run.mjs); the answer has one entry per case, in order:
 * `{ok: {schema, strict?, lossy}}` or `{error: {toolSchemaError, name, code, pointer, message}}`.
 */
export function runCases(ts, bundle) {
  return bundle.cases.map(({ fixture, target, argument }) => {
    if (argument !== undefined) return runArgument(ts, bundle.arguments[argument]);
    const { input, options } = bundle.fixtures[fixture];
    // The API takes a string as JSON text; a fixture whose schema is a JSON
    // string must reach the core as that string value, not be parsed again.
    const schema = typeof input === "string" ? JSON.stringify(input) : input;
    try {
      const out = ts.normalize(schema, target, options);
      const ok = { schema: out.schema };
      if (out.strict !== undefined) ok.strict = out.strict;
      ok.lossy = out.report.diagnostics.filter((d) => d.lossy).map((d) => [d.code, d.pointer]);
      return { ok };
    } catch (err) {
      return {
        error: {
          toolSchemaError: err instanceof ts.ToolSchemaError,
          name: err?.name,
          code: err?.code,
          pointer: err?.pointer,
          message: String(err?.message ?? err),
        },
      };
    }
  });
}

/**
 * A round-trip case: `{ok: {args?, codes?, messages?, ok?, valid?, lossy?}}`,
 * or `{error}` as above. Arguments cross as JSON text, the way a provider's
 * `arguments` field carries them.
 */
function runArgument(ts, f) {
  const args = JSON.stringify(f.args);
  try {
    const out =
      f.call === "restore" ? ts.restoreArguments(args, f.schema, f.target, f.options)
      : f.call === "repair" ? ts.repairArguments(args, f.schema, f.options)
      : f.call === "validate" ? ts.validateArguments(args, f.schema, f.options)
      : ts.prepareToolCall(args, { inputSchema: f.schema }, { target: f.target, ...f.options });
    const ok = {};
    if ("args" in out) ok.args = out.args;
    if (out.report !== undefined) {
      ok.codes = out.report.diagnostics.map((d) => d.code);
      ok.lossy = out.report.lossy;
    }
    if (out.errors !== undefined) ok.messages = out.errors.map((e) => e.message);
    if ("ok" in out) ok.ok = out.ok;
    if ("valid" in out) ok.valid = out.valid;
    return { ok };
  } catch (err) {
    return { error: { toolSchemaError: err instanceof ts.ToolSchemaError, name: err?.name, code: err?.code, pointer: err?.pointer, message: String(err?.message ?? err) } };
  }
}
