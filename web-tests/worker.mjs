// workerd: bundled by wrangler with the `workerd` condition, so the package's
// .wasm arrives as a precompiled module import, as on Cloudflare Workers.
// POST the fixture bundle; the answers come back as JSON.
import * as ts from "toolschema";
import { runCases } from "./cases.mjs";

export default {
  async fetch(request) {
    if (request.method !== "POST") return new Response("POST the fixture bundle\n", { status: 405 });
    try {
      return Response.json(runCases(ts, await request.json()));
    } catch (err) {
      return new Response(String(err?.stack ?? err), { status: 500 });
    }
  },
};
