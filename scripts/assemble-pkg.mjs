// Assembles pkg/ from the built wasm and glue, js/ and pkg-template/.
// Usage: node scripts/assemble-pkg.mjs <lib> <version> (called by build-pkg.sh).
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { buildSync } from "esbuild";
import { patchGlue } from "./glue-patch.mjs";

const [lib, version] = process.argv.slice(2);
if (!lib || !version) throw new Error("usage: assemble-pkg.mjs <lib> <version>");

const out = "pkg";
rmSync(out, { recursive: true, force: true });
mkdirSync(out);

// The manifest: the hand-written template, with the crate's version.
const manifest = JSON.parse(readFileSync("pkg-template/package.json", "utf8"));
manifest.version = version;
writeFileSync(`${out}/package.json`, JSON.stringify(manifest, null, 2) + "\n");
copyFileSync("pkg-template/README.md", `${out}/README.md`);

// The shim, the entries and the CLI, as written.
for (const file of readdirSync("js").filter((f) => f.endsWith(".mjs"))) copyFileSync(`js/${file}`, `${out}/${file}`);
// One declaration file serves both module kinds: it only declares exports.
copyFileSync("js/index.d.ts", `${out}/index.d.ts`);
copyFileSync("js/index.d.ts", `${out}/index.d.cts`);
// The subpath exports' declarations (toolschema/mcp, /proxy, /ai-sdk, /sdk, /cost, /webmcp), ESM only.
for (const file of readdirSync("js").filter((f) => f.endsWith(".d.ts") && f !== "index.d.ts")) copyFileSync(`js/${file}`, `${out}/${file}`);
// The contract per target: `toolschema explain` quotes the rule behind each change.
copyFileSync("CONSTRAINTS.md", `${out}/CONSTRAINTS.md`);

// The glue, renamed so its module kind is explicit. wasm.mjs relies on the
// reset hook; fail the build if a wasm-bindgen upgrade drops or renames it.
let glue = readFileSync(`build/web/${lib}.js`, "utf8");
if (!/^export function __wbg_reset_state\b/m.test(glue)) {
  throw new Error("the wasm-bindgen glue has no __wbg_reset_state export: trap recovery in js/wasm.mjs needs it");
}
glue = glue.replace(/^\/\* @ts-self-types=.*\*\/\n/, ""); // names a .d.ts the package does not ship
glue = patchGlue(glue); // scripts/glue-patch.mjs: strings into wasm through encodeInto
writeFileSync(`${out}/toolschema_glue.mjs`, glue);
copyFileSync(`build/${lib}_bg.opt.wasm`, `${out}/toolschema_bg.wasm`);

// Node's entries are bundled, because start-up is part of the contract
// (import + init, bench/startup.mjs): each module of an ES module graph costs
// Node a resolution, a read and a link, so node.mjs ships as one file with
// api/cache/error/input/wasm.mjs inlined (the other runtimes' entries still
// import those files). The glue stays a module of its own, so that the
// instance node.mjs uses is the one `import("toolschema/toolschema_glue.mjs")`
// reaches (the trap test, bench/compare.mjs).
const nodeEntry = readFileSync("js/node.mjs", "utf8");
buildSync({
  stdin: { contents: nodeEntry, resolveDir: out, sourcefile: "node.mjs" },
  outfile: `${out}/node.mjs`,
  allowOverwrite: true,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node18",
  external: ["./toolschema_glue.mjs"],
  logLevel: "warning",
});

// The CommonJS entry is node.mjs bundled, not a second hand-kept copy. It
// finds the .wasm through __dirname: a file URL for import.meta.url would
// cost loading node:url at every require (about 0.4 ms). The glue's own
// import.meta.url (its async default load, which the Node entry never takes)
// is computed only if used.
// It takes node:fs with `require`, which CommonJS has loaded already (the ES
// module reads it without an import where it can, or awaits one).
const WASM_URL = 'new URL("./toolschema_bg.wasm", import.meta.url)';
const FS = 'process.getBuiltinModule?.("node:fs") ?? (await import("node:fs"))';
for (const text of [WASM_URL, FS]) {
  if (!nodeEntry.includes(text)) throw new Error(`js/node.mjs no longer has ${text}; update assemble-pkg.mjs`);
}
const cjsEntry = nodeEntry.replace(WASM_URL, 'require("node:path").join(__dirname, "toolschema_bg.wasm")').replace(FS, 'require("node:fs")');
buildSync({
  stdin: { contents: cjsEntry, resolveDir: out, sourcefile: "node.mjs" },
  outfile: `${out}/index.cjs`,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node18",
  define: { "import.meta": "__toolschema_meta" },
  banner: { js: 'const __toolschema_meta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };' },
  logLevel: "warning",
});

// Every file the manifest lists or exports must exist, and nothing else ships.
const listed = new Set(manifest.files);
const targets = [manifest.main, manifest.types, ...Object.values(manifest.bin)];
const collect = (v) => (typeof v === "string" ? targets.push(v) : Object.values(v).forEach(collect));
collect(manifest.exports);
for (const t of targets) {
  const file = t.replace(/^\.\//, "");
  if (file !== "package.json" && !listed.has(file)) throw new Error(`${t} is exported but not in "files"`);
}
for (const file of listed) if (!existsSync(`${out}/${file}`)) throw new Error(`"files" lists ${file}, which the build did not produce`);
for (const file of readdirSync(out)) {
  if (!listed.has(file) && file !== "package.json" && file !== "README.md") throw new Error(`pkg/${file} is not in "files"`);
}

const wasm = readFileSync(`${out}/toolschema_bg.wasm`);
const jsBytes = [...listed].filter((f) => /\.(mjs|cjs)$/.test(f)).reduce((n, f) => n + statSync(`${out}/${f}`).size, 0);
console.log(`assemble-pkg: ${manifest.name}@${version}: wasm ${wasm.length} B raw, ${gzipSync(wasm, { level: 9 }).length} B gzip; JS ${jsBytes} B`);
