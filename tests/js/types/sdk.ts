// Compiled by tests/js/sdk-types.test.mjs with tsc --noEmit --strict against
// the packed package and the real SDKs (devDependencies): what toolschema
// returns goes into each SDK's tool parameter types without a cast, and the
// mistakes the types exist to catch do not compile (`@ts-expect-error` fails
// the build when the line below it compiles).
import type Anthropic from "@anthropic-ai/sdk";
import type { FunctionDeclaration, Schema } from "@google/genai";
import type OpenAI from "openai";
import {
  adaptSchemaForStrict,
  enforceStrictSchema,
  normalize,
  normalizeSchema,
  normalizeSchemaForGoogle,
  normalizeSchemaForMCP,
  normalizeSchemaForOpenAIResponses,
  normalizeTools,
  prepareToolCall,
  targetFor,
  tryEnforceStrictSchema,
  type JsonSchema,
  type TargetId,
} from "toolschema";

const input = {
  type: "object",
  properties: { city: { type: "string" }, days: { type: "integer", minimum: 1 } },
  required: ["city"],
};

// OpenAI Chat Completions: FunctionParameters, strict flag included.
const adapted = adaptSchemaForStrict(input, true);
const chatTool: OpenAI.ChatCompletionTool = {
  type: "function",
  function: { name: "weather", parameters: adapted.schema, strict: adapted.strict },
};
const strictOut = normalize(input, "openai-strict");
const parameters: OpenAI.FunctionParameters = strictOut.schema;
const chatTool2: OpenAI.ChatCompletionFunctionTool = {
  type: "function",
  function: { name: "weather", parameters: tryEnforceStrictSchema(input).schema, strict: strictOut.strict },
};
const chatTool3: OpenAI.ChatCompletionFunctionTool = { type: "function", function: { name: "weather", parameters: enforceStrictSchema(input) } };

// OpenAI Responses: FunctionTool.parameters.
const responsesTool: OpenAI.Responses.FunctionTool = {
  type: "function",
  name: "weather",
  parameters: normalizeSchemaForOpenAIResponses(input),
  strict: false,
};
const responsesTool2: OpenAI.Responses.FunctionTool = { type: "function", name: "weather", parameters: normalize(input, "openai-responses").schema, strict: null };

// Anthropic: Tool.input_schema requires `type: "object"` at the root.
const anthropicTool: Anthropic.Tool = { name: "weather", input_schema: normalize(input, "anthropic").schema };
const strictAnthropic = normalize(input, "anthropic-strict");
const anthropicStrict: Anthropic.Tool = { name: "weather", input_schema: strictAnthropic.schema, strict: strictAnthropic.strict };
const bedrockLike: Anthropic.Tool.InputSchema = normalize(input, "bedrock").schema;
const mcpInput: Anthropic.Tool.InputSchema = normalizeSchemaForMCP(input);
const viaOption: Anthropic.Tool.InputSchema = normalizeSchema(input, { target: "anthropic" });
const viaDefault: Anthropic.Tool.InputSchema = normalizeSchema(input);

// Gemini: FunctionDeclaration.parameters (the SDK's Schema) and parametersJsonSchema.
const geminiSchema: Schema = normalizeSchemaForGoogle(input);
const declaration: FunctionDeclaration = { name: "weather", parameters: normalize(input, "google").schema };
const declaration2: FunctionDeclaration = { name: "weather", parametersJsonSchema: normalizeSchemaForMCP(input) };

// A whole list keeps its SDK type, so it goes straight into the request.
const anthropicTools: Anthropic.Tool[] = [{ name: "weather", input_schema: { type: "object", properties: { city: { type: "string" } } } }];
const request: Anthropic.MessageCreateParams = {
  model: "claude-sonnet-4-5",
  max_tokens: 1024,
  messages: [{ role: "user", content: "Weather in Oslo?" }],
  tools: normalizeTools(anthropicTools, { target: "anthropic" }).tools,
};
const chatTools: OpenAI.ChatCompletionTool[] = [chatTool];
const chatRequest: OpenAI.ChatCompletionCreateParams = {
  model: "gpt-5",
  messages: [{ role: "user", content: "Weather in Oslo?" }],
  tools: normalizeTools(chatTools, { target: "openai-strict" }).tools,
};

// A route picks a target id that every function takes.
const routed: TargetId = targetFor({ provider: "openai", model: "gpt-5" });
const routedSchema: JsonSchema = normalize(input, routed).schema;

// prepareToolCall narrows on `ok`: `message` is a string when not ok.
function reply(text: string): string {
  return text;
}
const call = prepareToolCall<{ city: string; days?: number }>('{"city": "Oslo", "days": null}', { name: "weather", inputSchema: input }, { target: "openai-strict" });
const outcome: string = call.ok ? call.args.city : reply(call.message);

// Results are deep-frozen, and the types say so.
const frozen = normalize(input, "openai");
// @ts-expect-error results are readonly
frozen.schema.type = "array";
// @ts-expect-error the report's arrays are readonly
frozen.report.diagnostics.push({ code: "x", pointer: "", message: "", lossy: false });

// A misspelt target id does not compile.
// @ts-expect-error "gemini" is not a target id ("google" is)
normalize(input, "gemini");
// @ts-expect-error nor in options
normalizeTools([], { target: "openai_strict" });
// @ts-expect-error nor as a string of unknown origin
normalize(input, String("google"));

// A schema the package returns is never a boolean schema.
// @ts-expect-error JsonSchema is an object type; `true` is input only
const notASchema: JsonSchema = true;
// @ts-expect-error a result's schema cannot be compared with a boolean
if (normalize(input, "mcp").schema === true) reply("never");
// @ts-expect-error a plain JsonSchema (Gemini's, or a grammar target's) does not promise Anthropic's object root
const noRoot: Anthropic.Tool.InputSchema = normalizeSchemaForGoogle(input);

void [chatTool, parameters, chatTool2, chatTool3, responsesTool, responsesTool2, anthropicTool, anthropicStrict, bedrockLike, mcpInput, viaOption, viaDefault];
void [geminiSchema, declaration, declaration2, request, chatRequest, routedSchema, outcome, notASchema, noRoot];
