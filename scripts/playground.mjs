// `make playground`: assembles the playground page (examples/playground/, static
// files) with the package's browser entry from pkg/ into build/playground/, and
// serves that folder on 127.0.0.1. The page loads nothing from anywhere else, so
// build/playground/ can be served by any static server, or kept and opened
// again offline.
//
// The token counts need gpt-tokenizer's o200k_base table: esbuild (a dev
// dependency, like gpt-tokenizer) bundles it into build/playground/tokenizer.mjs,
// served from the same origin, never fetched from a CDN.
//
// Usage: node scripts/playground.mjs [--port N] [--build-only]
//   --port N       the port to listen on (default 8642; 0 picks a free one)
//   --build-only   assemble build/playground/ and exit
// Expects pkg/ to be built (`make playground` runs `make pkg` first).
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, extname, join, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildSync } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const PAGE_DIR = join(root, "examples/playground");
export const OUT_DIR = join(root, "build/playground");
const DEFAULT_PORT = 8642;

// A relative module or asset a file of the browser entry reaches: static and
// dynamic imports, re-exports, and `new URL("./file", import.meta.url)`, the
// way browser.mjs finds the .wasm.
const REFERENCE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|new URL\(\s*)(["'])(\.\/[^"']+)\1/g;

/** The files `entry` (in `dir`) reaches, itself included, by their names in `dir`. */
export function browserFiles(dir, entry = "browser.mjs") {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    const path = join(dir, file);
    if (!existsSync(path)) throw new Error(`${path} is missing: build the package first (make pkg)`);
    seen.add(file);
    if (!file.endsWith(".mjs")) return;
    for (const [, , ref] of readFileSync(path, "utf8").matchAll(REFERENCE)) visit(join(dirname(file), ref));
  };
  visit(entry);
  return [...seen].sort();
}

/**
 * Copies the page and the package's browser files into `out` (emptied first):
 * `out/index.html` and its modules, `out/examples/`, `out/toolschema/`.
 * Returns the package files copied.
 */
export function buildPlayground(out = OUT_DIR, pkg = join(root, "pkg")) {
  const files = browserFiles(pkg);
  if (!files.some((f) => f.endsWith(".wasm"))) throw new Error(`${pkg}/browser.mjs no longer names its .wasm as new URL("./…", import.meta.url); update scripts/playground.mjs`);
  rmSync(out, { recursive: true, force: true });
  cpSync(PAGE_DIR, out, { recursive: true, filter: (src) => !src.endsWith(`${sep}README.md`) });
  mkdirSync(join(out, "toolschema"));
  for (const file of files) copyFileSync(join(pkg, file), join(out, "toolschema", file));
  copyFileSync(join(pkg, "package.json"), join(out, "toolschema", "package.json"));
  bundleTokenizer(join(out, "tokenizer.mjs"));
  return files;
}

/**
 * The one function measure.mjs needs of gpt-tokenizer, as a single ES module:
 * the encoding `toolschema/cost` imports (js/cost.mjs), so the page counts
 * what the package counts. The banner names it and its licence.
 */
export function bundleTokenizer(outfile) {
  buildSync({
    stdin: { contents: 'export { countTokens } from "gpt-tokenizer/encoding/o200k_base";', resolveDir: root, sourcefile: "tokenizer.mjs" },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "eof",
    banner: { js: "// gpt-tokenizer's o200k_base encoding (MIT, https://github.com/niieani/gpt-tokenizer), bundled by scripts/playground.mjs" },
    outfile,
    logLevel: "warning",
  });
}

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".png": "image/png",
};

// The page's own policy, also sent as a header for servers that honour only that.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";

/**
 * Serves the files under `dir` on 127.0.0.1:`port` (GET and HEAD only,
 * nothing outside `dir`). Resolves to `{origin, close()}` once listening.
 */
export function serve(dir, port = 0) {
  const base = resolve(dir);
  const server = createServer((req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return res.writeHead(405, { allow: "GET, HEAD" }).end();
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, "http://localhost").pathname);
    } catch {
      return res.writeHead(400).end();
    }
    if (pathname.endsWith("/")) pathname += "index.html";
    const path = resolve(base, `.${pathname}`);
    if (!path.startsWith(base + sep) || !statSync(path, { throwIfNoEntry: false })?.isFile()) {
      return res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found\n");
    }
    const body = readFileSync(path);
    res.writeHead(200, {
      "content-type": TYPES[extname(path)] ?? "application/octet-stream",
      "content-length": body.length,
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
      "content-security-policy": CSP,
    });
    res.end(req.method === "HEAD" ? undefined : body);
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", fail);
      ok({ origin: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((done) => server.close(done)) });
    });
  });
}

async function main(args) {
  let port = DEFAULT_PORT;
  let buildOnly = false;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--build-only") buildOnly = true;
    else if (args[i] === "--port" && /^\d+$/.test(args[i + 1] ?? "")) port = Number(args[++i]);
    else {
      console.error(`playground: unknown argument ${args[i]}\nusage: node scripts/playground.mjs [--port N] [--build-only]`);
      process.exit(2);
    }
  }
  const files = buildPlayground();
  console.log(`playground: ${OUT_DIR} (the page, ${files.length} package files and the o200k tokenizer)`);
  if (buildOnly) return;
  let server;
  try {
    server = await serve(OUT_DIR, port);
  } catch (err) {
    if (err.code !== "EADDRINUSE") throw err;
    console.error(`playground: port ${port} is in use; pass another with --port N (make playground PORT=N), or 0 for any free one`);
    process.exit(1);
  }
  console.log(`playground: serving on ${server.origin}/ (Ctrl-C stops it)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main(process.argv.slice(2));
}
