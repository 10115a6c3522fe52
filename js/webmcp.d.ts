// Types of `toolschema/webmcp`. Free of DOM types, like index.d.ts: the
// WebMCP objects are described by the members used here, so the page's
// `document.modelContext` (native, or @mcp-b/webmcp-polyfill's, typed by
// @mcp-b/webmcp-types) is accepted as it is.
import type {
  ArgumentError,
  NormalizeOptions,
  ObjectSchema,
  PreparedToolCall,
  PreparedToolCallFailed,
  Report,
  SchemaInput,
  TargetId,
  ToolsTelemetry,
  CalledTool,
} from "./index.js";

/** The options of the argument round trip (`prepareToolCall`) both halves share. */
export interface WebMcpArgumentOptions {
  /** Options for normalizing the schemas (and reading them back for the arguments). */
  normalize?: NormalizeOptions;
  /** Also treat `""` in an optional field as absent (default false). */
  emptyStrings?: boolean;
  /** Deepest nesting accepted in arguments and schemas (default 256). */
  maxDepth?: number;
}

/** A tool as a page declares it: the `ModelContextTool` dictionary. */
export interface WebMcpTool<A = any, R = unknown> {
  /** The tool's name (WebMCP: 1 to 128 of ASCII letters, digits, `_`, `-`, `.`). */
  name: string;
  /** What the tool does, for the model. */
  description: string;
  /** Any schema `normalize` takes (JSON Schema, JSON text, Zod 4, Standard JSON Schema); registered as the `webmcp` target's form. Absent: the tool takes no arguments. */
  inputSchema?: SchemaInput;
  /** Runs with the arguments restored, repaired and validated against `inputSchema` as written. */
  execute(input: A, ...rest: any[]): R | Promise<R>;
  [member: string]: unknown;
}

/** What `registerTool` needs of a `modelContext`. */
export interface WebMcpRegistrar {
  registerTool(tool: any, options?: any): unknown;
}

/** What `getTools` needs of a `modelContext`; `executeTool` only for `execute`. */
export interface WebMcpDiscovery {
  getTools(options?: any): Promise<readonly WebMcpRegisteredTool[]> | readonly WebMcpRegisteredTool[];
  executeTool?(tool: any, input: any, options?: any): Promise<unknown>;
}

/** A tool as `getTools()` returns it (`RegisteredTool`); `inputSchema` is an object since webmcp#241, JSON text before. */
export interface WebMcpRegisteredTool {
  /** The name the page registered. */
  name: string;
  /** The page's description. */
  description?: string;
  /** The schema as registered: an object, or its JSON text. */
  inputSchema?: object | string;
}

/** `registerTool` options: the registration's own, plus the round trip's. */
export interface RegisterToolOptions extends WebMcpArgumentOptions {
  /** Unregisters the tool when aborted (the WebMCP `signal` option). */
  signal?: object;
  /** Origins of other documents the tool is exposed to (native WebMCP only). */
  exposedTo?: string[];
  /** What `execute` returns when the arguments do not fit; default `{content: [{type: "text", text: message}], isError: true}`. */
  onInvalid?: (prepared: PreparedToolCallFailed) => unknown;
}

/** What `registerTool` registered. */
export interface RegisteredWebMcpTool {
  /** The schema registered (the `webmcp` target's output); undefined for a tool without one. */
  readonly inputSchema: ObjectSchema | undefined;
  /** What normalizing it changed; undefined for a tool without a schema. */
  readonly report: Report | undefined;
}

/**
 * For pages: registers `tool` with its `inputSchema` normalized for the `webmcp` target and its `execute`
 * wrapped so that arguments are restored, repaired and validated against the schema as written first.
 * `modelContext` null or undefined: `document.modelContext`, else the deprecated `navigator.modelContext`.
 */
export declare function registerTool<A = any, R = unknown>(
  modelContext: WebMcpRegistrar | null | undefined,
  tool: WebMcpTool<A, R>,
  options?: RegisterToolOptions,
): Promise<RegisteredWebMcpTool>;

/** `getTools` options: the agent's target (or what `targetFor` picks it from), and the round trip's. */
export interface GetToolsOptions extends WebMcpArgumentOptions {
  /** The target the agent's model needs. */
  target?: TargetId;
  /** Without `target`: the agent's provider, which `targetFor` chooses it from, e.g. "anthropic". */
  provider?: string;
  /** Without `target`: the model id, e.g. "gemini-2.5-flash". */
  model?: string;
  /** Without `target`: the API, e.g. "responses". */
  api?: string;
  /** Without `target`: the calls use strict (grammar-constrained) tools. */
  strict?: boolean;
  /** Passed to `modelContext.getTools()`: tools of other documents (native WebMCP only). */
  fromOrigins?: string[];
  /** How `execute` passes the arguments to `executeTool`: "json" text (default; every implementation so far takes it) or an "object" (the draft's form). */
  input?: "json" | "object";
}

/** A page tool in MCP shape, its schema normalized for the agent's target. */
export interface WebMcpAgentTool {
  /** The name to offer the model (rewritten where the provider refuses the page's; see `telemetry.names`). */
  readonly name: string;
  /** The page's description. */
  readonly description: string;
  /** The schema normalized for the target. */
  readonly inputSchema: ObjectSchema;
}

/** A page tool as declared, its `inputSchema` parsed (the original the round trip checks against). */
export interface WebMcpDeclaredTool {
  /** The name the page registered. */
  readonly name: string;
  /** The page's description. */
  readonly description: string;
  /** The schema as registered, parsed when it came as text. */
  readonly inputSchema: unknown;
}

/** `execute` when the arguments fit: the tool ran. */
export interface WebMcpExecuted<A = unknown> {
  /** The arguments fit and the tool ran. */
  ok: true;
  /** What `executeTool` resolved to (JSON text in Chrome and the polyfill). */
  result: unknown;
  /** The arguments sent, restored and repaired. */
  args: A;
  /** Every restoration and repair, with its pointer into the arguments. */
  report: Report;
  /** The tool called, by its original name. */
  tool?: CalledTool;
}

/** `execute` when they do not: the tool did not run; hand `message` back to the model. */
export interface WebMcpNotExecuted {
  /** The arguments do not fit; the tool did not run. */
  ok: false;
  /** Every error in one text, written for the model. */
  message: string;
  /** What is wrong, at least one. */
  errors: ArgumentError[];
  /** The arguments as far as they were restored and repaired. */
  args: unknown;
  /** Every restoration and repair. */
  report: Report;
  /** The tool called (absent when no tool has the name). */
  tool?: CalledTool;
}

/** The page's tools for an agent, and the way back. */
export interface WebMcpTools {
  /** The target the schemas were normalized for. */
  readonly target: TargetId;
  /** Each page tool for the model, in `getTools()` order. */
  readonly tools: readonly WebMcpAgentTool[];
  /** What normalizing the list did, per tool; `names` maps rewritten names back. */
  readonly telemetry: ToolsTelemetry;
  /** The tools as `getTools()` returned them (what `executeTool` takes). */
  readonly registered: readonly WebMcpRegisteredTool[];
  /** The tools as declared, `inputSchema` parsed. */
  readonly declared: readonly WebMcpDeclaredTool[];
  /** `prepareToolCall` for a call the model made to `name` (the name it was offered). */
  prepare<A = unknown>(name: string, args: unknown): PreparedToolCall<A>;
  /** Prepares the call and, when the arguments fit, runs the page's tool with `modelContext.executeTool()`. */
  execute<A = unknown>(name: string, args: unknown, options?: { signal?: object }): Promise<WebMcpExecuted<A> | WebMcpNotExecuted>;
}

/**
 * For in-browser agents: `modelContext.getTools()` with every schema (an object, or JSON text as Chrome
 * returned it before webmcp#241) normalized for the agent's target, and the calls restored on the way back.
 * `modelContext` null or undefined: `document.modelContext`, else the deprecated `navigator.modelContext`.
 */
export declare function getTools(modelContext: WebMcpDiscovery | null | undefined, options: GetToolsOptions): Promise<WebMcpTools>;
