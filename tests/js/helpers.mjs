// Shared by the JS suites: they all run against the built package in pkg/
// (make pkg), never against js/ directly, so they test what ships.
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../../", import.meta.url));
export const pkgDir = `${root}pkg/`;
export const ts = await import(new URL("../../pkg/node.mjs", import.meta.url).href);

if (ts.targets().length === 0) throw new Error("the built package reports no targets: rebuild it (make pkg)");

/** Asserts `fn` throws a ToolSchemaError with `code` (and `pointer` when given); returns it. */
export function throwsCode(assert, fn, code, pointer) {
  let caught;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof ts.ToolSchemaError, `expected a ToolSchemaError, got ${caught}`);
  assert.equal(caught.code, code, caught.message);
  if (pointer !== undefined) assert.equal(caught.pointer, pointer);
  assert.ok(caught.message.length > 0);
  return caught;
}

/** Runs `fn` with console.error silenced: the panic hook reports every deliberate panic there. */
export function quietly(fn) {
  const original = console.error;
  console.error = () => {};
  try {
    return fn();
  } finally {
    console.error = original;
  }
}

export const TRIVIAL = { type: "object", properties: {} };

/** A TCP port free on 127.0.0.1 right now, for a server the test starts in another process. */
export async function freePort() {
  const probe = createServer();
  await new Promise((ok) => probe.listen(0, "127.0.0.1", ok));
  const { port } = probe.address();
  await new Promise((ok) => probe.close(ok));
  return port;
}
