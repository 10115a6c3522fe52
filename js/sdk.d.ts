// Types of `toolschema/sdk`. Free of the provider SDKs' own types (the
// package depends on none): each tool type is declared so that it is
// assignable to that SDK's `tools` parameter without a cast, and each
// response type so that the SDK's response object is assignable to it
// (tests/js/types/sdk-converters.ts compiles both against the real
// `openai`, `@anthropic-ai/sdk` and `@google/genai`).

import type { ArgumentOptions, JsonSchema, NormalizeOptions, ObjectSchema, PreparedToolCallFailed, PreparedToolCallOk, TargetId, ToolsTelemetry } from "toolschema";

/** A tool list in any shape `normalizeTools` reads: MCP (a `tools/list` result, `{tools}` or a bare list), OpenAI Chat or Responses, Anthropic, Gemini. */
export type ToolListInput = object;

/** Options of every converter: the core's normalize options plus these. */
export interface ConvertOptions extends NormalizeOptions {
  /** Override the target the converter picks. */
  target?: TargetId;
  /** Options for preparing the calls' arguments (`emptyStrings`, `maxDepth`). */
  arguments?: Omit<ArgumentOptions, "name" | "normalize">;
}

/** Options of the OpenAI and Anthropic converters. */
export interface StrictConvertOptions extends ConvertOptions {
  /** Ask for strict tools; each tool is strict only where strict mode can express it (and, for Anthropic, the request's budget allows). Default false. */
  strict?: boolean;
}

/** Options of `geminiTools`. */
export interface GeminiConvertOptions extends ConvertOptions {
  /** The model id: a `claude-*` model (behind Cloud Code Assist) gets the `cca` target on `parameters`. */
  model?: string;
  /** The declaration field for the schema; default `parametersJsonSchema` for `google`, `parameters` for `cca`. */
  field?: "parameters" | "parametersJsonSchema";
}

/** A tool call read from a response, its arguments prepared for the original schema. */
interface CallIdentity {
  /** The call id the provider gave (`tool_call_id`, `call_id`, `tool_use_id`; Gemini's optional `id`). */
  id: string | undefined;
  /** The tool's original name: call it by this one. */
  name: string;
  /** The name the model called (differs when the provider needed another, see `telemetry.names`). */
  providerName: string;
}

/** Call the tool with `args` when `ok`; otherwise send `message` back to the model as the tool result. */
export type SdkToolCall<A = unknown> = (PreparedToolCallOk<A> & CallIdentity) | (PreparedToolCallFailed & CallIdentity);

/** What a converter returns: the SDK's `tools`, what was done, and the restore for the SDK's responses. */
export interface ConvertedTools<T, R> {
  /** Pass as the SDK's `tools` parameter. */
  readonly tools: T;
  /** The target the schemas were normalized for. */
  readonly target: TargetId;
  /** Per tool: changes, strict verdicts and reasons, names sent under another name. */
  readonly telemetry: ToolsTelemetry;
  /** The tool calls of the SDK's response, each prepared (`prepareToolCall`) for its tool's original schema. */
  calls<A = unknown>(response: R, options?: Omit<ArgumentOptions, "name" | "normalize">): SdkToolCall<A>[];
}

/** A Chat Completions function tool (`OpenAI.ChatCompletionTool`). */
export interface OpenAIChatTool {
  type: "function";
  function: { name: string; description?: string; parameters: ObjectSchema; strict?: boolean };
}

/** A Responses API function tool (`OpenAI.Responses.FunctionTool`). */
export interface OpenAIResponsesTool {
  type: "function";
  name: string;
  description?: string;
  parameters: ObjectSchema;
  strict: boolean;
}

/** An Anthropic Messages tool (`Anthropic.Tool`). */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: ObjectSchema;
  strict?: boolean;
}

/** A Gemini function declaration (`FunctionDeclaration` of `@google/genai`), its schema on one of the two fields. */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: JsonSchema;
  parametersJsonSchema?: JsonSchema;
}

/** A ChatCompletion, or one of its messages. */
export type OpenAIChatResponse = { choices: ReadonlyArray<{ message: { tool_calls?: ReadonlyArray<object> | null } }> } | { tool_calls?: ReadonlyArray<object> | null };

/** A Responses API Response, or its `output`. */
export type OpenAIResponsesResponse = { output: ReadonlyArray<object> } | ReadonlyArray<object>;

/** An Anthropic Message, or its `content`. */
export type AnthropicResponse = { content: ReadonlyArray<object> } | ReadonlyArray<object>;

/** A GenerateContentResponse, or its `functionCalls`. */
export type GeminiResponse = { candidates?: ReadonlyArray<object> } | ReadonlyArray<{ id?: string; name?: string; args?: object }> | undefined;

/** Chat Completions `tools` (target `openai`, or `openai-strict` with `strict: true`), and the calls of a ChatCompletion. */
export declare function openaiChatTools(tools: ToolListInput, options?: StrictConvertOptions): ConvertedTools<OpenAIChatTool[], OpenAIChatResponse>;

/** Responses API `tools` (target `openai-responses`, or `openai-strict` with `strict: true`), and the calls of a Response. */
export declare function openaiResponsesTools(tools: ToolListInput, options?: StrictConvertOptions): ConvertedTools<OpenAIResponsesTool[], OpenAIResponsesResponse>;

/** Anthropic Messages `tools` (target `anthropic`, or `anthropic-strict` within the request's budget with `strict: true`), and the calls of a Message. */
export declare function anthropicTools(tools: ToolListInput, options?: StrictConvertOptions): ConvertedTools<AnthropicTool[], AnthropicResponse>;

/** `@google/genai` `tools` (`[{functionDeclarations}]`, target `google`, or `cca` for a `claude-*` model), and the calls of a GenerateContentResponse. */
export declare function geminiTools(tools: ToolListInput, options?: GeminiConvertOptions): ConvertedTools<[{ functionDeclarations: GeminiFunctionDeclaration[] }], GeminiResponse>;

/** What each strict target fails open to. */
export declare const RELAXED: { readonly [target: string]: TargetId };
