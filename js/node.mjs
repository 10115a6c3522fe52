// Node and Bun: read and compile the .wasm synchronously at import, so the API
// is usable on the next line. The CommonJS build (index.cjs) is this file
// bundled by esbuild at package-build time.
import { instantiate } from "./wasm.mjs";

// node:fs through process.getBuiltinModule (Node 20.16 and 22.3 on, Bun)
// where there is one: an ES module import of a built-in makes Node build
// that built-in's module wrapper at start-up (bench/startup.mjs times the
// import). Older Node imports it.
const { readFileSync } = process.getBuiltinModule?.("node:fs") ?? (await import("node:fs"));

instantiate(new WebAssembly.Module(readFileSync(new URL("./toolschema_bg.wasm", import.meta.url))));

export * from "./api.mjs";

/** Already initialized at import; kept so every entry has the same API. */
export async function init() {}
