// The one change made to wasm-bindgen's `web` glue, shared by the package
// (scripts/assemble-pkg.mjs) and the boundary experiments
// (bench/build-boundary.sh), so that both cross into wasm the same way.
//
// Strings into wasm: the glue copies an ASCII prefix one character at a time
// in JS before handing the rest to TextEncoder.encodeInto. For the schema
// texts the package passes that loop is the whole copy (347 µs against 31 µs
// per pass over the 261 MCP schemas, about 5% of a call), so past a short
// length it is skipped and encodeInto, native and just as exact, does it all.
//
//   node scripts/glue-patch.mjs FILE    patches FILE in place
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const asciiLoop = "    for (; offset < len; offset++) {\n        const code = arg.charCodeAt(offset);";

/** `glue` with the encodeInto patch; throws if the glue no longer has the loop. */
export function patchGlue(glue) {
  if (glue.split(asciiLoop).length !== 2) {
    throw new Error("the wasm-bindgen glue's passStringToWasm0 changed: review the encodeInto patch in scripts/glue-patch.mjs");
  }
  return glue.replace(asciiLoop, asciiLoop.replace("offset < len;", "offset < len && len < 256;"));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  writeFileSync(file, patchGlue(readFileSync(file, "utf8")));
}
