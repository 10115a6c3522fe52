// Types of toolschema/mcp. The MCP SDK's types are not imported (the package
// does not depend on it): the client is typed structurally, and the wrapped
// client keeps the caller's own type, with `listTools`, `callTool` and
// `toolschema` declared over it.
import type { ArgumentOptions, NormalizeOptions, PreparedToolCall, PreparedToolCallFailed, Route, TargetId, ToolReport, ToolsTelemetry } from "./index.js";

/** What `withToolSchema` needs of a client: the two methods of the SDK's `Client` it wraps. */
export interface McpClientLike {
  listTools(params?: any, options?: any): Promise<{ tools: McpTool[]; nextCursor?: string; [key: string]: unknown }>;
  callTool(params: { name: string; arguments?: { [key: string]: unknown }; [key: string]: unknown }, resultSchema?: any, options?: any): Promise<unknown>;
}

/** A tool as `tools/list` lists it; only `name` and `inputSchema` are read. */
export interface McpTool {
  name: string;
  inputSchema: { [keyword: string]: unknown };
  [key: string]: unknown;
}

/** `withToolSchema` options: the target (or a route for `targetFor`), the normalize options, and `emptyStrings` for the arguments. */
export type McpOptions = NormalizeOptions &
  Pick<ArgumentOptions, "emptyStrings"> &
  ({ target: TargetId; route?: undefined } | { route: Route; target?: undefined });

/** A call `callTool` refused: the arguments do not fit the tool's schema even after restoring and repairing. */
export interface RefusedToolCall {
  /** The message for the model, listing every error (as MCP servers report input their schema rejects). */
  content: [{ type: "text"; text: string }];
  isError: true;
  /** What `prepareToolCall` found. */
  toolschema: PreparedToolCallFailed;
}

type ListToolsResultOf<C extends McpClientLike> = Awaited<ReturnType<C["listTools"]>>;
type CallToolResultOf<C extends McpClientLike> = Awaited<ReturnType<C["callTool"]>>;

/** The wrapped client's additions, on its `toolschema` member. */
export interface McpToolSchema {
  /** The target the tools are normalized for. */
  readonly target: TargetId;
  /** What the latest `listTools` page's normalization did. */
  readonly telemetry: ToolsTelemetry | undefined;
  /** One tool's report, by the name the model is shown or its own. */
  report(name: string): ToolReport | undefined;
  /** The tool as the server declared it, by the name the model is shown or its own. */
  declared(name: string): McpTool | undefined;
  /** What `callTool` would do with these arguments, without calling; undefined for a tool the server does not list. */
  prepare(name: string, args: unknown): Promise<PreparedToolCall<{ [key: string]: unknown }> | undefined>;
}

/** The client with `listTools` normalizing and `callTool` restoring; every other member is the client's own. */
export type ToolSchemaMcpClient<C extends McpClientLike> = Omit<C, "listTools" | "callTool"> & {
  /** The server's tools with each `inputSchema` normalized for the target (deep-frozen), and what changed. */
  listTools(...args: Parameters<C["listTools"]>): Promise<ListToolsResultOf<C> & { readonly telemetry: ToolsTelemetry }>;
  /**
   * Calls the tool with the arguments restored, repaired and validated against the schema the server declared.
   * `arguments` may also be the JSON text a provider returned. A call that still does not fit is not sent:
   * the result is a `RefusedToolCall` (`isError: true`) with the message for the model.
   */
  callTool(params: { name: string; arguments?: unknown; [key: string]: unknown }, ...rest: Parameters<C["callTool"]> extends [any, ...infer R] ? R : []): Promise<CallToolResultOf<C> | RefusedToolCall>;
  /** The target, the reports, and the round trip on its own. */
  readonly toolschema: McpToolSchema;
};

/**
 * Wraps an MCP client (the `Client` of `@modelcontextprotocol/sdk`): `listTools()` returns schemas normalized for
 * `options.target` (or `targetFor(options.route)`), `callTool()` runs `prepareToolCall` against the server's own
 * schema before the call is sent. The client itself is not modified.
 */
export declare function withToolSchema<C extends McpClientLike>(client: C, options: McpOptions): ToolSchemaMcpClient<C>;
