// The link to the WebAssembly instance: loading, calling, and recovery.
//
// Each runtime entry compiles (or imports) the one .wasm file as a
// WebAssembly.Module and hands it to `instantiate`. The glue is wasm-bindgen's
// `web` output, built with --experimental-reset-state-function (see
// scripts/build-pkg.sh) for `__wbg_reset_state`.
import * as glue from "./toolschema_glue.mjs";
import { ToolSchemaError, fromReport } from "./error.mjs";

let loaded = false;
let loadFailure; // why the browser entry's automatic load failed, if it did

// Exports only this package's module has. Checked before the glue sees a
// module: the glue keeps an instance it could create even when its start
// function is missing, and would then refuse every later, correct module.
const OWN_EXPORTS = ["memory", "__wbindgen_start", "normalizeJson", "version"];

/** Instantiates `module` (a WebAssembly.Module) and routes every call to it. */
export function instantiate(module) {
  const names = new Set(WebAssembly.Module.exports(module).map((e) => e.name));
  const missing = OWN_EXPORTS.filter((name) => !names.has(name));
  if (missing.length > 0) {
    throw new Error(`it is not toolschema's WebAssembly module (it exports no ${missing.join(", ")})`);
  }
  glue.initSync({ module });
  loaded = true;
}

export function isLoaded() {
  return loaded;
}

export function recordLoadFailure(err) {
  loadFailure = err;
}

/**
 * The error for a module that could not be loaded from `source`: not a bug of
 * the package but a deployment problem (the .wasm not served, served as HTML,
 * a truncated or wrong file), so it gets its own code and says what to do.
 */
export function loadFailed(source, err) {
  if (err instanceof ToolSchemaError) return err;
  const reason = err?.message ?? String(err);
  return new ToolSchemaError(
    "wasm-load-failed",
    "",
    `toolschema could not load its WebAssembly module from ${describeSource(source)}: ${reason}. ` +
      "Serve the package's toolschema_bg.wasm (exported as \"toolschema/toolschema_bg.wasm\") with your app, " +
      "or make your bundler copy it next to the code, then call await init(url) with its URL; " +
      "init() also takes the file's bytes, a fetch Response or a compiled WebAssembly.Module",
    { cause: err },
  );
}

function describeSource(source) {
  if (typeof source === "string") return source;
  if (source instanceof URL) return source.href;
  if (typeof WebAssembly !== "undefined" && source instanceof WebAssembly.Module) return "the WebAssembly.Module given";
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return `the ${source.byteLength} bytes given`;
  if (typeof source?.url === "string" && source.url !== "") return source.url;
  return "the source given";
}

/**
 * Runs one export. A trap (a Rust panic aborts as `unreachable`) leaves the
 * instance mid-call: the shadow-stack pointer is not restored and what the
 * call allocated stays allocated (measured: the instance fails with "memory
 * access out of bounds" after enough traps), and Rust statics may be left
 * half-updated. So the instance is replaced by a fresh one from the same
 * compiled module (cheap: no recompilation, glue caches reset with it), and
 * the caller gets an `internal` error.
 */
export function guarded(fn, ...args) {
  if (!loaded) {
    // A fresh error per call (its stack is the caller's), carrying the load's.
    if (loadFailure !== undefined) {
      throw new ToolSchemaError("wasm-load-failed", "", loadFailure.message, { cause: loadFailure });
    }
    throw new ToolSchemaError(
      "wasm-load-failed",
      "",
      "toolschema's WebAssembly module is not loaded yet: await init() before the first call, or init(source) with the URL, bytes or WebAssembly.Module of toolschema_bg.wasm",
    );
  }
  try {
    return fn(...args);
  } catch (err) {
    glue.__wbg_reset_state();
    // The engine's own stack ran out in the core's recursion: possible only
    // with `maxDepth` raised well past its default (256 JSON levels; Node 20's
    // stack held about 3,100 of nested objects).
    if (err instanceof RangeError) {
      throw new ToolSchemaError("too-deep", "", `the schema is nested deeper than this JavaScript engine's stack allows (${err.message}); lower maxDepth (default 256 JSON levels) so such input fails early with this code`, { cause: err });
    }
    throw new ToolSchemaError("internal", "", `internal error in toolschema (a bug; please report it with the input): ${err?.message ?? err}`, { cause: err });
  }
}

/** Runs an export that answers with a JSON envelope and unwraps it. */
export function call(fn, ...args) {
  const envelope = JSON.parse(guarded(fn, ...args));
  if (envelope.error !== undefined) throw fromReport(envelope.error);
  return envelope.ok;
}

export { glue };
