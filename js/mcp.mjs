// toolschema/mcp: an MCP client (the `Client` of @modelcontextprotocol/sdk,
// or anything with its `listTools` and `callTool`) whose tool list is
// normalized for a model provider and whose tool calls are turned back into
// what the server declared before they are sent.
//
// The SDK is never imported: the client is taken as an argument and only
// those two methods are replaced, on a Proxy, so the caller's object is left
// as it was and every other member (connect, close, notifications, the
// experimental task API) is the client's own.
//
// The package's API comes in through its own name, not "./api.mjs": each
// runtime entry (node.mjs, workerd.mjs, ...) loads the wasm into its own copy
// of the API, chosen by the `exports` conditions, and a relative import would
// reach a copy no entry has loaded.
import { ToolSchemaError, normalizeTools, prepareToolCall, targetFor } from "toolschema";
import { objectOptions, splitOptions } from "./wrap-options.mjs";

/**
 * Wraps an MCP client. `options`: `target` (a target id) or `route` (what
 * `targetFor` takes), the `normalize` options, and `emptyStrings` for the
 * argument round trip. Returns a Proxy of `client` whose `listTools()`
 * answers with the normalized tools and `telemetry` (what `normalizeTools`
 * did), and whose `callTool()` runs `prepareToolCall` against the schema the
 * server declared before sending the call.
 */
export function withToolSchema(client, options) {
  if (typeof client?.listTools !== "function" || typeof client?.callTool !== "function") {
    throw new ToolSchemaError("invalid-options", "", "withToolSchema needs an MCP client: an object with listTools() and callTool() (the Client of @modelcontextprotocol/sdk)");
  }
  const { target: id, route, ...rest } = objectOptions("withToolSchema", options);
  const { normalizeOptions, argumentOptions } = splitOptions("withToolSchema", id, route, rest);
  const target = id ?? targetFor(route);
  // Bad options fail here, not at the first listTools.
  normalizeTools([], { target, ...normalizeOptions });
  // What the server declared, by the name the model is shown (and by its own
  // name, when the provider needed another): filled by listTools, page by page.
  const declared = new Map();
  let telemetry;

  const listTools = async (params, requestOptions) => {
    const result = await client.listTools(params, requestOptions);
    if (params?.cursor === undefined) declared.clear();
    // The tools as the wire has them: MCP messages are JSON, but an
    // in-process transport (the SDK's InMemoryTransport) hands over the
    // server's objects, `title: undefined` and all, which the normalizer
    // refuses as no JSON value.
    const listed = JSON.parse(JSON.stringify(result.tools));
    const { tools, telemetry: pageTelemetry } = normalizeTools(listed, { target, ...normalizeOptions });
    tools.forEach((tool, i) => {
      const entry = { tool: listed[i], report: pageTelemetry.tools[i] };
      declared.set(listed[i].name, entry);
      declared.set(tool.name, entry);
    });
    telemetry = pageTelemetry;
    return { ...result, tools, telemetry: pageTelemetry };
  };

  // The tool as the server declared it; a name not seen in a listTools page is
  // looked up once by listing every page (a client may call a tool whose name
  // the model got elsewhere).
  const lookup = async (name, requestOptions) => {
    if (!declared.has(name)) {
      let cursor;
      do {
        const page = await listTools(cursor === undefined ? undefined : { cursor }, requestOptions);
        cursor = page.nextCursor;
      } while (cursor !== undefined && !declared.has(name));
    }
    return declared.get(name);
  };

  const prepare = async (name, args, requestOptions) => {
    const entry = await lookup(name, requestOptions);
    if (entry === undefined) return undefined;
    const prepared = prepareToolCall(args ?? {}, entry.tool, { target, ...argumentOptions });
    return { name: entry.tool.name, prepared };
  };

  const callTool = async (params, resultSchema, requestOptions) => {
    const found = await prepare(params.name, params.arguments, requestOptions);
    // A tool the server does not list: the call goes as it is, and the server
    // answers for it (its own "tool not found").
    if (found === undefined) return client.callTool(params, resultSchema, requestOptions);
    const { name, prepared } = found;
    if (!prepared.ok) {
      // Refused the way the SDK's McpServer refuses input its schema rejects:
      // a tool result with isError, so the model reads the message and can
      // call again (MCP spec, "Error Handling" of Tools: input validation
      // errors are tool execution errors, not protocol errors).
      return { content: [{ type: "text", text: prepared.message }], isError: true, toolschema: prepared };
    }
    return client.callTool({ ...params, name, arguments: prepared.args }, resultSchema, requestOptions);
  };

  const extras = {
    listTools,
    callTool,
    toolschema: Object.freeze({
      target,
      get telemetry() {
        return telemetry;
      },
      report: (name) => declared.get(name)?.report,
      declared: (name) => declared.get(name)?.tool,
      prepare: async (name, args) => (await prepare(name, args))?.prepared,
    }),
  };
  return new Proxy(client, {
    get(object, key) {
      if (Object.hasOwn(extras, key)) return extras[key];
      const value = Reflect.get(object, key, object);
      // The client's methods run on the client itself: the SDK keeps its state
      // in fields a Proxy would otherwise stand in front of.
      return typeof value === "function" ? value.bind(object) : value;
    },
    has: (object, key) => Object.hasOwn(extras, key) || Reflect.has(object, key),
  });
}
