// Browsers and bundlers (also the `default` entry): fetch and compile the
// .wasm next to this file during import (top-level await). Bundlers that do
// not copy the file can be pointed at it with `await init(source)`: the
// automatic load failing does not fail the import.
import { instantiate, isLoaded, loadFailed, recordLoadFailure } from "./wasm.mjs";

let loading;

/**
 * Loads the module once; later calls resolve at once. `source` is a URL or
 * string, a Response (or a promise of one), bytes, or a WebAssembly.Module.
 * A failure (a fetch error, an HTTP error, bytes that are not this module)
 * rejects with a "wasm-load-failed" ToolSchemaError naming the source.
 */
export function init(source) {
  if (isLoaded()) return Promise.resolve();
  const from = source ?? new URL("./toolschema_bg.wasm", import.meta.url);
  loading ??= compile(from).then(instantiate).catch((err) => {
    loading = undefined; // let a later init(source) try another location
    const error = loadFailed(from, err);
    recordLoadFailure(error); // calls until a load succeeds say why
    throw error;
  });
  return loading;
}

async function compile(source) {
  source = await source;
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
  const response = typeof source === "string" || source instanceof URL ? await fetch(source) : source;
  if (!response.ok) throw new Error(`fetching ${response.url || source}: HTTP ${response.status}`);
  // compileStreaming requires the application/wasm content type; servers
  // that send another one still get a working (non-streaming) load.
  if (typeof WebAssembly.compileStreaming === "function" && response.headers.get("content-type")?.startsWith("application/wasm")) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

await init().catch(() => {}); // recorded: the calls report it until init(source) succeeds

export * from "./api.mjs";
