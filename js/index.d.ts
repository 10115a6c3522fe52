// Public types of the toolschema package, for every entry (ESM and CommonJS).
// Hand-written and free of DOM and Node types, so a consumer compiled with
// `lib: ["es2022"]` and no `types` still type-checks.
//
// The schema types are shaped to drop into the provider SDKs' parameter
// types without a cast (tests/js/sdk-types.test.mjs compiles that against
// `openai`, `@anthropic-ai/sdk` and `@google/genai`): a schema the package
// returns is an object (never a boolean schema), its keywords are
// `readonly` because results are deep-frozen, and a tool target's root
// declares `type: "object"`, which Anthropic's `Tool.InputSchema` requires.
// Gemini's `Schema` types `type` as the SDK's own `Type` enum, which no
// string literal is assignable to, so Gemini results declare no `type`.

/**
 * A JSON Schema object, as the package returns it: deep-frozen (copy it with
 * `structuredClone` before editing). Boolean schemas are accepted as input
 * (`SchemaInput`) but never returned.
 */
export interface JsonSchema {
  readonly [keyword: string]: unknown;
}

/** A tool's parameters as the tool targets return them: an object schema (`type: "object"` at the root). */
export interface ObjectSchema extends JsonSchema {
  /** Every tool target's root is an object. */
  readonly type: "object";
}

/**
 * What the functions accept as a schema: a JSON Schema object or boolean,
 * JSON text, or a schema-library instance (Zod 4, anything implementing
 * Standard JSON Schema such as ArkType or Valibot's `toStandardJsonSchema`,
 * TypeBox).
 */
export type SchemaInput = JsonSchema | boolean | string | object;

/** A target id, exactly as `targets()` lists them; a misspelt id does not type-check. */
export type TargetId =
  | "openai"
  | "openai-strict"
  | "openai-responses"
  | "google"
  | "gemini-openai"
  | "cca"
  | "mcp"
  | "llamacpp"
  | "xgrammar"
  | "llguidance"
  | "ollama"
  | "anthropic"
  | "anthropic-strict"
  | "bedrock"
  | "xai"
  | "moonshot"
  | "deepseek-strict"
  | "mistral"
  | "groq"
  | "openrouter"
  | "fireworks"
  | "webmcp"
  | "google-json";

/** Targets whose output is a tool's parameters with an object root (`ObjectSchema`). */
export type ObjectRootTargetId = Exclude<TargetId, "google" | "cca" | "llamacpp" | "xgrammar" | "llguidance">;

/**
 * The schema type `normalize` returns for `T`: `ObjectSchema` for the tool
 * targets; a plain `JsonSchema` for Gemini's `Schema` (see the note at the
 * top) and for the grammar backends, which keep a non-object root.
 */
export type SchemaFor<T extends TargetId> = T extends ObjectRootTargetId ? ObjectSchema : JsonSchema;

/** Stable error codes (kebab-case): the core's, then the JS layer's own, then "internal" for a bug. */
export type ErrorCode =
  | "invalid-json"
  | "not-a-schema"
  | "unknown-target"
  | "invalid-options"
  | "too-deep"
  | "too-large"
  | "unresolved-ref"
  | "strict-unrepresentable"
  | "cyclic-input"
  | "invalid-value"
  | "unsupported-input"
  | "wasm-load-failed"
  | "missing-dependency"
  | "webmcp-unavailable"
  | "internal";

/** Options the core understands; unknown keys are an `invalid-options` error. */
export interface NormalizeOptions {
  /** How stripped, human-meaningful keywords reach the description: "spill" (default) appends a `{pattern: "^a$", minimum: 0}` block, "paren" appends ` (pattern: ^a$)` inline, "none" only reports them. */
  spill?: "spill" | "paren" | "none";
  /** openai-strict only: "full" (default) sanitizes, enforces and checks, failing open; "sanitize" only strips what strict mode rejects. */
  strictStage?: "sanitize" | "full";
  /** openai-strict only: also strip `pattern`, `format` and numeric and array bounds, as OpenAI's first strict release (and fine-tuned models) require. Default false. */
  stripStrictConstraints?: boolean;
  /** Where the target cannot express an open map (openai-strict, deepseek-strict, anthropic-strict: every object closed; google, cca, gemini-openai: no `additionalProperties`; webmcp: only `false`): "entries" (default) sends it as an array of `{key, value}` entries (report `map-as-entries`), which `restoreArguments` turns back into the map; "keep" leaves it (strict fails open, Gemini drops the value schema). */
  openMaps?: "entries" | "keep";
  /** Where the target needs a type on every node (the strict targets, google, cca, gemini-openai): "json" (default) sends a value of any type (`{}`, `items: {}`, a node with only a description) as a string of its JSON text (report `any-as-json`), which `restoreArguments` parses back; "keep" leaves it (strict fails open, Gemini types it as a plain string). */
  anyValues?: "json" | "keep";
  /** Where the target has no `prefixItems` and encodes open maps (openai-strict, deepseek-strict: strict ignores it and rejects the array; google, cca, gemini-openai: no `prefixItems` in the `Schema`): "objects" (default) sends a tuple whose positions differ and are all required (`minItems` at least their number) as an object of its positions `"0"`, `"1"`, ... and, for the items after them, the list `"rest"` (report `tuple-as-object`), which `restoreArguments` turns back into the array; "keep" leaves it (strict fails open, Gemini widens it to any of the position schemas in any position). */
  tuples?: "objects" | "keep";
  /** Deepest JSON nesting accepted; deeper input fails with `too-deep`. Default 256. */
  maxDepth?: number;
  /** Most schema nodes `$ref` inlining may produce before the deepest inline is coarsened (default per target: 20,000; 1,500 for llamacpp); counted apart, also the most nodes copying keywords beside an `anyOf` into its branches may add (`any-of-collapsed` past it). */
  sizeBudget?: number;
  /** Most nested `$ref` expansions on one path before coarsening (default per target). */
  maxInlineDepth?: number;
  /** How often one recursive definition is expanded on a path before the cycle is cut, for targets that cannot express recursion. Default 1. */
  maxRecursion?: number;
  /** Make an unresolvable `$ref` an error instead of `{}` plus a lossy diagnostic. Default false. */
  strictUnresolvedRefs?: boolean;
  /** Extra keywords to strip on this call, for a model the target's rules do not cover. */
  stripKeywords?: string[];
  /** Shrink the output without changing its meaning, after the target's rules: drop `$comment` and keywords the target documents that it ignores (Gemini's `default`), and, where the target keeps `$ref`, move a subschema written out more than once into `$defs` when that saves tokens. Reported as notes (`ignored-keyword-dropped`, `subschema-hoisted`). Default false. */
  compact?: boolean;
  /** google only: "keep" (default) sends the constraints Gemini's `Schema` has fields for (bounds, lengths, `pattern`, item and property counts, `format` where Gemini allows it); "spill" strips them into the description, as the seed contract did. Cloud Code Assist always strips them. */
  googleConstraints?: "keep" | "spill";
}

/** `normalizeSchema` options: the core options plus the target. */
export interface NormalizeSchemaOptions extends NormalizeOptions {
  /** Target id; default "mcp". */
  target?: TargetId;
}

/** `adaptSchemaForStrict` options: the core options plus the strict bypass. */
export interface AdaptOptions extends NormalizeOptions {
  /** Never strict when true, whatever `strict` says; when absent the PI_NO_STRICT environment variable decides (1/true/yes/on). Use this in Workers and browsers, which have no environment. */
  noStrict?: boolean;
}

/** One violation or error location. */
export interface Problem {
  /** Stable kebab-case code. */
  readonly code: string;
  /** JSON Pointer (RFC 6901) into the input schema; "" is the root. */
  readonly pointer: string;
  /** What is wrong, for a person. */
  readonly message: string;
}

/** One change the normalizer made. */
export interface Diagnostic extends Problem {
  /** True when the change loses meaning (a dropped keyword, a collapsed union). */
  readonly lossy: boolean;
}

/** What `normalize` did to a schema (deep-frozen when `normalize` or `normalizeTools` returns it). */
export interface Report {
  /** Every change, with where it happened. */
  readonly diagnostics: readonly Diagnostic[];
  /** How often each kind of rewrite ran, by name. */
  readonly counters: { readonly [name: string]: number };
  /** True when any diagnostic is lossy. */
  readonly lossy: boolean;
}

/** The result of `normalize`: deep-frozen, and possibly the same object an earlier call returned. */
export interface Normalized<S extends JsonSchema = JsonSchema> {
  /** The schema to send to the provider. */
  readonly schema: S;
  /** Strict targets only: whether `schema` may be sent with `strict: true`. */
  readonly strict?: boolean;
  /** Strict targets only, when `strict` is false: why strict mode could not express the schema. */
  readonly strictError?: Problem;
  /** What changed. */
  readonly report: Report;
}

/** `{strict, schema}` as provider call sites use it; `schema` is deep-frozen. */
export interface StrictResult {
  /** Send `strict: true` to the provider only when this is true. */
  strict: boolean;
  /** The schema to send. */
  schema: ObjectSchema;
}

/** A target this build knows. */
export interface TargetInfo {
  /** The id to pass as `target`. */
  id: TargetId;
  /** What the target is for. */
  description: string;
  /** Where its rules come from (provider documentation or issue). */
  source: string;
  /** Grammar-constrained: results carry `strict`, and fail open to a non-strict target. */
  strict: boolean;
}

/** Every failure of the package is one of these; `code` is stable. */
export declare class ToolSchemaError extends Error {
  constructor(code: ErrorCode, pointer: string, message: string, options?: { cause?: unknown });
  /** Stable kebab-case code, e.g. "invalid-json"; "internal" is a bug. */
  readonly code: ErrorCode;
  /** JSON Pointer of the offending value; "" for the root or when it has no location. */
  readonly pointer: string;
}

/**
 * Normalizes `schema` for `target`; returns the schema, the strict verdict (openai-strict) and a report.
 * Results are deep-frozen and cached (see `configureCache`): copy one with `structuredClone` before editing it.
 */
export declare function normalize<T extends TargetId>(schema: SchemaInput, target: T, options?: NormalizeOptions): Normalized<SchemaFor<T>>;

/** Normalizes for `options.target` (default "mcp") and returns the schema (deep-frozen). */
export declare function normalizeSchema<T extends TargetId = "mcp">(value: SchemaInput, options?: NormalizeSchemaOptions & { target?: T }): SchemaFor<T>;

/** Gemini, Vertex AI and Gemini CLI function declarations (`parameters`). */
export declare function normalizeSchemaForGoogle(value: SchemaInput): JsonSchema;

/** Claude models behind Cloud Code Assist (Antigravity, Gemini Code Assist). */
export declare function normalizeSchemaForCCA(value: SchemaInput): JsonSchema;

/** MCP tool inputSchemas before they enter a tool registry. */
export declare function normalizeSchemaForMCP(value: SchemaInput): ObjectSchema;

/** The OpenAI Responses API family (non-strict). */
export declare function normalizeSchemaForOpenAIResponses(value: SchemaInput): ObjectSchema;

/** Alias of `normalizeSchemaForOpenAIResponses`. */
export declare function sanitizeSchemaForOpenAIResponses(value: SchemaInput): ObjectSchema;

/** OpenAI strict mode, first stage only: strips the keywords strict mode rejects. */
export declare function sanitizeSchemaForStrictMode(value: SchemaInput): ObjectSchema;

/** The OpenAI strict-mode schema; throws ToolSchemaError ("strict-unrepresentable") when strict mode cannot express it. */
export declare function enforceStrictSchema(value: SchemaInput, options?: NormalizeOptions): ObjectSchema;

/** Fail-open strict mode: `{strict: true, schema}` on success, else `{strict: false, schema}` with a non-strict schema. */
export declare function tryEnforceStrictSchema(value: SchemaInput, options?: NormalizeOptions): StrictResult;

/** For OpenAI call sites: strict when `strict` is true and no bypass (`options.noStrict`, PI_NO_STRICT) is on, failing open. */
export declare function adaptSchemaForStrict(schema: SchemaInput, strict: boolean, options?: AdaptOptions): StrictResult;

/** Per-tool outcome inside `ToolsTelemetry`. */
export interface ToolReport {
  /** Position in the list. */
  readonly index: number;
  /** The tool's name, when it has one. */
  readonly name: string | null;
  /** The tool's schema changed. */
  readonly modified: boolean;
  /** Strict targets: whether this tool can be sent with `strict: true`. */
  readonly strict?: boolean;
  /** Strict targets: why not. */
  readonly strictError?: Problem;
  /** The schema could not be normalized; the tool got `{"type":"object","properties":{}}`. */
  readonly error?: Problem;
  /** This tool's diagnostics and counters. */
  readonly report: Report;
}

/** What `normalizeTools` did: counts, the lossy flag, and each tool's report. */
export interface ToolsTelemetry {
  /** Tools in the list. */
  readonly toolsSeen: number;
  /** Tools whose schema changed. */
  readonly toolsModified: number;
  /** Any tool's normalization was lossy or failed. */
  readonly lossy: boolean;
  /** Summed over the tools; always has refsInlined, cyclesPreserved, refsUnresolved, sizeCoarsenings, maxInlineDepthReached, anyofRewrites, oneofRewrites, notDrops, emptyUnionDrops, unionCoexistenceSkipped. */
  readonly counters: { readonly [name: string]: number };
  /** One report per tool, in list order. */
  readonly tools: readonly ToolReport[];
}

/** Options of `normalizeTools`: the target plus the core options. */
export interface NormalizeToolsOptions extends NormalizeOptions {
  /** The target every tool is normalized for. */
  target: TargetId;
}

/**
 * Normalizes every schema of a tool list (OpenAI, Responses, Anthropic, MCP, Gemini, or an MCP tools/list response), keeping its shape.
 * `tools` keeps the input's type (not `readonly`) so that it passes straight to an SDK's `tools` parameter: every call
 * returns its own copy of the list and of each tool (SDKs such as @google/genai edit them in place), while the schemas
 * inside and the telemetry are deep-frozen and shared with earlier calls, like `normalize`'s results.
 */
export declare function normalizeTools<T>(tools: T, options: NormalizeToolsOptions): { readonly tools: T; readonly telemetry: ToolsTelemetry };

/** Options of `normalizeToolsJson`: those of `normalizeTools`, and a way to receive the telemetry. */
export interface NormalizeToolsJsonOptions extends NormalizeToolsOptions {
  /** Called once with what `normalizeTools` returns as `telemetry` (names sent under another name, strict flags, reports). */
  onTelemetry?: (telemetry: ToolsTelemetry) => void;
}

/**
 * `normalizeTools` for JSON text: a tool list or a whole request body (OpenAI Chat or Responses, Anthropic, Gemini,
 * an MCP tools/list response) in, compact JSON text of the same shape out, every tool normalized for `options.target`.
 * The rest of the body (the messages) is copied through without being read into the core. Throws a
 * `ToolSchemaError` (`invalid-json`, `not-a-schema`, `too-deep`, ...) for text it cannot read.
 */
export declare function normalizeToolsJson(text: string, options: NormalizeToolsJsonOptions): string;

/** What a call site knows when choosing a target; every field is optional. */
export interface Route {
  /** The provider or gateway, e.g. "anthropic", "google-gemini-cli", "openrouter", "amazon-bedrock", "ollama". */
  provider?: string;
  /** The model id, e.g. "claude-sonnet-4-5", "gemini-2.5-flash", "google/gemini-2.5-pro". */
  model?: string;
  /** The API, e.g. "chat", "responses". */
  api?: string;
  /** The call sends grammar-constrained (strict) tools. */
  strict?: boolean;
}

/** The target to use for a call, chosen from provider, model and API. */
export declare function targetFor(route: Route): TargetId;

/** WordPress: compiles an ability schema for "openai", "anthropic", "google" or "default"; structural-limit warnings are in the report. */
export declare function compileAbilitySchemaForAI(schema: SchemaInput, target: "openai" | "anthropic" | "google" | "default", options?: NormalizeOptions): Normalized;

/** WordPress authoring guidance: oneOf where anyOf would do, missing additionalProperties, draft-03 required, readonly casing. */
export declare function lintSchema(schema: SchemaInput): Problem[];

/** What `target` would reject in `schema`; an empty array when it accepts it. */
export declare function checkSchema(schema: SchemaInput, target: TargetId): Problem[];

/** Options of `restoreArguments`, `repairArguments`, `validateArguments` and `prepareToolCall`. */
export interface ArgumentOptions {
  /** Also treat `""` in an optional field as absent and remove it (default false). */
  emptyStrings?: boolean;
  /** Deepest nesting accepted in the arguments and the schema (default 256). */
  maxDepth?: number;
  /** The options the schema was normalized with (they decide, e.g., whether a scalar root was wrapped). */
  normalize?: NormalizeOptions;
}

/** Arguments a model may send: an object, or the JSON text of one (a provider's `arguments` field). */
export type ToolArguments = unknown;

/** Codes of argument rewrites (`report.diagnostics[].code`, pointers into the arguments). */
export type ArgumentRewriteCode =
  | "null-removed"
  | "null-restored"
  | "empty-string-removed"
  | "enum-restored"
  | "single-value-restored"
  | "branch-selected"
  | "root-unwrapped"
  | "map-from-entries"
  | "tuple-from-object"
  | "any-decoded"
  | "any-not-json"
  | "duplicate-key"
  | "number-parsed"
  | "boolean-parsed"
  | "json-parsed"
  | "wrapped-in-array"
  | "pattern-unchecked";

/** Arguments after `restoreArguments` or `repairArguments`, and what changed. */
export interface RewrittenArguments<A = unknown> {
  /** The arguments, rewritten only where they did not fit the original. */
  args: A;
  /** Every rewrite, with its JSON pointer into the arguments. */
  report: Report;
}

/** One way the arguments miss the original schema. */
export interface ArgumentError {
  /** JSON Pointer into the arguments; "" is the whole object. */
  pointer: string;
  /** The keyword that failed: "type", "required", "minimum", ... ("json" when the text is not JSON). */
  keyword: string;
  /** JSON Pointer into the original schema (as upgraded to 2020-12). */
  schemaPointer: string;
  /** What is wrong and what to send instead, written for the model: "`limit` must be an integer ≥ 1; you sent \"10\"". */
  message: string;
}

/** The result of `validateArguments`. */
export interface ArgumentValidation {
  /** True when the original schema accepts the arguments. */
  valid: boolean;
  /** Every way it does not, each with a message for the model. */
  errors: ArgumentError[];
  /** Schema pointers of patterns that were not checked (lookaround or backreferences). */
  unchecked: string[];
}

/** `prepareToolCall` when the arguments fit: call the tool with `args`. */
export interface PreparedToolCallOk<A = unknown> {
  /** The arguments fit the original schema. */
  ok: true;
  /** The arguments restored and repaired. */
  args: A;
  /** Empty. */
  errors: ArgumentError[];
  /** Every restoration and repair, with its pointer into the arguments. */
  report: Report;
  /** Absent when ok. */
  message?: undefined;
}

/** `prepareToolCall` when the arguments do not fit: return `message` to the model as the tool result. */
export interface PreparedToolCallFailed {
  /** The arguments do not fit the original schema. */
  ok: false;
  /** The arguments as far as they were restored and repaired (the text itself when it was not JSON). */
  args: unknown;
  /** What is still wrong, at least one. */
  errors: ArgumentError[];
  /** Every restoration and repair, with its pointer into the arguments. */
  report: Report;
  /** One text listing every error, written for the model. */
  message: string;
}

/** The result of `prepareToolCall`: narrow on `ok`. */
export type PreparedToolCall<A = unknown> = PreparedToolCallOk<A> | PreparedToolCallFailed;

/** A tool in any provider's shape (MCP `inputSchema`, OpenAI `parameters` or `function.parameters`, Anthropic `input_schema`), or a schema. */
export type ToolLike = SchemaInput | { target?: TargetId; [key: string]: unknown };

/** Undoes what `target`'s normalization did to the argument shape; arguments that fit the original come back unchanged. */
export declare function restoreArguments<A = unknown>(args: ToolArguments, original: SchemaInput, target: TargetId, options?: ArgumentOptions): RewrittenArguments<A>;

/** Coercions the original schema alone justifies (numeric strings, "true"/"false", JSON text, a lone value for an array), each reported. */
export declare function repairArguments<A = unknown>(args: ToolArguments, original: SchemaInput, options?: ArgumentOptions): RewrittenArguments<A>;

/** Validates arguments against the original schema (JSON Schema 2020-12), with messages a model can act on. */
export declare function validateArguments(args: ToolArguments, original: SchemaInput, options?: ArgumentOptions): ArgumentValidation;

/**
 * restore → repair → validate. `tool` is the tool as its server declared it (or that original schema), never the
 * normalized copy: the normalized schema accepts what the target introduced (strict mode's nulls), so with it the
 * call is `ok` and those stay in `args`. The target is `options.target`, else `tool.target`, else "mcp".
 */
export declare function prepareToolCall<A = unknown>(args: ToolArguments, tool: ToolLike, options?: ArgumentOptions & { target?: TargetId }): PreparedToolCall<A>;

/** The targets this build knows. */
export declare function targets(): TargetInfo[];

/** The package version. */
export declare function version(): string;

/**
 * Loads the WebAssembly module. Node, Bun, Deno and Workers load it at import
 * and this resolves at once; in browsers the import loads it from next to the
 * package, and `init(source)` loads it from elsewhere (a URL string or object,
 * a fetch Response, bytes, or a compiled WebAssembly.Module). A load that
 * fails rejects with a `ToolSchemaError` whose code is "wasm-load-failed".
 */
export declare function init(source?: string | object): Promise<void>;

/** Size and hit counters of the result cache. */
export interface CacheStats {
  /** Calls answered for the same schema object, verified unchanged since it was cached. */
  identityHits: number;
  /** Calls answered for a different object (or string) with identical JSON. */
  contentHits: number;
  /** Calls that ran the normalizer. */
  misses: number;
  /** Cached results now held. */
  entries: number;
  /** Length of the JSON text of the cached inputs. */
  bytes: number;
  /** Current bound on `entries`. */
  maxEntries: number;
  /** Current bound on `bytes`. */
  maxBytes: number;
}

/**
 * Bounds the result cache (least recently used results go first); omitted fields are unchanged.
 * Defaults: 512 entries, 4 MiB of input JSON (the heap held is about 8 times that). `maxEntries: 0` turns caching off.
 * A cached result is only ever returned for input whose JSON is identical, including a schema
 * object mutated in place after it was cached, which is normalized again.
 */
export declare function configureCache(options: { maxEntries?: number; maxBytes?: number }): void;

/** Drops every cached result and resets the counters. */
export declare function clearCache(): void;

/** The cache's counters and size. */
export declare function cacheStats(): CacheStats;

// Tool names, Gemini's groups and list sizes in `normalizeTools`, and the tool
// a model called in the round trip (merged into the declarations above).

export interface ToolReport {
  /** Where the tool sits in the list (JSON Pointer); Gemini's groups nest it. */
  pointer: string;
  /** The name the tool is sent under, when the target's provider refuses `name`. */
  providerName?: string;
}

export interface ToolsTelemetry {
  /** `{providerName: originalName}` for every tool sent under another name. */
  names: { [providerName: string]: string };
  /** Findings about the list as a whole ("tool-name-rewritten", "tool-list-too-large"), pointers into the list. */
  diagnostics: Diagnostic[];
  /** `llamacpp` and `ollama`: the tools' size as compact JSON. */
  listSize?: ToolListSize;
}

/** The combined size of a tool list, and what to leave out past the target's ceiling. */
export interface ToolListSize {
  /** Bytes of the output tools as compact JSON. */
  bytes: number;
  /** The size past which the backend fails (`llamacpp`: llama.cpp's tool grammar). */
  limit?: number;
  /** Past `limit`: the fewest tools, largest first, whose removal fits it (indices into `telemetry.tools`). */
  drop: number[];
}

export interface ArgumentOptions {
  /** `restoreArguments`/`prepareToolCall`: the tool name the model called; the original is then the tool list sent. */
  name?: string;
}

/** The tool `options.name` found. */
export interface CalledTool {
  /** Its index among the list's tools. */
  index: number;
  /** Where it sits in the list (JSON Pointer). */
  pointer: string;
  /** Its original name: the one to call it by. */
  name: string | null;
}

export interface RewrittenArguments<A = unknown> {
  /** With `options.name`: the tool called. */
  tool?: CalledTool;
}

export interface PreparedToolCallOk<A = unknown> {
  /** With `options.name`: the tool called. */
  tool?: CalledTool;
}

export interface PreparedToolCallFailed {
  /** With `options.name`: the tool called (absent when no tool has the name). */
  tool?: CalledTool;
}
