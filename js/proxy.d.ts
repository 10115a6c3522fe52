// Types of toolschema/proxy. Request and Response are the Fetch API's; the
// declarations name them through the global scope, so a consumer needs a lib
// that has them ("dom", "webworker", @types/node 18+, or the Workers types).
import type { ArgumentOptions, NormalizeOptions, PreparedToolCall, Route, TargetId, ToolSchemaError, ToolsTelemetry } from "./index.js";

/** The endpoints whose tools are rewritten: Chat Completions and Responses. */
export type ProxyApi = "chat" | "responses";

/** What `onToolCall` hears about one tool call. */
export type ToolCallEvent = { api: ProxyApi; target: TargetId; name: string } & ({ result: PreparedToolCall; error?: undefined } | { error: ToolSchemaError; result?: undefined });

/** `createProxy` options. */
export type ProxyOptions = NormalizeOptions &
  Pick<ArgumentOptions, "emptyStrings"> &
  ({ target: TargetId; route?: undefined } | { route: Route; target?: undefined }) & {
    /** The base URL of the OpenAI-compatible endpoint; a request's path and query are appended to its path. */
    upstream: string | URL;
    /** What reaches the upstream (default: the global `fetch`), e.g. a Workers service binding's `fetch`. */
    fetch?: (request: Request) => Promise<Response>;
    /** Called for each request whose tools were normalized. */
    onTools?: (event: { api: ProxyApi; target: TargetId; telemetry: ToolsTelemetry; request: Request }) => void;
    /**
     * Called for each tool call of an answer (`name` as the model called it) with what `prepareToolCall` found, or
     * the `ToolSchemaError` it threw (e.g. `too-deep`), in which case the call reaches the client as the model sent it.
     */
    onToolCall?: (event: ToolCallEvent) => void;
  };

/**
 * A fetch handler in front of an OpenAI-compatible endpoint: POST `.../chat/completions` and `.../responses` have
 * their function tools normalized for the target and their answers' tool calls restored (JSON and SSE streams);
 * every other request is passed through. The answer carries `x-toolschema-target`.
 */
export declare function createProxy(options: ProxyOptions): (request: Request) => Promise<Response>;
