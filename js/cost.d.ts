// Types of the `toolschema/cost` subpath. Its tokenizer, gpt-tokenizer, is an
// optional peer dependency: without it `cost` and `countTokens` throw a
// ToolSchemaError with code "missing-dependency".
import type { NormalizeOptions, Problem, SchemaInput, TargetId } from "./index.js";

/** The tokenizer package the counts come from. */
export declare const TOKENIZER: "gpt-tokenizer";

/** The encoding counted: OpenAI's current models' (GPT-4o, GPT-4.1, GPT-5, o-series). */
export declare const ENCODING: "o200k_base";

/** One tool's definition (name, description, schema) as compact JSON. */
export interface ToolCost {
  /** Position in the list. */
  readonly index: number;
  /** The tool's name as sent (a target may rename it), or null for a lone schema. */
  readonly name: string | null;
  /** UTF-8 bytes. */
  readonly bytes: number;
  /** o200k_base tokens. */
  readonly tokens: number;
  /** The tool's schema could not be normalized and was sent as the empty object schema. */
  readonly error?: Problem;
}

/** A whole list (the JSON array of its tools) or a lone schema, and each tool. */
export interface ListCost {
  /** UTF-8 bytes of the list. */
  readonly bytes: number;
  /** o200k_base tokens of the list. */
  readonly tokens: number;
  /** Each tool, in list order (one entry for a lone schema). */
  readonly tools: readonly ToolCost[];
}

/** What one target receives. */
export interface TargetCost extends ListCost {
  readonly target: TargetId;
}

/** The result of `cost`: the input as given, then each target. */
export interface CostResult {
  readonly encoding: "o200k_base";
  readonly input: ListCost;
  readonly targets: readonly TargetCost[];
}

/** Options of `cost`: the targets, a progress callback, and the normalizer's options. */
export interface CostOptions extends NormalizeOptions {
  /** The targets to measure; default every target. */
  targets?: TargetId | readonly TargetId[];
  /** Called after each tool is measured, for long lists. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Bytes and o200k_base tokens of a JSON Schema or a tool list (any shape
 * `normalizeTools` reads), as given and as each target receives it, per tool
 * and for the list.
 */
export declare function cost(input: SchemaInput | readonly unknown[], options?: CostOptions): CostResult;

/** o200k_base tokens of `text`, special-token text counted as plain text. */
export declare function countTokens(text: string): number;
