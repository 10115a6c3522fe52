// A JSON value written as JSON.stringify(value, null, 2) writes it, line by
// line, with the lines each node spans, so that a diagnostic's JSON pointer
// (RFC 6901) can be shown as the lines of the node it names.

/** Escapes one reference token of a JSON pointer (RFC 6901 §3: `~` → `~0`, `/` → `~1`). */
export const escapeToken = (key) => String(key).replaceAll("~", "~0").replaceAll("/", "~1");

/**
 * `{lines, spans}`: `lines` joined with "\n" equal JSON.stringify(value, null, 2);
 * `spans` maps every node's pointer ("" for the root) to its `[first, last]`
 * line index, and `owner[i]` is the pointer of the innermost node line `i`
 * belongs to.
 */
export function jsonLines(value) {
  const lines = [];
  const owner = [];
  const spans = new Map();
  const push = (text, pointer) => {
    lines.push(text);
    owner.push(pointer);
  };
  const write = (v, pointer, indent, prefix, comma) => {
    const start = lines.length;
    const pad = "  ".repeat(indent);
    const entries = Array.isArray(v)
      ? v.map((item, i) => [String(i), item, ""])
      : v !== null && typeof v === "object"
        ? Object.keys(v).map((k) => [escapeToken(k), v[k], `${JSON.stringify(k)}: `])
        : null;
    if (entries === null || entries.length === 0) {
      const text = entries === null ? JSON.stringify(v) : Array.isArray(v) ? "[]" : "{}";
      push(`${pad}${prefix}${text}${comma}`, pointer);
    } else {
      const [open, close] = Array.isArray(v) ? ["[", "]"] : ["{", "}"];
      push(`${pad}${prefix}${open}`, pointer);
      entries.forEach(([token, item, key], i) => write(item, `${pointer}/${token}`, indent + 1, key, i < entries.length - 1 ? "," : ""));
      push(`${pad}${close}${comma}`, pointer);
    }
    spans.set(pointer, [start, lines.length - 1]);
  };
  write(value, "", 0, "", "");
  return { lines, spans, owner };
}

/**
 * The node `pointer` names in `spans`, or its nearest ancestor there:
 * `{pointer, span, exact}`. A diagnostic may point at a keyword the target
 * removed; its parent is what is left to show.
 */
export function nearestNode(spans, pointer) {
  let at = pointer;
  for (;;) {
    const span = spans.get(at);
    if (span !== undefined) return { pointer: at, span, exact: at === pointer };
    if (at === "") return undefined;
    at = at.slice(0, at.lastIndexOf("/"));
  }
}
