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

/** Instantiates `module` (a WebAssembly.Module) and routes every call to it. */
export function instantiate(module) {
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
    const why = loadFailure === undefined ? "" : `: ${loadFailure?.message ?? loadFailure}`;
    throw new ToolSchemaError(
      "internal",
      "",
      `the WebAssembly module is not loaded${why}; await init(source) with the URL, bytes or WebAssembly.Module of toolschema_bg.wasm`,
      loadFailure === undefined ? undefined : { cause: loadFailure },
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
