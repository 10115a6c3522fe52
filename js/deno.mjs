// Deno: a source-phase import yields the compiled WebAssembly.Module without
// any permission (reading the file would need --allow-read). The Module, not a
// ready instance, is what trap recovery needs to make a fresh instance.
import source wasmModule from "./toolschema_bg.wasm";
import { instantiate } from "./wasm.mjs";

instantiate(wasmModule);

export * from "./api.mjs";

/** Already initialized at import; kept so every entry has the same API. */
export async function init() {}
