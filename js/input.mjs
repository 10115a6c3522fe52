// Turns whatever the caller passed as a schema into the JSON text the core
// reads. Schema libraries are recognised by duck typing, never imported: the
// package has no runtime dependencies and must not pull a library in.
import { ToolSchemaError, escapeToken } from "./error.mjs";

/** JSON text for the core. Strings are taken to be JSON already: the core parses them once and reports `invalid-json` itself. */
export function toJsonText(value) {
  if (typeof value === "string") return value;
  const plain = fromLibrary(value);
  assertJsonValue(plain);
  return stringify(plain);
}

/** JSON.stringify of a value the walks found to be JSON data, at any depth. */
export function stringify(value) {
  try {
    return JSON.stringify(value);
  } catch (err) {
    // JSON.stringify recurses natively; only a stack overflow gets here once
    // a walk has passed the value.
    throw new ToolSchemaError("too-deep", "", `the schema is nested too deeply to serialize: ${err.message}`, { cause: err });
  }
}

// Standard JSON Schema asks for a dialect; the core's native one is 2020-12.
const DIALECT = "draft-2020-12";

function fromLibrary(value) {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return value;
  const standard = value["~standard"];
  // Standard JSON Schema (standardschema.dev/json-schema): Zod >= 4.2,
  // ArkType, Valibot through @valibot/to-json-schema's toStandardJsonSchema.
  // A tool's parameters are what the validator receives, hence `input`.
  if (typeof standard?.jsonSchema?.input === "function") {
    return convert(() => standard.jsonSchema.input({ target: DIALECT }), standard.vendor);
  }
  if (isZod4(value)) {
    // A Zod 4 instance without the Standard JSON Schema surface.
    if (typeof value.toJSONSchema === "function") {
      return convert(() => value.toJSONSchema({ io: "input", target: DIALECT }), "zod");
    }
    throw unsupported("a Zod 4 schema from a release before 4.2 cannot convert itself: pass z.toJSONSchema(schema, { io: \"input\" }) instead, or upgrade zod");
  }
  if (isZod3(value)) {
    throw unsupported("a Zod 3 schema cannot describe itself as JSON Schema: convert it first with zod-to-json-schema (zodToJsonSchema(schema)), or upgrade to Zod 4 and pass the schema as is");
  }
  if (typeof standard?.validate === "function") {
    const vendor = typeof standard.vendor === "string" ? standard.vendor : "Standard Schema";
    throw unsupported(`a ${vendor} schema that does not implement Standard JSON Schema: convert it to JSON Schema first (Valibot: toStandardJsonSchema or toJsonSchema from @valibot/to-json-schema)`);
  }
  // Anything else is taken as plain JSON. TypeBox schemas are: their Kind and
  // Optional markers are symbol keys, which serialization leaves out.
  // Serialized Zod internals (`_def`, a `~standard` without functions) are
  // plain data too; the core strips them.
  return value;
}

// Live instances are told from data that went through JSON by a method, not
// by their internals' keys alone: Zod 4 keeps them in `_zod` (with `run`),
// Zod 3 in `_def` (with `typeName`, and `safeParse` on the schema).
function isZod4(v) {
  return typeof v._zod?.run === "function";
}

function isZod3(v) {
  return typeof v.safeParse === "function" && typeof v._def?.typeName === "string";
}

function isLibraryInstance(v) {
  return typeof v["~standard"]?.validate === "function" || isZod4(v) || isZod3(v);
}

function convert(run, vendor) {
  try {
    return run();
  } catch (err) {
    throw unsupported(`the ${vendor ?? "schema library"} schema could not be converted to JSON Schema: ${err?.message ?? err}`, err);
  }
}

function unsupported(message, cause) {
  return new ToolSchemaError("unsupported-input", "", message, cause === undefined ? undefined : { cause });
}

/**
 * Rejects what JSON.stringify would silently change or throw on: cycles,
 * BigInt, functions, symbols, undefined, NaN and the infinities. Iterative, so
 * a deep schema cannot overflow the stack here; one visit per value.
 */
export function assertJsonValue(root) {
  const onPath = new Set(); // objects on the current path: meeting one again is a cycle; shared subtrees are fine
  const stack = [{ value: root, parent: null, key: "" }];
  while (stack.length > 0) {
    const frame = stack.pop();
    const value = frame.value;
    if (frame.leave) {
      onPath.delete(value);
      continue;
    }
    switch (typeof value) {
      case "string":
      case "boolean":
        continue;
      case "number":
        if (Number.isFinite(value)) continue;
        throw invalid(frame, `${value} is not a JSON number`);
      case "object":
        if (value === null) continue;
        break;
      case "function":
        throw invalid(frame, isLibraryInstance(value) ? nestedLibraryMessage : "a function is not a JSON value");
      default:
        throw invalid(frame, `${typeof value === "undefined" ? "undefined" : `a ${typeof value}`} is not a JSON value`);
    }
    if (typeof value.toJSON === "function") continue; // Date and friends serialize themselves
    if (onPath.has(value)) {
      throw new ToolSchemaError("cyclic-input", pointerOf(frame), `the schema refers to itself at ${pointerOf(frame) || "the root"}; JSON cannot express a cycle (use $ref)`);
    }
    if (frame.parent !== null && isLibraryInstance(value)) throw invalid(frame, nestedLibraryMessage);
    onPath.add(value);
    stack.push({ value, leave: true });
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], parent: frame, key: String(i) });
    } else {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: value[keys[i]], parent: frame, key: keys[i] });
    }
  }
}

const nestedLibraryMessage = "a schema-library instance nested inside a plain schema cannot be serialized: convert the whole schema with its library, or pass the library schema itself";

function invalid(frame, message) {
  const pointer = pointerOf(frame);
  return new ToolSchemaError("invalid-value", pointer, `${message} (at ${pointer || "the root"})`);
}

// Built only when reporting, by walking the parent links up.
function pointerOf(frame) {
  const tokens = [];
  for (let f = frame; f.parent !== null; f = f.parent) tokens.push(escapeToken(f.key));
  return tokens.length === 0 ? "" : "/" + tokens.reverse().join("/");
}
