// Cloudflare Workers: the runtime forbids compiling wasm from bytes at run
// time ("Wasm code generation disallowed by embedder"), so the .wasm comes in
// through an import, which wrangler and workerd turn into a precompiled
// WebAssembly.Module. Instantiating a Module is allowed, which is also what
// trap recovery needs.
import wasmModule from "./toolschema_bg.wasm";
import { instantiate } from "./wasm.mjs";

instantiate(wasmModule);

export * from "./api.mjs";

/** Already initialized at import; kept so every entry has the same API. */
export async function init() {}
