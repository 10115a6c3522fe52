// Node and Bun: read and compile the .wasm synchronously at import, so the API
// is usable on the next line. The CommonJS build (index.cjs) is this file
// bundled by esbuild at package-build time.
import { readFileSync } from "node:fs";
import { instantiate } from "./wasm.mjs";

instantiate(new WebAssembly.Module(readFileSync(new URL("./toolschema_bg.wasm", import.meta.url))));

export * from "./api.mjs";

/** Already initialized at import; kept so every entry has the same API. */
export async function init() {}
