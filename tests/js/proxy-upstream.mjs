// The OpenAI-compatible upstream the proxy tests put behind toolschema/proxy:
// a node:http server on 127.0.0.1 that records every request (method, path,
// headers, body text) and answers Chat Completions and Responses requests
// with tool calls shaped the way OpenAI strict mode makes a model send them
// (nulls for unused optional fields, an array as JSON text), as JSON or as
// an SSE stream whose argument deltas are cut into small pieces. It calls the
// tools by the names the request offered them under.
import { createServer } from "node:http";

/** Arguments as a strict-mode model sends them, per tool (by the tool's own name). */
export const MODEL_ARGS = {
  "issues.search": '{"query": "wasm", "labels": "[\\"bug\\"]", "limit": null, "state": null}',
  "issues.close": '{"number": "7", "reason": null}',
};
/** What the tools' own schemas accept: the same calls restored. */
export const RESTORED = {
  "issues.search": { query: "wasm", labels: ["bug"] },
  "issues.close": { number: 7 },
};
export const TEXT = ["Let me ", "look that up."];

export const ISSUE_TOOLS = {
  "issues.search": {
    type: "object",
    properties: {
      query: { type: "string" },
      labels: { type: "array", items: { type: "string" } },
      limit: { type: "integer", minimum: 1, maximum: 50 },
      state: { enum: ["open", "closed"] },
    },
    required: ["query"],
  },
  "issues.close": {
    type: "object",
    properties: { number: { type: "integer", minimum: 1 }, reason: { enum: ["completed", "not_planned"] } },
    required: ["number"],
  },
};

export async function startUpstream() {
  const requests = [];
  const server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    requests.push({ method: req.method, url: req.url, headers: req.headers, text });
    const path = new URL(req.url, "http://x").pathname;
    if (req.method === "GET" && path.endsWith("/models")) {
      return res.writeHead(200, { "content-type": "application/json", "x-upstream": "yes" }).end(JSON.stringify({ object: "list", data: [{ id: "local-model", object: "model" }] }));
    }
    if (req.method === "POST" && path.endsWith("/embeddings")) {
      return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ echo: text }));
    }
    const body = JSON.parse(text);
    // The names the request offered, in the order of the tools' own names.
    const offered = (body.tools ?? []).filter((t) => t.type === "function").map((t) => t.function?.name ?? t.name);
    const calls = offered.slice(0, 2).map((name, i) => ({ id: `call_${i + 1}`, name, arguments: MODEL_ARGS[originalOf(name)] ?? "{}" }));
    if (path.endsWith("/chat/completions")) return body.stream ? chatStream(res, body, calls) : chatJson(res, body, calls);
    if (path.endsWith("/responses")) return body.stream ? responsesStream(res, body, calls) : responsesJson(res, body, calls);
    res.writeHead(404).end();
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { url: `http://127.0.0.1:${server.address().port}`, requests, close: () => new Promise((ok) => server.close(ok)) };
}

// The provider names the normalizer gives these tools (dots are not allowed
// in OpenAI function names).
const originalOf = (name) => name.replace(/^issues_/, "issues.");

function chatJson(res, body, calls) {
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({
    id: "chatcmpl-1", object: "chat.completion", created: 1, model: body.model,
    choices: [{ index: 0, finish_reason: "tool_calls", logprobs: null, message: {
      role: "assistant", content: null, refusal: null,
      tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
    } }],
    usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
  }));
}

/** `text` in pieces of `size` characters. */
const pieces = (text, size) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, i * size + size));

async function sse(res, events) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const event of events) {
    // Each event is written in two halves, so that a read can end inside one.
    const half = Math.floor(event.length / 2);
    res.write(event.slice(0, half));
    await new Promise((ok) => setImmediate(ok));
    res.write(event.slice(half));
  }
  res.end();
}

function chatStream(res, body, calls) {
  const chunk = (delta, finish = null, extra = {}) => `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: body.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra })}\n\n`;
  const events = [chunk({ role: "assistant", content: "" })];
  for (const text of TEXT) events.push(chunk({ content: text }));
  calls.forEach((c, index) => {
    events.push(chunk({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] }));
    for (const piece of pieces(c.arguments, 7)) events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(chunk({}, "tool_calls"));
  events.push(`data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: body.model, choices: [], usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 } })}\n\n`);
  events.push("data: [DONE]\n\n");
  return sse(res, events);
}

const responseObject = (body, status, output) => ({
  id: "resp_1", object: "response", created_at: 1, status, model: body.model, output,
  parallel_tool_calls: true, tool_choice: "auto", tools: [], temperature: 1, top_p: 1, error: null, incomplete_details: null, instructions: null, metadata: {},
});
const messageItem = { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: TEXT.join(""), annotations: [] }] };
const callItem = (c, args, status = "completed") => ({ type: "function_call", id: `fc_${c.id}`, call_id: c.id, name: c.name, arguments: args, status });

function responsesJson(res, body, calls) {
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(responseObject(body, "completed", [messageItem, ...calls.map((c) => callItem(c, c.arguments))])));
}

function responsesStream(res, body, calls) {
  let seq = 0;
  const event = (type, fields) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...fields })}\n\n`;
  const events = [event("response.created", { response: responseObject(body, "in_progress", []) })];
  events.push(event("response.output_item.added", { output_index: 0, item: { ...messageItem, status: "in_progress", content: [] } }));
  events.push(event("response.content_part.added", { item_id: "msg_1", output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }));
  for (const delta of TEXT) events.push(event("response.output_text.delta", { item_id: "msg_1", output_index: 0, content_index: 0, delta, logprobs: [] }));
  events.push(event("response.output_text.done", { item_id: "msg_1", output_index: 0, content_index: 0, text: TEXT.join(""), logprobs: [] }));
  events.push(event("response.content_part.done", { item_id: "msg_1", output_index: 0, content_index: 0, part: messageItem.content[0] }));
  events.push(event("response.output_item.done", { output_index: 0, item: messageItem }));
  calls.forEach((c, i) => {
    const output_index = i + 1;
    const item_id = `fc_${c.id}`;
    events.push(event("response.output_item.added", { output_index, item: callItem(c, "", "in_progress") }));
    for (const delta of pieces(c.arguments, 5)) events.push(event("response.function_call_arguments.delta", { item_id, output_index, delta }));
    events.push(event("response.function_call_arguments.done", { item_id, output_index, arguments: c.arguments }));
    events.push(event("response.output_item.done", { output_index, item: callItem(c, c.arguments) }));
  });
  events.push(event("response.completed", { response: responseObject(body, "completed", [messageItem, ...calls.map((c) => callItem(c, c.arguments))]) }));
  return sse(res, events);
}
