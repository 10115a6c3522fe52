// Compiled by tests/js/integration-types.test.mjs with tsc --strict against
// the built package and the real `openai`, `@anthropic-ai/sdk` and
// `@google/genai`: each converter's tools go into that SDK's request
// parameters, and its response objects into `calls`, without a cast.
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { anthropicTools, geminiTools, openaiChatTools, openaiResponsesTools, type SdkToolCall } from "toolschema/sdk";

const mcp = { tools: [{ name: "search", inputSchema: { type: "object", properties: { q: { type: "string" } } } }] };

export async function chat(client: OpenAI) {
  const set = openaiChatTools(mcp, { strict: true, spill: "paren" });
  const completion = await client.chat.completions.create({ model: "gpt-5", messages: [{ role: "user", content: "hi" }], tools: set.tools });
  const calls: SdkToolCall<{ q: string }>[] = set.calls<{ q: string }>(completion);
  for (const call of calls) {
    if (call.ok) console.log(call.args.q.toUpperCase(), call.id, call.name);
    else console.log(call.message.length);
  }
  set.calls(completion.choices[0].message);
}

export async function responses(client: OpenAI) {
  const set = openaiResponsesTools(mcp.tools, { strict: false });
  const response = await client.responses.create({ model: "gpt-5", input: "hi", tools: set.tools });
  set.calls(response);
  set.calls(response.output);
}

export async function anthropic(client: Anthropic) {
  const set = anthropicTools(mcp, { strict: true, arguments: { emptyStrings: true } });
  const message = await client.messages.create({ model: "claude-sonnet-4-6", max_tokens: 64, messages: [{ role: "user", content: "hi" }], tools: set.tools });
  const [first] = set.calls(message, { emptyStrings: false });
  if (first !== undefined && !first.ok) console.log(first.errors[0]?.message);
  set.calls(message.content);
}

export async function gemini(client: GoogleGenAI) {
  const set = geminiTools(mcp, { model: "gemini-2.5-flash", field: "parametersJsonSchema" });
  const response = await client.models.generateContent({ model: "gemini-2.5-flash", contents: "hi", config: { tools: set.tools } });
  set.calls(response);
  set.calls(response.functionCalls);
  console.log(set.target, set.telemetry.toolsModified);
}

// @ts-expect-error a misspelt target id
openaiChatTools(mcp, { target: "openai-strcit" });
// @ts-expect-error no such Gemini field
geminiTools(mcp, { field: "schema" });
// @ts-expect-error an unknown core option
anthropicTools(mcp, { spil: "none" });
