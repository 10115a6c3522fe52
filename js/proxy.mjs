// toolschema/proxy: a fetch handler in front of an OpenAI-compatible endpoint
// (llama.cpp's llama-server, vLLM, Ollama's /v1, a hosted provider). It
// normalizes the `tools` of Chat Completions and Responses requests for the
// backend, forwards them, and turns the tool calls of the answer back into
// the shape the client's own schemas declared, in JSON answers and in SSE
// streams. Everything else is passed through.
//
// Only Request, Response, fetch, Headers, TextEncoder/TextDecoder and
// TransformStream: the same code runs in workerd, Deno, Bun and Node 18+.
// The package's API is imported by its name: see the note in mcp.mjs.
import { ToolSchemaError, normalizeTools, prepareToolCall, targetFor } from "toolschema";
import { objectOptions, splitOptions } from "./wrap-options.mjs";
import { restoreChatStream, restoreResponsesStream, sseStream } from "./proxy-stream.mjs";

// Hop-by-hop headers (RFC 9110 section 7.6.1) are for one connection, never
// forwarded. `host` names the proxy, not the upstream. `accept-encoding` is
// left to the runtime's fetch, which then decodes the body it returns.
const REQUEST_DROP = ["host", "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "accept-encoding"];
// fetch hands back a decoded body in every runtime here (undici, workerd,
// Deno, Bun), while the upstream's content-encoding and content-length still
// describe the encoded one: relayed as they are, a client would decode twice.
const RESPONSE_DROP = ["connection", "keep-alive", "transfer-encoding", "upgrade", "content-encoding", "content-length"];

/**
 * A fetch handler `(request) => Promise<Response>` forwarding to `upstream`
 * (a base URL; the request's path and query are appended to its path). The
 * options: `target` (a target id) or `route` (`targetFor`'s fields; `model`
 * defaults to the request's, `api` to the endpoint, `strict` to whether any
 * tool asks for it), the `normalize` options and `emptyStrings`, `fetch` (the
 * function that reaches the upstream, e.g. a Workers service binding's),
 * `onTools` and `onToolCall` (reports of each normalization and each call).
 */
export function createProxy(options) {
  const { upstream, fetch: send = (request) => fetch(request), target, route, onTools, onToolCall, ...rest } = objectOptions("createProxy", options);
  const base = upstreamUrl(upstream);
  const { normalizeOptions, argumentOptions } = splitOptions("createProxy", target, route, rest);
  if (typeof send !== "function") throw new ToolSchemaError("invalid-options", "", "createProxy: `fetch` must be a function (request) => Promise<Response>");
  for (const [name, hook] of [["onTools", onTools], ["onToolCall", onToolCall]]) {
    if (hook !== undefined && typeof hook !== "function") throw new ToolSchemaError("invalid-options", "", `createProxy: \`${name}\` must be a function`);
  }
  // Bad options or an unknown target fail here, not on the first request.
  normalizeTools([], { target: target ?? targetFor(route), ...normalizeOptions });

  const targetOf = (body, api) => {
    if (target !== undefined) return target;
    const strict = toolsOf(body, api).some((tool) => (api === "chat" ? tool.function?.strict : tool.strict) === true);
    return targetFor({ ...route, model: route.model ?? (typeof body.model === "string" ? body.model : undefined), api: route.api ?? (api === "responses" ? "responses" : undefined), strict: route.strict ?? strict });
  };

  return async function toolschemaProxy(request) {
    const url = new URL(request.url);
    const forward = new URL(base.pathname.replace(/\/$/, "") + url.pathname + url.search, base);
    const headers = new Headers(request.headers);
    for (const name of REQUEST_DROP) headers.delete(name);
    const api = request.method === "POST" ? apiOf(url.pathname) : undefined;
    const pass = (body) => send(new Request(forward, { method: request.method, headers, body, redirect: "manual", signal: request.signal, duplex: "half" }));
    if (api === undefined) {
      return relay(await pass(request.method === "GET" || request.method === "HEAD" ? null : request.body));
    }
    const text = await request.text();
    const body = parseObject(text);
    if (body === undefined || toolsOf(body, api).length === 0) return relay(await pass(text));

    const session = normalizeRequest(body, api, targetOf(body, api), normalizeOptions);
    onTools?.({ api, target: session.target, telemetry: session.telemetry, request });
    session.restore = (name, args) => {
      let result;
      try {
        result = prepareToolCall(args, session.list, { target: session.target, name, ...argumentOptions });
      } catch (error) {
        // Arguments past the depth limit, or a bug: the call goes to the
        // client as the model sent it, and the hook hears why. Failing the
        // whole answer (mid-stream, a broken connection) would lose the rest.
        onToolCall?.({ api, target: session.target, name, error });
        return { name: session.nameOf(name), arguments: args };
      }
      onToolCall?.({ api, target: session.target, name, result });
      return restored(name, args, result);
    };
    session.nameOf = (name) => session.telemetry.names?.[name] ?? name;
    headers.delete("content-length");
    const response = relay(await pass(JSON.stringify(session.body)));
    response.headers.set("x-toolschema-target", session.target);
    return restoreResponse(response, api, session);
  };
}

function upstreamUrl(upstream) {
  try {
    const url = new URL(String(upstream));
    if (url.protocol === "http:" || url.protocol === "https:") return url;
  } catch {}
  throw new ToolSchemaError("invalid-options", "", `createProxy needs \`upstream\`, the base URL of an OpenAI-compatible endpoint (e.g. "http://127.0.0.1:8080"), got ${JSON.stringify(upstream)}`);
}

/** "chat" or "responses" for the endpoints whose tools are rewritten. */
function apiOf(pathname) {
  if (pathname.endsWith("/chat/completions")) return "chat";
  if (pathname.endsWith("/responses")) return "responses";
  return undefined;
}

function parseObject(text) {
  try {
    const value = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The function tools of a request. Chat Completions: `{type: "function",
 * function: {name, parameters}}`; Responses: `{type: "function", name,
 * parameters}`. Other tools (Responses' built-ins, Chat's `custom` tools)
 * have no JSON Schema and are sent as they came.
 */
function toolsOf(body, api) {
  if (!Array.isArray(body.tools)) return [];
  return body.tools.filter((tool) => isObject(tool) && tool.type === "function" && (api === "chat" ? isObject(tool.function) : true));
}

/**
 * The request with its function tools normalized for `target`: `strict` set
 * from the result on strict targets (true only when strict mode can express
 * the schema), names the provider refuses renamed everywhere the request
 * names a tool (`tool_choice`, the tool calls of earlier turns).
 */
function normalizeRequest(body, api, target, normalizeOptions) {
  const list = toolsOf(body, api);
  const { tools, telemetry } = normalizeTools(list, { target, ...normalizeOptions });
  const sent = tools.map((tool, i) => {
    const strict = telemetry.tools[i].strict;
    if (strict === undefined) return tool;
    return api === "chat" ? { ...tool, function: { ...tool.function, strict } } : { ...tool, strict };
  });
  const providerName = new Map(Object.entries(telemetry.names ?? {}).map(([provider, original]) => [original, provider]));
  const rename = (name) => providerName.get(name) ?? name;
  let k = 0;
  const out = { ...body, tools: body.tools.map((tool) => (list[k] === tool ? sent[k++] : tool)) };
  if (providerName.size > 0) renameRequest(out, api, rename);
  return { body: out, list, target, telemetry };
}

function renameRequest(body, api, rename) {
  const choice = body.tool_choice;
  if (isObject(choice) && choice.type === "function") {
    if (api === "chat" && isObject(choice.function)) body.tool_choice = { ...choice, function: { ...choice.function, name: rename(choice.function.name) } };
    if (api === "responses" && typeof choice.name === "string") body.tool_choice = { ...choice, name: rename(choice.name) };
  }
  if (api === "chat" && Array.isArray(body.messages)) {
    body.messages = body.messages.map((message) => {
      if (!Array.isArray(message?.tool_calls)) return message;
      const calls = message.tool_calls.map((call) => (isObject(call?.function) ? { ...call, function: { ...call.function, name: rename(call.function.name) } } : call));
      return { ...message, tool_calls: calls };
    });
  }
  if (api === "responses" && Array.isArray(body.input)) {
    body.input = body.input.map((item) => (item?.type === "function_call" ? { ...item, name: rename(item.name) } : item));
  }
}

/**
 * `{name, arguments}` for the client: the tool's own name, and the arguments
 * restored and repaired (the text as the model sent it when nothing changed).
 * A call the original schema still rejects keeps what restoring could do, so
 * the client's own validation reports what is really wrong.
 */
function restored(name, args, result) {
  const original = result.tool?.name ?? name;
  const changed = result.report.diagnostics.length > 0;
  if (!changed || (!result.ok && typeof result.args === "string")) return { name: original, arguments: args };
  return { name: original, arguments: typeof args === "string" ? JSON.stringify(result.args) : result.args };
}

function relay(response) {
  const headers = new Headers(response.headers);
  for (const name of RESPONSE_DROP) headers.delete(name);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function restoreResponse(response, api, session) {
  if (!response.ok || response.body === null) return response;
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("text/event-stream")) {
    const restore = api === "chat" ? restoreChatStream(session) : restoreResponsesStream(session);
    return new Response(response.body.pipeThrough(sseStream(restore)), response);
  }
  if (!type.includes("json")) return response;
  const text = await response.text();
  const body = parseObject(text);
  if (body === undefined) return new Response(text, response);
  const out = api === "chat" ? restoreChat(body, session.restore) : restoreResponses(body, session.restore);
  return new Response(JSON.stringify(out), response);
}

function restoreChat(body, restore) {
  if (!Array.isArray(body.choices)) return body;
  const choices = body.choices.map((choice) => {
    const calls = choice?.message?.tool_calls;
    if (!Array.isArray(calls)) return choice;
    const fixed = calls.map((call) => (isObject(call?.function) && typeof call.function.name === "string" ? { ...call, function: { ...call.function, ...restore(call.function.name, call.function.arguments ?? "{}") } } : call));
    return { ...choice, message: { ...choice.message, tool_calls: fixed } };
  });
  return { ...body, choices };
}

function restoreResponses(body, restore) {
  if (!Array.isArray(body.output)) return body;
  return { ...body, output: body.output.map((item) => (item?.type === "function_call" && typeof item.name === "string" ? { ...item, ...restore(item.name, item.arguments ?? "{}") } : item)) };
}
