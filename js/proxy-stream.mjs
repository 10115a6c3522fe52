// Server-sent event streams of the two OpenAI APIs, with the tool calls
// restored. A call's arguments arrive in pieces and can only be restored
// whole, so its pieces are held back and the call goes out once, restored,
// when the model has finished it; every other event passes as it came.
// Formats: https://platform.openai.com/docs/api-reference/chat-streaming and
// https://platform.openai.com/docs/api-reference/responses-streaming; the
// event syntax is the HTML standard's "server-sent events" section.

/**
 * A TransformStream of SSE bytes. `handler.event({lines, data})` returns the
 * event blocks to write instead of the event (without the blank line that
 * ends each), or null to write it as it came; `handler.end()` the blocks to
 * write when the stream ends.
 */
export function sseStream(handler) {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = "";
  const emit = (controller, blocks) => {
    if (blocks.length > 0) controller.enqueue(encoder.encode(blocks.map((b) => `${b}\n\n`).join("")));
  };
  const take = (controller, block) => {
    const lines = block.split(/\r\n|\r|\n/);
    const data = lines.filter((l) => l.startsWith("data:")).map((l) => l.slice(l.startsWith("data: ") ? 6 : 5));
    const out = handler.event({ lines, data: data.length > 0 ? data.join("\n") : undefined });
    emit(controller, out ?? [block]);
  };
  return new TransformStream({
    transform(chunk, controller) {
      buffer += decoder.decode(chunk, { stream: true });
      // An event ends at a blank line; CRLF, CR and LF all end a line.
      let match;
      while ((match = /\r\n\r\n|\n\n|\r\r|\r\n\n|\n\r\n/.exec(buffer)) !== null) {
        const block = buffer.slice(0, match.index);
        buffer = buffer.slice(match.index + match[0].length);
        take(controller, block);
      }
    },
    flush(controller) {
      buffer += decoder.decode();
      if (buffer.trim() !== "") take(controller, buffer.replace(/[\r\n]+$/, ""));
      emit(controller, handler.end());
    },
  });
}

/** The event block for `value`, keeping the event's other fields (`event:`, `id:`). */
function block(lines, value, eventName) {
  const fields = lines.filter((l) => !l.startsWith("data:") && l !== "").map((l) => (eventName !== undefined && /^event:/.test(l) ? `event: ${eventName}` : l));
  return [...fields, `data: ${JSON.stringify(value)}`].join("\n");
}

function parse(data) {
  if (data === undefined) return undefined;
  try {
    const value = JSON.parse(data);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

// The chunk fields a synthetic chunk copies from the stream's latest chunk.
const CHUNK_FIELDS = ["id", "object", "created", "model", "system_fingerprint", "service_tier"];

/**
 * Chat Completions chunks: `choices[].delta.tool_calls[]` pieces are held per
 * choice and call index (the first piece has the id and name, the rest append
 * to `function.arguments`). A choice's calls go out restored in one chunk of
 * their own, just before the chunk with that choice's `finish_reason`, or
 * before `[DONE]` (or the stream's end) when no finish reason came.
 */
export function restoreChatStream({ restore }) {
  const pending = new Map();
  let template = { object: "chat.completion.chunk" };
  let lastLines = ["data: {}"];

  const callsChunk = (choice) => {
    const calls = [...pending.get(choice).values()];
    pending.delete(choice);
    const toolCalls = calls.map((call) => {
      const { name, arguments: args } = call.name === undefined ? { name: undefined, arguments: call.args } : restore(call.name, call.args);
      return { index: call.index, id: call.id, type: call.type ?? "function", function: { name, arguments: args } };
    });
    return block(lastLines, { ...template, choices: [{ index: choice, delta: { tool_calls: toolCalls }, logprobs: null, finish_reason: null }] });
  };
  const flushAll = () => [...pending.keys()].map(callsChunk);

  return {
    event({ lines, data }) {
      if (data === "[DONE]") return [...flushAll(), lines.join("\n")];
      const chunk = parse(data);
      if (chunk === undefined || !Array.isArray(chunk.choices)) return null;
      const { choices, ...top } = chunk;
      template = Object.fromEntries(CHUNK_FIELDS.filter((k) => top[k] !== undefined).map((k) => [k, top[k]]));
      lastLines = lines;
      let changed = false;
      const before = [];
      const kept = [];
      choices.forEach((choice) => {
        const index = choice?.index ?? 0;
        let out = choice;
        const pieces = choice?.delta?.tool_calls;
        if (Array.isArray(pieces)) {
          changed = true;
          if (!pending.has(index)) pending.set(index, new Map());
          const calls = pending.get(index);
          pieces.forEach((piece, position) => {
            // Some servers leave out `index` on a call sent whole; its place
            // in the list stands in.
            const key = piece?.index ?? position;
            if (!calls.has(key)) calls.set(key, { index: key, id: undefined, type: undefined, name: undefined, args: "" });
            const call = calls.get(key);
            call.id ??= piece?.id;
            call.type ??= piece?.type;
            if (typeof piece?.function?.name === "string" && piece.function.name !== "") call.name ??= piece.function.name;
            if (typeof piece?.function?.arguments === "string") call.args += piece.function.arguments;
          });
          const { tool_calls, ...delta } = choice.delta;
          out = { ...choice, delta };
        }
        if (out?.finish_reason != null && pending.has(index)) {
          changed = true;
          before.push(callsChunk(index));
        }
        if (Array.isArray(pieces) && out.finish_reason == null && out.logprobs == null && Object.values(out.delta).every((v) => v == null)) return;
        kept.push(out);
      });
      if (!changed) return null;
      // A chunk left with no choice goes only if it carries usage.
      if (kept.length === 0 && top.usage == null) return before;
      return [...before, block(lines, { ...top, choices: kept })];
    },
    end: flushAll,
  };
}

/**
 * Responses events: the `response.function_call_arguments.delta` events of a
 * call are held back; at its `.done` event one delta with the restored
 * arguments goes out (with the sequence number of the last delta held, so
 * the numbers still rise), then `.done` with them. The call's items in
 * `response.output_item.added`/`.done` and in the final `response.*` events
 * carry the tool's own name and the restored arguments.
 */
export function restoreResponsesStream({ restore, nameOf }) {
  const calls = new Map();
  const fixItem = (item) => {
    if (item?.type !== "function_call" || typeof item.name !== "string") return item;
    const call = calls.get(item.id);
    const fixed = call?.restored ?? restore(call?.name ?? item.name, item.arguments ?? call?.args ?? "");
    return { ...item, name: fixed.name, arguments: fixed.arguments };
  };
  return {
    event({ lines, data }) {
      const event = parse(data);
      if (event === undefined || typeof event.type !== "string") return null;
      switch (event.type) {
        case "response.output_item.added": {
          const item = event.item;
          if (item?.type !== "function_call") return null;
          calls.set(item.id, { name: item.name, args: "", sequence: undefined, restored: undefined });
          return [block(lines, { ...event, item: { ...item, name: nameOf(item.name) } })];
        }
        case "response.function_call_arguments.delta": {
          const call = calls.get(event.item_id);
          if (call === undefined) return null;
          call.args += typeof event.delta === "string" ? event.delta : "";
          call.sequence = event.sequence_number;
          return [];
        }
        case "response.function_call_arguments.done": {
          const call = calls.get(event.item_id);
          if (call === undefined) return null;
          call.restored = restore(call.name, typeof event.arguments === "string" ? event.arguments : call.args);
          const done = { ...event, arguments: call.restored.arguments };
          if (typeof event.name === "string") done.name = call.restored.name;
          const out = [];
          if (call.sequence !== undefined) {
            const { arguments: _a, name: _n, ...rest } = event;
            out.push(block(lines, { ...rest, type: "response.function_call_arguments.delta", sequence_number: call.sequence, delta: call.restored.arguments }, "response.function_call_arguments.delta"));
          }
          out.push(block(lines, done));
          return out;
        }
        case "response.output_item.done":
          if (event.item?.type !== "function_call") return null;
          return [block(lines, { ...event, item: fixItem(event.item) })];
        default: {
          const output = event.response?.output;
          if (!Array.isArray(output) || !output.some((item) => item?.type === "function_call")) return null;
          return [block(lines, { ...event, response: { ...event.response, output: output.map(fixItem) } })];
        }
      }
    },
    end: () => [],
  };
}
