// Public types of the toolschema package, for every entry (ESM and CommonJS).
// Hand-written and free of DOM and Node types, so a consumer compiled with
// `lib: ["es2022"]` and no `types` still type-checks.

/** A JSON Schema: an object, or the boolean schemas `true` / `false`. */
export type JsonSchema = { [keyword: string]: unknown } | boolean;

/**
 * What the functions accept as a schema: a JSON Schema object, JSON text, or
 * a schema-library instance (Zod 4, anything implementing Standard JSON Schema
 * such as ArkType or Valibot's `toStandardJsonSchema`, TypeBox).
 */
export type SchemaInput = JsonSchema | string | object;

/** A target id; `targets()` lists what this build knows. */
export type TargetId =
  | "openai"
  | "openai-strict"
  | "openai-responses"
  | "google"
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
  | (string & {});

/** Stable error codes (kebab-case): the core's, then the JS layer's own three, then "internal" for a bug. */
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
  | "internal";

/** Options the core understands; unknown keys are an `invalid-options` error. */
export interface NormalizeOptions {
  /** How stripped, human-meaningful keywords reach the description: "spill" (default) appends a `{pattern: "^a$", minimum: 0}` block, "paren" appends ` (pattern: ^a$)` inline, "none" only reports them. */
  spill?: "spill" | "paren" | "none";
  /** openai-strict only: "full" (default) sanitizes, enforces and checks, failing open; "sanitize" only strips what strict mode rejects. */
  strictStage?: "sanitize" | "full";
  /** openai-strict only: also strip `pattern`, `format` and numeric and array bounds, as OpenAI's first strict release (and fine-tuned models) require. Default false. */
  stripStrictConstraints?: boolean;
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
  code: string;
  /** JSON Pointer (RFC 6901) into the input schema; "" is the root. */
  pointer: string;
  /** What is wrong, for a person. */
  message: string;
}

/** One change the normalizer made. */
export interface Diagnostic extends Problem {
  /** True when the change loses meaning (a dropped keyword, a collapsed union). */
  lossy: boolean;
}

/** What `normalize` did to a schema. */
export interface Report {
  /** Every change, with where it happened. */
  diagnostics: Diagnostic[];
  /** How often each kind of rewrite ran, by name. */
  counters: { [name: string]: number };
  /** True when any diagnostic is lossy. */
  lossy: boolean;
}

/** The result of `normalize`. */
export interface Normalized {
  /** The schema to send to the provider. */
  schema: JsonSchema;
  /** openai-strict only: whether `schema` is a valid strict-mode schema. */
  strict?: boolean;
  /** openai-strict only, when `strict` is false: why strict mode could not express the schema. */
  strictError?: Problem;
  /** What changed. */
  report: Report;
}

/** `{strict, schema}` as provider call sites use it. */
export interface StrictResult {
  /** Send `strict: true` to the provider only when this is true. */
  strict: boolean;
  /** The schema to send. */
  schema: JsonSchema;
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
export declare function normalize(schema: SchemaInput, target: TargetId, options?: NormalizeOptions): Normalized;

/** Normalizes for `options.target` (default "mcp") and returns the schema. */
export declare function normalizeSchema(value: SchemaInput, options?: NormalizeSchemaOptions): JsonSchema;

/** Gemini, Vertex AI and Gemini CLI function declarations. */
export declare function normalizeSchemaForGoogle(value: SchemaInput): JsonSchema;

/** Claude models behind Cloud Code Assist (Antigravity, Gemini Code Assist). */
export declare function normalizeSchemaForCCA(value: SchemaInput): JsonSchema;

/** MCP tool inputSchemas before they enter a tool registry. */
export declare function normalizeSchemaForMCP(value: SchemaInput): JsonSchema;

/** The OpenAI Responses API family (non-strict). */
export declare function normalizeSchemaForOpenAIResponses(value: SchemaInput): JsonSchema;

/** Alias of `normalizeSchemaForOpenAIResponses`. */
export declare function sanitizeSchemaForOpenAIResponses(value: SchemaInput): JsonSchema;

/** OpenAI strict mode, first stage only: strips the keywords strict mode rejects. */
export declare function sanitizeSchemaForStrictMode(value: SchemaInput): JsonSchema;

/** The OpenAI strict-mode schema; throws ToolSchemaError ("strict-unrepresentable") when strict mode cannot express it. */
export declare function enforceStrictSchema(value: SchemaInput, options?: NormalizeOptions): JsonSchema;

/** Fail-open strict mode: `{strict: true, schema}` on success, else `{strict: false, schema}` with a non-strict schema. */
export declare function tryEnforceStrictSchema(value: SchemaInput, options?: NormalizeOptions): StrictResult;

/** For OpenAI call sites: strict when `strict` is true and no bypass (`options.noStrict`, PI_NO_STRICT) is on, failing open. */
export declare function adaptSchemaForStrict(schema: SchemaInput, strict: boolean, options?: AdaptOptions): StrictResult;

/** Per-tool outcome inside `ToolsTelemetry`. */
export interface ToolReport {
  /** Position in the list. */
  index: number;
  /** The tool's name, when it has one. */
  name: string | null;
  /** The tool's schema changed. */
  modified: boolean;
  /** `openai-strict`: whether this tool can be sent with `strict: true`. */
  strict?: boolean;
  /** `openai-strict`: why not. */
  strictError?: Problem;
  /** The schema could not be normalized; the tool got `{"type":"object","properties":{}}`. */
  error?: Problem;
  /** This tool's diagnostics and counters. */
  report: Report;
}

/** What `normalizeTools` did: counts, the lossy flag, and each tool's report. */
export interface ToolsTelemetry {
  /** Tools in the list. */
  toolsSeen: number;
  /** Tools whose schema changed. */
  toolsModified: number;
  /** Any tool's normalization was lossy or failed. */
  lossy: boolean;
  /** Summed over the tools; always has refsInlined, cyclesPreserved, refsUnresolved, sizeCoarsenings, maxInlineDepthReached, anyofRewrites, oneofRewrites, notDrops, emptyUnionDrops, unionCoexistenceSkipped. */
  counters: { [name: string]: number };
  /** One report per tool, in list order. */
  tools: ToolReport[];
}

/** Options of `normalizeTools`: the target plus the core options. */
export interface NormalizeToolsOptions extends NormalizeOptions {
  /** The target every tool is normalized for. */
  target: TargetId;
}

/** Normalizes every schema of a tool list (OpenAI, Responses, Anthropic, MCP, Gemini, or an MCP tools/list response), keeping its shape. */
export declare function normalizeTools<T>(tools: T, options: NormalizeToolsOptions): { tools: T; telemetry: ToolsTelemetry };

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
  | "branch-selected"
  | "root-unwrapped"
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

/** The result of `prepareToolCall`. */
export interface PreparedToolCall<A = unknown> {
  /** True when `args` fit the original schema: call the tool with them. */
  ok: boolean;
  /** The arguments restored and repaired (the text itself when it was not JSON). */
  args: A;
  /** What is still wrong; empty when ok. */
  errors: ArgumentError[];
  /** Every restoration and repair, with its pointer into the arguments. */
  report: Report;
  /** When not ok: one text listing every error, to return to the model as the tool result. */
  message?: string;
}

/** A tool in any provider's shape (MCP `inputSchema`, OpenAI `parameters` or `function.parameters`, Anthropic `input_schema`), or a schema. */
export type ToolLike = SchemaInput | { target?: TargetId; [key: string]: unknown };

/** Undoes what `target`'s normalization did to the argument shape; arguments that fit the original come back unchanged. */
export declare function restoreArguments<A = unknown>(args: ToolArguments, original: SchemaInput, target: TargetId, options?: ArgumentOptions): RewrittenArguments<A>;

/** Coercions the original schema alone justifies (numeric strings, "true"/"false", JSON text, a lone value for an array), each reported. */
export declare function repairArguments<A = unknown>(args: ToolArguments, original: SchemaInput, options?: ArgumentOptions): RewrittenArguments<A>;

/** Validates arguments against the original schema (JSON Schema 2020-12), with messages a model can act on. */
export declare function validateArguments(args: ToolArguments, original: SchemaInput, options?: ArgumentOptions): ArgumentValidation;

/** restore → repair → validate. The target is `options.target`, else `tool.target`, else "mcp". */
export declare function prepareToolCall<A = unknown>(args: ToolArguments, tool: ToolLike, options?: ArgumentOptions & { target?: TargetId }): PreparedToolCall<A>;

/** The targets this build knows. */
export declare function targets(): TargetInfo[];

/** The package version. */
export declare function version(): string;

/**
 * Loads the WebAssembly module. Node, Bun, Deno and Workers load it at import
 * and this resolves at once; in browsers the import loads it from next to the
 * package, and `init(source)` loads it from elsewhere (a URL string or object,
 * a fetch Response, bytes, or a compiled WebAssembly.Module).
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
