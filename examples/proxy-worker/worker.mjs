// A Cloudflare Worker in front of an OpenAI-compatible endpoint: requests to
// /v1/chat/completions and /v1/responses have their tools normalized for the
// backend, and the tool calls of the answers (JSON or streamed) come back in
// the shape the client's own schemas declared. Everything else is passed on.
//
// UPSTREAM_URL and TARGET are set in wrangler.toml ([vars]) or with
// `wrangler secret put`; the client's Authorization header is forwarded as
// it came, so the Worker holds no key of its own.
import { createProxy } from "toolschema/proxy";

let proxy;

export default {
  fetch(request, env) {
    // The bindings arrive with the first request and do not change during
    // the isolate's life, so the handler is made once.
    proxy ??= createProxy({ upstream: env.UPSTREAM_URL, target: env.TARGET });
    return proxy(request);
  },
};
