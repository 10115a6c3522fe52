//! An answer that names what did not change instead of writing it again.
//!
//! The object API hands the core `JSON.stringify` of a schema object and
//! builds the result in JavaScript. Most of a normalized schema is often
//! what came in (on the real MCP schemas, about half of Google's output and
//! three quarters of MCP's and OpenAI Responses' are unchanged objects), and
//! parsing that text back costs more than copying the caller's objects. So
//! the schema can be written with every array or object that is equal to
//! the input's value at the same place replaced by [`SAME`], and the
//! JavaScript side (js/share.mjs) copies those values from the input.
//!
//! Equal means written as the same bytes: the value as [`Value::write_json`]
//! writes it, and the input's text at the same place (member key and array
//! index, from the root). Then both parse to the same value. A value whose
//! text differs only in how it is written (an escape, a number's form) is
//! written out, which costs only time.
//!
//! The input is read beside the value, never parsed into values. A
//! container is first compared with its counterpart (`same`), which stops at
//! the first difference and notes where it was (`Differs`); the writing then
//! starts there, without comparing again what was found equal. Past it, a
//! member is looked for at or after the last one found, and once one is not
//! there, the object's remaining members are written without looking. So each
//! byte of the input is compared or stepped over once, and what is equal is
//! never written: the work stays linear in the value and the input.
use super::write::{escape, skip_plain, specials, word8};
use super::{Key, Map, Value};

/// What stands for "the input's value at this place": a JSON string no
/// answer holds otherwise ([`write_sharing`] checks).
pub const SAME: &str = "\"\\u0000\"";

/// Writes `value`, the result of normalizing the JSON text `input`, to
/// `out`, with containers equal to the input's at the same place as
/// [`SAME`]. Returns false, having written nothing, when the value holds a
/// string equal to the one `SAME` stands for.
pub fn write_sharing(value: &Value, input: &str, out: &mut String) -> bool {
    let start = out.len();
    let mut w = Sharing { src: input.as_bytes(), literal: false, differs: Vec::new(), scratch: String::new() };
    let at = w.ws(0);
    w.write(value, Some(at), out);
    if w.literal {
        out.truncate(start);
        return false;
    }
    true
}

/// Writes `value`, which equals the input's value at every place, to `out`
/// with marks and without reading the input: the mark alone when nothing
/// was taken from it, else (the root's members the input had beside these
/// were `stripped`) its members, each that `write_sharing` would mark as
/// [`SAME`]. The value of a schema given back as it came
/// (`crate::untouched`), whose equality with the input is known without
/// comparing the text. Where every value equals the input's at its place,
/// a string written as the one `SAME` stands for is read back as the
/// input's value there, which is that string: no answer is refused for it,
/// as `write_sharing` refuses one.
pub fn write_unchanged(value: &Value, stripped: bool, out: &mut String) {
    let Value::Object(m) = value else {
        value.write_json(out);
        return;
    };
    if !stripped && marked(value) {
        out.push_str(SAME);
        return;
    }
    out.push('{');
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        super::write::write_key(k, out);
        if marked(v) {
            out.push_str(SAME);
        } else {
            v.write_json(out);
        }
    }
    out.push('}');
}

fn is_container(v: &Value) -> bool {
    matches!(v, Value::Object(_) | Value::Array(_))
}

/// Whether a value equal to the input's is written as the mark: a
/// container, unless empty (`{}` and `[]` are shorter than the mark).
fn marked(v: &Value) -> bool {
    match v {
        Value::Object(m) => !m.is_empty(),
        Value::Array(items) => !items.is_empty(),
        _ => false,
    }
}

/// Where a container first differs from its input counterpart of the same
/// kind, as `same` found it.
#[derive(Clone, Copy)]
struct Differs {
    /// The member's or item's index; those before it are equal.
    index: usize,
    /// Where it is in the input: its value when `inside`, else its key (an
    /// item's value), or the closing bracket when the input has no more.
    pos: usize,
    /// Its key is where the input has it, and its value differs.
    inside: bool,
}

struct Sharing<'a> {
    /// The input text, valid JSON (it parsed).
    src: &'a [u8],
    /// A string value equal to the one `SAME` stands for was written.
    literal: bool,
    /// Pushed by `same` as it leaves each container that differs, innermost
    /// first, and taken by `write_differing` outermost first.
    differs: Vec<Differs>,
    /// A value's text, for comparing one that is not written as it is held.
    scratch: String,
}

impl Sharing<'_> {
    /// Writes `v`, whose input counterpart starts at `at` (none where it is
    /// not looked for), and answers where the counterpart ends (0 without one).
    fn write(&mut self, v: &Value, at: Option<usize>, out: &mut String) -> usize {
        let Some(at) = at else {
            self.write_plain(v, out);
            return 0;
        };
        if !is_container(v) {
            self.write_plain(v, out);
            // An equal value's end comes with the comparison.
            return self.same(v, at).unwrap_or_else(|| self.value_end(at));
        }
        match self.same(v, at) {
            Some(end) => {
                self.write_equal(v, out);
                end
            }
            None => self.write_differing(v, at, out),
        }
    }

    /// Writes a container that differs from its counterpart at `at`, from
    /// the place `same` noted; answers where the counterpart ends.
    fn write_differing(&mut self, v: &Value, at: usize, out: &mut String) -> usize {
        let open = if matches!(v, Value::Object(_)) { b'{' } else { b'[' };
        // Of another kind, `same` noted nothing.
        let noted = if self.src[at] == open { self.differs.pop() } else { None };
        match (v, noted) {
            (Value::Object(m), Some(d)) => self.object_from(m, d, out),
            (Value::Array(items), Some(d)) => self.array_from(items, d, out),
            _ => {
                self.write_plain(v, out);
                self.value_end(at)
            }
        }
    }

    fn object_from(&mut self, m: &Map, d: Differs, out: &mut String) -> usize {
        out.push('{');
        let mut cursor = d.pos;
        // Where the input object ends, once a search has failed.
        let mut end = None;
        for (i, (k, v)) in m.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_key(k, out);
            out.push(':');
            if self.write_noted(i, v, d, &mut cursor, out) {
                continue;
            }
            let child = match end {
                Some(_) => None,
                None => match self.find(cursor, k) {
                    Ok(value) => Some(value),
                    Err(e) => {
                        end = Some(e);
                        None
                    }
                },
            };
            let child_end = self.write(v, child, out);
            if child.is_some() {
                cursor = self.after_item(child_end);
            }
        }
        out.push('}');
        end.unwrap_or_else(|| self.object_end(cursor))
    }

    fn array_from(&mut self, items: &[Value], d: Differs, out: &mut String) -> usize {
        out.push('[');
        let mut cursor = d.pos;
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if self.write_noted(i, item, d, &mut cursor, out) {
                continue;
            }
            // Past the input's last item, nothing is looked for.
            let child = (self.src[cursor] != b']').then_some(cursor);
            let child_end = self.write(item, child, out);
            if child.is_some() {
                cursor = self.after_item(child_end);
            }
        }
        out.push(']');
        while self.src[cursor] != b']' {
            cursor = self.after_item(self.value_end(cursor));
        }
        cursor + 1
    }

    /// Member or item `i` when `same` already compared it (those before the
    /// one noted, and the one noted when its value differs); false for the
    /// others. Moves `cursor` past the noted one. Inlined: as a call it cost
    /// 0.2% more wasm operators a pass.
    #[inline(always)]
    fn write_noted(&mut self, i: usize, v: &Value, d: Differs, cursor: &mut usize, out: &mut String) -> bool {
        if i < d.index {
            self.write_equal(v, out);
            return true;
        }
        if i == d.index && d.inside {
            let end = self.write_known(v, d.pos, out);
            *cursor = self.after_item(end);
            return true;
        }
        false
    }

    /// A member or item `same` found equal to its counterpart.
    fn write_equal(&mut self, v: &Value, out: &mut String) {
        if marked(v) {
            out.push_str(SAME);
        } else {
            self.write_plain(v, out);
        }
    }

    /// A member or item `same` found different from its counterpart at `at`.
    fn write_known(&mut self, v: &Value, at: usize, out: &mut String) -> usize {
        if is_container(v) {
            self.write_differing(v, at, out)
        } else {
            self.write_plain(v, out);
            self.value_end(at)
        }
    }

    /// `Value::write_json`, noting a string equal to the one `SAME` stands for.
    fn write_plain(&mut self, v: &Value, out: &mut String) {
        match v {
            Value::Object(m) => {
                out.push('{');
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_key(k, out);
                    out.push(':');
                    self.write_plain(v, out);
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    self.write_plain(v, out);
                }
                out.push(']');
            }
            Value::String(s) => {
                self.literal |= s == "\0";
                v.write_json(out);
            }
            scalar => scalar.write_json(out),
        }
    }

    /// Whether `v` is written as the input's value at `at` is: where that
    /// ends if so. A container that differs notes where (`Differs`) when its
    /// counterpart is of its kind.
    fn same(&mut self, v: &Value, at: usize) -> Option<usize> {
        match v {
            Value::Object(m) if self.src[at] == b'{' => self.same_entries(at, b'}', m.iter().map(|(k, v)| (Some(k), v))),
            Value::Array(items) if self.src[at] == b'[' => self.same_entries(at, b']', items.iter().map(|v| (None, v))),
            // Not the same kind: nothing to note.
            Value::Object(_) | Value::Array(_) => None,
            Value::String(s) => {
                if self.src[at] != b'"' {
                    return None;
                }
                self.text_at(at + 1, s).map(|end| end + 1)
            }
            scalar => {
                self.scratch.clear();
                scalar.write_json(&mut self.scratch);
                let end = at + self.scratch.len();
                // Equal text ends where the written text does: no digit,
                // sign, point or letter goes on.
                let continues = matches!(self.src.get(end), Some(b'0'..=b'9' | b'.' | b'+' | b'-' | b'a'..=b'z' | b'A'..=b'Z'));
                (self.src.get(at..end) == Some(self.scratch.as_bytes()) && !continues).then_some(end)
            }
        }
    }

    /// `same` for the members (with their keys) or items of a container
    /// whose counterpart at `at` is of its kind and closes with `close`.
    fn same_entries<'v>(&mut self, at: usize, close: u8, entries: impl ExactSizeIterator<Item = (Option<&'v Key>, &'v Value)>) -> Option<usize> {
        let n = entries.len();
        let mut cursor = self.ws(at + 1);
        for (i, (key, child)) in entries.enumerate() {
            let value = match key {
                Some(k) => self.key_at(cursor, k),
                None => (self.src[cursor] != close).then_some(cursor),
            };
            let Some(value) = value else {
                self.differs.push(Differs { index: i, pos: cursor, inside: false });
                return None;
            };
            let Some(end) = self.same(child, value) else {
                self.differs.push(Differs { index: i, pos: value, inside: true });
                return None;
            };
            cursor = self.after_item(end);
        }
        if self.src[cursor] != close {
            self.differs.push(Differs { index: n, pos: cursor, inside: false });
            return None;
        }
        Some(cursor + 1)
    }

    /// Whether the input at `at` (inside a string's quotes) holds `text` as
    /// the writer writes it, up to the closing quote: where that quote is.
    fn text_at(&mut self, at: usize, text: &str) -> Option<usize> {
        let b = text.as_bytes();
        let end = at + b.len();
        // What precedes the quote is a whole character or escape, so the
        // quote closes the string: when the text needs no escape, the input
        // holds it as it is.
        if self.src.get(end) == Some(&b'"') {
            match self.src.get(at..end).map(|raw| plain_equal(raw, b)) {
                Some(Some(equal)) => return equal.then_some(end),
                // Unequal as written, and the text needs escapes.
                Some(None) => {}
                None => return None,
            }
        } else if skip_plain(b, 0) == b.len() {
            return None;
        }
        self.scratch.clear();
        escape(text, &mut self.scratch);
        let end = at + self.scratch.len();
        (self.src.get(end) == Some(&b'"') && self.src.get(at..end).is_some_and(|raw| equal(raw, self.scratch.as_bytes()))).then_some(end)
    }

    /// The value of the input member at `at` when its key is `k`.
    fn key_at(&mut self, at: usize, k: &Key) -> Option<usize> {
        if self.src[at] != b'"' {
            return None;
        }
        let close = match k.keyword() {
            // No keyword's name holds a character JSON escapes.
            Some(keyword) => {
                let end = at + 1 + keyword.name.len();
                (self.src.get(end) == Some(&b'"') && self.src.get(at + 1..end).is_some_and(|raw| equal(raw, keyword.name.as_bytes()))).then_some(end)
            }
            None => self.text_at(at + 1, k),
        }?;
        Some(self.ws(self.ws(close + 1) + 1))
    }

    /// The input object's member with key `k`, looked for from `at` (a
    /// member's key or the closing brace): where its value starts; or, when
    /// there is none, where the object ends.
    fn find(&mut self, mut at: usize, k: &Key) -> Result<usize, usize> {
        loop {
            if self.src[at] == b'}' {
                return Err(at + 1);
            }
            if let Some(value) = self.key_at(at, k) {
                return Ok(value);
            }
            at = self.next_member(at);
        }
    }

    /// Where the input object ends, from `at` (a member's key or the
    /// closing brace).
    fn object_end(&self, mut at: usize) -> usize {
        while self.src[at] != b'}' {
            at = self.next_member(at);
        }
        at + 1
    }

    /// Past the input member whose key is at `at`.
    fn next_member(&self, at: usize) -> usize {
        let value = self.ws(self.ws(self.string_end(at)) + 1);
        self.after_item(self.value_end(value))
    }

    /// Past a value that ends at `at`: the next member or item, or the
    /// closing bracket.
    fn after_item(&self, at: usize) -> usize {
        let at = self.ws(at);
        if self.src[at] == b',' {
            self.ws(at + 1)
        } else {
            at
        }
    }

    fn ws(&self, mut at: usize) -> usize {
        while matches!(self.src.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            at += 1;
        }
        at
    }

    /// Where the string starting at `at` (its opening quote) ends.
    fn string_end(&self, at: usize) -> usize {
        let mut i = at + 1;
        loop {
            i = skip_plain(self.src, i);
            match self.src[i] {
                b'"' => return i + 1,
                // A `\u` escape's digits hold no quote or backslash.
                b'\\' => i += 2,
                _ => i += 1,
            }
        }
    }

    /// Where the value starting at `at` ends.
    fn value_end(&self, at: usize) -> usize {
        match self.src[at] {
            b'"' => self.string_end(at),
            b'{' | b'[' => {
                let mut depth = 0usize;
                let mut i = at;
                loop {
                    match self.src[i] {
                        b'"' => {
                            i = self.string_end(i);
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                return i + 1;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            _ => {
                let mut i = at;
                while !matches!(self.src.get(i), None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')) {
                    i += 1;
                }
                i
            }
        }
    }
}

/// Byte slices compared eight bytes at a time (the wasm build's `memcmp`
/// steps through one byte at a time).
fn equal(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (mut x, mut y) = (a.chunks_exact(8), b.chunks_exact(8));
    for (p, q) in (&mut x).zip(&mut y) {
        if word8(p, 0) != word8(q, 0) {
            return false;
        }
    }
    x.remainder() == y.remainder()
}

/// Whether `raw` (input string text) is `text` (as long), in one pass where
/// they are equal: `Some` when `text` needs no escape, `None` when it does
/// (the caller then compares its escaped form).
fn plain_equal(raw: &[u8], text: &[u8]) -> Option<bool> {
    let (mut x, mut y) = (raw.chunks_exact(8), text.chunks_exact(8));
    let mut same = true;
    for (p, q) in (&mut x).zip(&mut y) {
        let (a, w) = (word8(p, 0), word8(q, 0));
        if a != w {
            same = false;
            break;
        }
        if specials(w) != 0 {
            return None;
        }
    }
    if same && x.remainder() == y.remainder() {
        return (skip_plain(y.remainder(), 0) == y.remainder().len()).then_some(true);
    }
    (skip_plain(text, 0) == text.len()).then_some(false)
}

/// A member's key as `Value::write_json` writes it, quotes included.
fn write_key(k: &Key, out: &mut String) {
    match k.keyword() {
        // `"name":` without its colon.
        Some(keyword) => out.push_str(&keyword.member[..keyword.member.len() - 1]),
        None => {
            out.push('"');
            escape(k, out);
            out.push('"');
        }
    }
}
