// Types of `toolschema/ai-sdk`. Free of the AI SDK's own types (the package
// has no dependency on it): the middleware is declared structurally, so it
// is assignable to `ai` 5's LanguageModelV2Middleware, `ai` 6's
// LanguageModelV3Middleware and `ai` 7's LanguageModelMiddleware
// (tests/js/types/ai-sdk.ts compiles that against each real package). The
// call options and results it passes through are the SDK's and typed `any`
// here for that reason.

import type { ArgumentOptions, NormalizeOptions, PreparedToolCall, TargetId, ToolsTelemetry } from "toolschema";

/** The parts of a language model (LanguageModelV2, V3 or V4) the middleware reads. */
export interface LanguageModelLike {
  /** "v2" (ai 5), "v3" (ai 6) or "v4" (ai 7). */
  readonly specificationVersion: string;
  /** The provider id, e.g. "openai.responses", "anthropic.messages", "google.generative-ai". */
  readonly provider: string;
  /** The model id, e.g. "gpt-5", "claude-sonnet-4-5", "gemini-2.5-flash". */
  readonly modelId: string;
}

/** The language model specification versions: ai 5, 6 and 7. */
export type SpecificationVersion = "v2" | "v3" | "v4";

/** What `onReport` receives: the normalized tools of a call, then each tool call prepared. */
export type AiSdkReport =
  | {
      type: "tools";
      /** The target the tools were normalized for. */
      target: TargetId;
      /** Per tool: changes, strict verdicts, names sent under another name. */
      telemetry: ToolsTelemetry;
      provider: string | undefined;
      modelId: string | undefined;
    }
  | {
      type: "tool-call";
      /** The tool's own name. */
      toolName: string;
      toolCallId: string;
      target: TargetId;
      /** The arguments as the model sent them (JSON text). */
      input: string;
      /** `prepareToolCall`'s result: `args` went to the tool when `ok`, else `message` went to the model. */
      prepared: PreparedToolCall;
    };

/** Options of `toolschemaMiddleware`; every field is optional. */
export interface AiSdkMiddlewareOptions<M extends LanguageModelLike = LanguageModelLike> {
  /** The model being wrapped: its `specificationVersion` shapes the middleware's version field. */
  model?: M;
  /** The version field without a model; default "v4" (ai 7). */
  specificationVersion?: SpecificationVersion;
  /** A fixed target, or a function of the model and whether the call asks for strict tools; default `targetForModel`. */
  target?: TargetId | ((model: LanguageModelLike, strict: boolean) => TargetId);
  /** Core options for normalizing the tools' schemas. */
  normalize?: NormalizeOptions;
  /** Options for preparing the tool calls' arguments (`emptyStrings`, `maxDepth`). */
  arguments?: Omit<ArgumentOptions, "name" | "normalize">;
  /** Called with each call's normalized tools and each tool call prepared. */
  onReport?: (report: AiSdkReport) => void;
}

/** The middleware's hooks (LanguageModelV2/V3/V4 middleware). */
export interface ToolschemaMiddlewareHooks {
  transformParams(options: { type: "generate" | "stream"; params: any; model: any }): Promise<any>;
  wrapGenerate(options: { doGenerate: () => PromiseLike<any>; doStream: () => PromiseLike<any>; params: any; model: any }): Promise<any>;
  wrapStream(options: { doGenerate: () => PromiseLike<any>; doStream: () => PromiseLike<any>; params: any; model: any }): Promise<any>;
}

/** The middleware for `ai` 5 (LanguageModelV2Middleware). */
export interface ToolschemaMiddlewareV2 extends ToolschemaMiddlewareHooks {
  readonly middlewareVersion: "v2";
}

/** The middleware for `ai` 6 (LanguageModelV3Middleware) or 7 (LanguageModelV4Middleware). */
export interface ToolschemaMiddlewareV3 extends ToolschemaMiddlewareHooks {
  readonly specificationVersion: "v3";
}

/** The middleware for `ai` 7 (LanguageModelV4Middleware). */
export interface ToolschemaMiddlewareV4 extends ToolschemaMiddlewareHooks {
  readonly specificationVersion: "v4";
}

/** The middleware shaped for specification version `V`. */
export type ToolschemaMiddlewareFor<V> = V extends "v2" ? ToolschemaMiddlewareV2 : V extends "v3" ? ToolschemaMiddlewareV3 : ToolschemaMiddlewareV4;

/**
 * A middleware for `wrapLanguageModel` that normalizes every function tool's
 * `inputSchema` for the model's provider and prepares every tool call's
 * arguments (`prepareToolCall`) so `execute` receives the original shape.
 * Pass the model being wrapped (or `specificationVersion`) so the version
 * field is the one your `ai` reads.
 */
export declare function toolschemaMiddleware<M extends LanguageModelLike>(options: AiSdkMiddlewareOptions<M> & { model: M; specificationVersion?: undefined }): ToolschemaMiddlewareFor<M["specificationVersion"]>;
export declare function toolschemaMiddleware<V extends SpecificationVersion = "v4">(options?: AiSdkMiddlewareOptions & { specificationVersion?: V }): ToolschemaMiddlewareFor<V>;

/** The target for an AI SDK model: its provider id ("openai.responses") and model id, strict or not. */
export declare function targetForModel(model: { provider: string; modelId: string }, strict?: boolean): TargetId;
