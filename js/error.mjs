// The one error class every failure of the package arrives as.

// The ESM entries and the CommonJS build each carry their own copy of this
// class, and a program can load both (an ESM app with a CJS dependency).
// A registry symbol brands instances so `instanceof` holds across the copies.
const BRAND = Symbol.for("toolschema.ToolSchemaError");

export class ToolSchemaError extends Error {
  /**
   * @param {string} code stable kebab-case code, e.g. "invalid-json"
   * @param {string} pointer JSON Pointer (RFC 6901) of the offending value; "" for the root
   * @param {string} message what went wrong, for a person
   * @param {{cause?: unknown}} [options]
   */
  constructor(code, pointer, message, options) {
    super(message, options);
    this.name = "ToolSchemaError";
    this.code = code;
    this.pointer = pointer;
  }

  static [Symbol.hasInstance](value) {
    if (this !== ToolSchemaError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === "object" && value !== null && value[BRAND] === true;
  }
}
Object.defineProperty(ToolSchemaError.prototype, BRAND, { value: true });

/** Builds the error from a core envelope's `{code, pointer, message}`. */
export function fromReport(error) {
  return new ToolSchemaError(String(error.code), String(error.pointer ?? ""), String(error.message));
}

/** Escapes one reference token of a JSON Pointer (RFC 6901 section 3). */
export function escapeToken(token) {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}
