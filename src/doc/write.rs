//! A `Doc` to JSON text, in one pass and without recursion: byte for byte
//! what `serde_json::to_string` writes for the same value (compact, member
//! order kept, non-ASCII written as it is, serde_json's escapes).
use super::{Doc, Node, NodeId, Str};
use crate::error::{Error, Result};
use crate::pointer::Pointer;

impl Doc<'_> {
    /// The document as JSON text.
    pub fn to_json(&self) -> Result<String> {
        self.write(self.root)
    }

    /// The subtree at `id` as JSON text. Nesting deeper than the document's
    /// limit (edits can nest deeper than the input did, and a node made its
    /// own descendant never ends) is `Error::TooDeep` with its pointer.
    pub fn write(&self, id: NodeId) -> Result<String> {
        self.write_spliced(id, None)
    }

    /// `write`, with the subtree at `splice.0` written as the JSON text
    /// `splice.1` instead (text built elsewhere, such as a value serialized
    /// by serde_json), wherever it is reached.
    pub fn write_spliced(&self, id: NodeId, splice: Option<(NodeId, &str)>) -> Result<String> {
        let mut out = String::with_capacity(self.src.len() + self.text.len() + splice.map_or(0, |(_, t)| t.len()) + 16);
        // (container, next child) per open level.
        let mut stack: Vec<(NodeId, u32)> = Vec::new();
        let mut next = Some(id);
        loop {
            if let Some(id) = next.take() {
                match self.node(id) {
                    _ if splice.is_some_and(|(at, _)| at == id) => out.push_str(splice.map_or("", |(_, text)| text)),
                    Node::Null => out.push_str("null"),
                    Node::Bool(true) => out.push_str("true"),
                    Node::Bool(false) => out.push_str("false"),
                    Node::Number(s) => self.write_number(s, &mut out),
                    Node::String(s) => self.string(s, &mut out),
                    Node::Array(r) | Node::Object(r) => {
                        if stack.len() >= self.max_depth {
                            return Err(Error::TooDeep { pointer: self.stack_pointer(&stack), limit: self.max_depth });
                        }
                        let object = matches!(self.node(id), Node::Object(_));
                        if r.len == 0 {
                            out.push_str(if object { "{}" } else { "[]" });
                        } else {
                            out.push(if object { '{' } else { '[' });
                            stack.push((id, 0));
                        }
                    }
                }
            }
            let Some((container, i)) = stack.last_mut() else { return Ok(out) };
            let at = *i as usize;
            *i += 1;
            match self.node(*container) {
                Node::Array(r) if at < r.len as usize => {
                    if at > 0 {
                        out.push(',');
                    }
                    next = Some(self.items[r.start as usize + at]);
                }
                Node::Object(r) if at < r.len as usize => {
                    if at > 0 {
                        out.push(',');
                    }
                    let m = self.members[r.start as usize + at];
                    self.string(m.key, &mut out);
                    out.push(':');
                    next = Some(m.value);
                }
                Node::Array(_) => {
                    out.push(']');
                    stack.pop();
                }
                _ => {
                    out.push('}');
                    stack.pop();
                }
            }
        }
    }

    /// The pointer of the node the writer is about to open.
    fn stack_pointer(&self, stack: &[(NodeId, u32)]) -> Pointer {
        let mut p = Pointer::root();
        for &(node, next) in stack {
            // `next` has moved past the child being written.
            let at = next as usize - 1;
            match self.node(node) {
                Node::Array(_) => p.push_index(at),
                _ => p.push(self.text(self.members(node)[at].key)),
            }
        }
        p
    }

    fn string(&self, s: Str, out: &mut String) {
        out.push('"');
        let raw = self.raw(s);
        if s.escaped() {
            transcode(raw, out);
        } else if s.owned() {
            escape(raw, out);
        } else {
            // An input span without escapes has no quote, backslash or
            // control byte: it is already what serde_json writes.
            out.push_str(raw);
        }
        out.push('"');
    }
}

/// An input string span's escapes undone.
pub(super) fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    each_piece(raw, |piece| match piece {
        Piece::Text(t) => out.push_str(t),
        Piece::Char(c) => out.push(c),
    });
    out
}

/// An input string span with escapes, rewritten with serde_json's escapes.
fn transcode(raw: &str, out: &mut String) {
    each_piece(raw, |piece| match piece {
        Piece::Text(t) => out.push_str(t),
        Piece::Char(c) => escape_char(c, out),
    });
}

/// A member's key and the colon after it, as JSON.
#[inline]
pub(super) fn write_key(k: &super::Key, out: &mut String) {
    match k.keyword() {
        // No keyword's name holds a character JSON escapes.
        Some(keyword) => out.push_str(keyword.member),
        None => {
            out.push('"');
            escape(k, out);
            out.push_str("\":");
        }
    }
}

/// Unescaped text written with serde_json's escapes: `\"`, `\\`, the short
/// forms `\b \t \n \f \r`, `\u00xx` for the other control bytes. The
/// runs between them are found eight bytes at a time (`skip_plain`):
/// serde_json's writer steps through every byte, and a schema's text is
/// mostly descriptions.
pub(super) fn escape(text: &str, out: &mut String) {
    let b = text.as_bytes();
    let mut from = 0;
    loop {
        let at = skip_plain(b, from);
        // Every byte that ends a run is ASCII, so `at` is a char boundary.
        out.push_str(&text[from..at]);
        let Some(&c) = b.get(at) else { return };
        escape_char(c as char, out);
        from = at + 1;
    }
}

impl super::Value {
    /// The value as compact JSON text, appended to `out`: byte for byte what
    /// `serde_json::to_string` writes for it (tests/doc.rs), with string
    /// escapes found eight bytes at a time.
    pub fn write_json(&self, out: &mut String) {
        use super::Value;
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => WriteJson::write_json(b, out),
            Value::Number(n) => {
                // serde_json writes a number as its `Display` does: itoa, or
                // ryu for a (always finite) float.
                let _ = std::fmt::Write::write_fmt(out, format_args!("{n}"));
            }
            Value::String(text) => WriteJson::write_json(text.as_str(), out),
            Value::Array(items) => WriteJson::write_json(items.as_slice(), out),
            Value::Object(m) => {
                out.push('{');
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_key(k, out);
                    v.write_json(out);
                }
                out.push('}');
            }
        }
    }
}

impl super::Value {
    /// The value as JSON text indented by two spaces per level, as
    /// `serde_json::to_string_pretty` writes it (`{:#}`).
    pub fn write_pretty(&self, out: &mut String, indent: usize) {
        use super::Value;
        let newline = |out: &mut String, level: usize| {
            out.push('\n');
            for _ in 0..level {
                out.push_str("  ");
            }
        };
        match self {
            Value::Array(items) if !items.is_empty() => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    newline(out, indent + 1);
                    item.write_pretty(out, indent + 1);
                }
                newline(out, indent);
                out.push(']');
            }
            Value::Object(m) if !m.is_empty() => {
                out.push('{');
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    newline(out, indent + 1);
                    out.push('"');
                    escape(k, out);
                    out.push_str("\": ");
                    v.write_pretty(out, indent + 1);
                }
                newline(out, indent);
                out.push('}');
            }
            scalar_or_empty => scalar_or_empty.write_json(out),
        }
    }
}

/// What the JSON entry points answer with (reports, telemetry, the round
/// trip's results), written as compact JSON text: byte for byte what
/// `serde_json::to_string` writes for the type's derived `Serialize`, which
/// the Rust API keeps (tests/answers.rs holds the two equal). Structs get
/// theirs from `write_json_struct!`.
pub trait WriteJson {
    fn write_json(&self, out: &mut String);

    /// The text on its own.
    fn to_json_text(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }
}

impl WriteJson for super::Value {
    fn write_json(&self, out: &mut String) {
        super::Value::write_json(self, out);
    }
}

impl WriteJson for bool {
    fn write_json(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" });
    }
}

macro_rules! write_json_integers {
    ($($t:ty)*) => {$(
        impl WriteJson for $t {
            fn write_json(&self, out: &mut String) {
                let _ = std::fmt::Write::write_fmt(out, format_args!("{self}"));
            }
        }
    )*};
}
write_json_integers!(u64 usize);

impl WriteJson for str {
    fn write_json(&self, out: &mut String) {
        out.push('"');
        escape(self, out);
        out.push('"');
    }
}

impl WriteJson for String {
    fn write_json(&self, out: &mut String) {
        self.as_str().write_json(out);
    }
}

impl<T: WriteJson + ?Sized> WriteJson for &T {
    fn write_json(&self, out: &mut String) {
        (**self).write_json(out);
    }
}

impl<T: WriteJson> WriteJson for Option<T> {
    fn write_json(&self, out: &mut String) {
        match self {
            Some(v) => v.write_json(out),
            None => out.push_str("null"),
        }
    }
}

impl<T: WriteJson> WriteJson for [T] {
    fn write_json(&self, out: &mut String) {
        out.push('[');
        for (i, item) in self.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            item.write_json(out);
        }
        out.push(']');
    }
}

impl<T: WriteJson> WriteJson for Vec<T> {
    fn write_json(&self, out: &mut String) {
        self.as_slice().write_json(out);
    }
}

impl<K: AsRef<str>, V: WriteJson, S> WriteJson for indexmap::IndexMap<K, V, S> {
    fn write_json(&self, out: &mut String) {
        out.push('{');
        for (i, (k, v)) in self.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            k.as_ref().write_json(out);
            out.push(':');
            v.write_json(out);
        }
        out.push('}');
    }
}

/// `WriteJson` for a struct, member by member in declaration order, each
/// `always` written or written only when `some` (serde's
/// `skip_serializing_if = "Option::is_none"`), under the name given.
macro_rules! write_json_struct {
    ($ty:ident $(<$lt:lifetime>)? { $($kind:ident $field:ident : $name:literal),* $(,)? }) => {
        impl $(<$lt>)? $crate::doc::WriteJson for $ty $(<$lt>)? {
            fn write_json(&self, out: &mut String) {
                out.push('{');
                let mut first = true;
                $( $crate::doc::write_json_member!($kind, self.$field, $name, out, first); )*
                let _ = first;
                out.push('}');
            }
        }
    };
}

macro_rules! write_json_member {
    (always, $value:expr, $name:literal, $out:ident, $first:ident) => {
        if !$first {
            $out.push(',');
        }
        $first = false;
        $out.push_str(concat!("\"", $name, "\":"));
        $crate::doc::WriteJson::write_json(&$value, $out);
    };
    (some, $value:expr, $name:literal, $out:ident, $first:ident) => {
        if let Some(v) = &$value {
            if !$first {
                $out.push(',');
            }
            $first = false;
            $out.push_str(concat!("\"", $name, "\":"));
            $crate::doc::WriteJson::write_json(v, $out);
        }
    };
}

pub(crate) use {write_json_member, write_json_struct};

fn escape_char(c: char, out: &mut String) {
    match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\u{8}' => out.push_str("\\b"),
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\u{c}' => out.push_str("\\f"),
        '\r' => out.push_str("\\r"),
        c if c < ' ' => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(HEX[c as usize >> 4] as char);
            out.push(HEX[c as usize & 15] as char);
        }
        c => out.push(c),
    }
}

enum Piece<'a> {
    Text(&'a str),
    Char(char),
}

/// Splits an escaped span (already validated by the parser) into runs of
/// plain text and the characters its escapes stand for.
fn each_piece<'a>(raw: &'a str, mut f: impl FnMut(Piece<'a>)) {
    let b = raw.as_bytes();
    let mut from = 0;
    while let Some(at) = memchr::memchr(b'\\', &b[from..]) {
        let at = from + at;
        f(Piece::Text(&raw[from..at]));
        let (c, len) = match b.get(at + 1) {
            Some(b'b') => ('\u{8}', 2),
            Some(b'f') => ('\u{c}', 2),
            Some(b'n') => ('\n', 2),
            Some(b'r') => ('\r', 2),
            Some(b't') => ('\t', 2),
            Some(b'u') => {
                let hi = hex(raw, at + 2);
                if (0xD800..0xDC00).contains(&hi) {
                    let lo = hex(raw, at + 8);
                    (char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF)).unwrap_or('\u{FFFD}'), 12)
                } else {
                    (char::from_u32(hi).unwrap_or('\u{FFFD}'), 6)
                }
            }
            // `\"`, `\\`, `\/`: the character itself.
            Some(&c) => (c as char, 2),
            None => break,
        };
        f(Piece::Char(c));
        from = (at + len).min(b.len());
    }
    f(Piece::Text(&raw[from..]));
}

/// Four hex digits at `at` (validated by the parser; 0 if cut short).
fn hex(raw: &str, at: usize) -> u32 {
    raw.get(at..at + 4).and_then(|h| u32::from_str_radix(h, 16).ok()).unwrap_or(0)
}

/// The eight bytes of `w` (little-endian) that a JSON string cannot hold
/// as they are (a quote, a backslash, a control byte), each flagged in its
/// high bit; the lowest flag is exact, and only it may be used.
#[inline(always)]
pub(super) fn specials(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let quote = w ^ (ONES * b'"' as u64);
    let slash = w ^ (ONES * b'\\' as u64);
    // A byte is flagged where it is zero (quote, slash) or below 0x20.
    ((quote.wrapping_sub(ONES) & !quote) | (slash.wrapping_sub(ONES) & !slash) | (w.wrapping_sub(ONES * 0x20) & !w)) & HIGH
}

/// The eight bytes of `b` from `at`, little-endian, as one word: the word-at-
/// a-time scans and comparisons read their input through it.
#[inline(always)]
pub(super) fn word8(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3], b[at + 4], b[at + 5], b[at + 6], b[at + 7]])
}

/// Where the first byte that ends a plain run of string text (a quote, a
/// backslash, a control byte) lies among the sixteen from `i`: `Some(k)` for
/// `b[i + k]`, `None` when none of them does or fewer than sixteen remain.
/// One SIMD read where the build has it, two words otherwise.
#[inline(always)]
pub(super) fn special_within_16(b: &[u8], i: usize) -> Option<usize> {
    let chunk = b.get(i..i.checked_add(16)?)?;
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::{i8x16_bitmask, i8x16_eq, u8x16_lt, u8x16_splat, v128, v128_load, v128_or};
        // SAFETY: `chunk` holds sixteen bytes, and a v128 load needs no alignment.
        let v = unsafe { v128_load(chunk.as_ptr().cast::<v128>()) };
        let hits = v128_or(v128_or(i8x16_eq(v, u8x16_splat(b'"')), i8x16_eq(v, u8x16_splat(b'\\'))), u8x16_lt(v, u8x16_splat(0x20)));
        let flags = i8x16_bitmask(hits);
        (flags != 0).then(|| flags.trailing_zeros() as usize)
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        match (specials(word8(chunk, 0)), specials(word8(chunk, 8))) {
            (0, 0) => None,
            (0, high) => Some(8 + (high.trailing_zeros() / 8) as usize),
            (low, _) => Some((low.trailing_zeros() / 8) as usize),
        }
    }
}

/// The first byte at or after `i` that ends a plain run of string text: a
/// quote, a backslash or a control byte; `b.len()` if none. Sixteen bytes at
/// a time where the build has wasm's SIMD, then eight: most of a schema's
/// text is descriptions.
#[inline]
pub(super) fn skip_plain(b: &[u8], mut i: usize) -> usize {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    while b.len().saturating_sub(i) >= 16 {
        if let Some(k) = special_within_16(b, i) {
            return i + k;
        }
        i += 16;
    }
    while let Some(chunk) = b.get(i..i + 8) {
        let hits = specials(word8(chunk, 0));
        if hits != 0 {
            return i + (hits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&c) = b.get(i) {
        if c == b'"' || c == b'\\' || c < 0x20 {
            return i;
        }
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sixteen-byte window of text with one ending byte (or none) at
    /// every place: the first one is found where a byte at a time finds it.
    #[test]
    fn the_first_special_of_sixteen_is_where_a_byte_at_a_time_says() {
        for special in [None, Some(b'"'), Some(b'\\'), Some(0), Some(0x1f), Some(b'\n')] {
            for at in 0..20 {
                for start in 0..3 {
                    let mut text = vec![b'a'; 20];
                    if let Some(c) = special {
                        text[at] = c;
                    }
                    let want = (start + 16 <= text.len())
                        .then(|| text[start..start + 16].iter().position(|&c| matches!(c, b'"' | b'\\' | 0..=0x1f)))
                        .flatten();
                    assert_eq!(special_within_16(&text, start), want, "{special:?} at {at} from {start}");
                }
            }
        }
        assert_eq!(special_within_16(b"short", 0), None);
        assert_eq!(special_within_16(b"aaaaaaaaaaaaaaaa\"", 1), Some(15));
    }

    /// Every length up to 20, every start, one byte that ends a run at every
    /// place (or none), beside plain ASCII and the bytes of a multibyte
    /// character: the words and the tail find what a byte at a time finds.
    #[test]
    fn plain_runs_end_where_a_byte_at_a_time_says() {
        let naive = |b: &[u8], i: usize| (i..b.len()).find(|&k| matches!(b[k], b'"' | b'\\' | 0..=0x1f)).unwrap_or(b.len());
        for len in 0..=20 {
            for fill in [b'a', 0xa9, b' ', 0x7f, b'!', b'#'] {
                for special in [None, Some(b'"'), Some(b'\\'), Some(0), Some(0x1f), Some(b'\n')] {
                    for at in 0..len.max(1) {
                        let mut b = vec![fill; len];
                        if let (Some(c), true) = (special, at < len) {
                            b[at] = c;
                            // A second one after it: only the first counts.
                            if at + 2 < len {
                                b[at + 2] = b'"';
                            }
                        }
                        for i in 0..=len {
                            assert_eq!(skip_plain(&b, i), naive(&b, i), "{b:?} from {i}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn plain_runs_end_at_quotes_escapes_and_controls() {
        for (text, at) in [("abcdefghij\"", 10), ("abc\\", 3), ("abcdefgh\u{1}", 8), ("é漢字🙂\"", 12), ("", 0), ("abcdefghijklmnop", 16), ("\x7f\x7f\"", 2)]
        {
            assert_eq!(skip_plain(text.as_bytes(), 0), at, "{text:?}");
        }
    }
}
