//! JSON text to a `Doc`, in one pass and without recursion.
//!
//! It accepts and rejects exactly what `serde_json::from_str::<Value>` does
//! (with its recursion limit off), with the same error message and position:
//! the JSON entry points report serde_json's message today, and must keep
//! reporting it when they parse with this instead. The `serde:` comments name
//! the serde_json function whose behaviour a branch follows.
use super::{Doc, Key, Map, Member, Node, NodeId, Run, Str, Value, MAX_TEXT};
use crate::error::{Error, Result};
use crate::keywords::kw;
use crate::pointer::Pointer;
use std::borrow::Cow;

/// serde_json's messages for the errors a `Value` parse can meet.
#[derive(Clone, Copy)]
pub(super) enum Code {
    EofList,
    EofObject,
    EofString,
    EofValue,
    ExpectedColon,
    ListCommaOrEnd,
    ObjectCommaOrEnd,
    ExpectedIdent,
    ExpectedValue,
    InvalidEscape,
    InvalidNumber,
    NumberOutOfRange,
    ControlCharacter,
    KeyMustBeAString,
    LoneSurrogate,
    TrailingComma,
    TrailingCharacters,
    UnexpectedEndOfHexEscape,
}

impl Code {
    fn message(self) -> &'static str {
        match self {
            Code::EofList => "EOF while parsing a list",
            Code::EofObject => "EOF while parsing an object",
            Code::EofString => "EOF while parsing a string",
            Code::EofValue => "EOF while parsing a value",
            Code::ExpectedColon => "expected `:`",
            Code::ListCommaOrEnd => "expected `,` or `]`",
            Code::ObjectCommaOrEnd => "expected `,` or `}`",
            Code::ExpectedIdent => "expected ident",
            Code::ExpectedValue => "expected value",
            Code::InvalidEscape => "invalid escape",
            Code::InvalidNumber => "invalid number",
            Code::NumberOutOfRange => "number out of range",
            Code::ControlCharacter => "control character (\\u0000-\\u001F) found while parsing a string",
            Code::KeyMustBeAString => "key must be a string",
            Code::LoneSurrogate => "lone leading surrogate in hex escape",
            Code::TrailingComma => "trailing comma",
            Code::TrailingCharacters => "trailing characters",
            Code::UnexpectedEndOfHexEscape => "unexpected end of hex escape",
        }
    }
}

/// The text of an input span as written (escapes and all).
#[inline]
fn raw(src: &str, s: Str) -> &str {
    let (start, end) = (s.start as usize, s.start as usize + s.len());
    debug_assert!(src.is_char_boundary(start) && src.is_char_boundary(end), "a span inside a character");
    let bytes = &src.as_bytes()[start..end];
    // SAFETY: a span starts and ends next to an ASCII byte the parser read
    // (a string's or key's quotes, a number's first and last character), so
    // both ends are character boundaries of `src`, which is UTF-8.
    unsafe { std::str::from_utf8_unchecked(bytes) }
}

/// The text of a string or key span, unescaped (borrowed when it has no escapes).
#[inline]
fn text(src: &str, s: Str) -> Cow<'_, str> {
    if s.escaped() {
        Cow::Owned(super::write::unescape(raw(src, s)))
    } else {
        Cow::Borrowed(raw(src, s))
    }
}

/// `text` as a string of its own. Written out rather than through the `Cow`:
/// the value parser makes one per string, and the `Cow` cost 0.4% more wasm
/// operators a call.
#[inline]
fn owned(src: &str, s: Str) -> String {
    if s.escaped() {
        super::write::unescape(raw(src, s))
    } else {
        raw(src, s).to_owned()
    }
}

/// A key span's key (interned when it names a keyword).
#[inline]
fn key_of(src: &str, s: Str) -> Key {
    if s.escaped() {
        Key::from(text(src, s))
    } else {
        Key::new(raw(src, s))
    }
}

/// An open container: its node and where its children start in the scratch.
struct Frame {
    node: u32,
    start: u32,
    object: bool,
}

/// A member whose value is still being parsed.
const PENDING: NodeId = NodeId(u32::MAX);

pub(super) struct Parser<'s> {
    pub(super) src: &'s str,
    pub(super) b: &'s [u8],
    pub(super) i: usize,
    nodes: Vec<Node>,
    items: Vec<NodeId>,
    members: Vec<Member>,
    // Children of the open containers, moved to `items`/`members` as one
    // contiguous run when their container closes.
    open_items: Vec<NodeId>,
    open_members: Vec<Member>,
    frames: Vec<Frame>,
    max_depth: usize,
    /// The most containers open at once so far.
    deepest: usize,
    /// Key paths from the root whose arrays are read as values, not nodes
    /// (`Doc::parse_capturing`), and the deepest such a value may nest.
    capture: &'static [&'static [&'static str]],
    capture_cap: usize,
    captured: Vec<Captured>,
    /// What a deferring parse checked and did not read.
    deferred: Vec<Batch>,
    /// Where a captured array's items keep their schemas: the definitions
    /// there are deferred (`parse_capturing`).
    slots: &'static [&'static [&'static str]],
}

/// The entries of one definitions object whose values were only checked:
/// the container's keyword row, where it stands, and each entry's value span,
/// in the order read.
#[derive(Debug)]
struct Batch {
    row: u8,
    /// The item of the captured array it lies in (`usize::MAX` at the root of
    /// a schema read alone) and the keys from that item to the schema.
    tool: usize,
    slot: &'static [&'static str],
    spans: Vec<std::ops::Range<usize>>,
    /// How many containers deep its deepest entry reaches, counted from the
    /// value the parse read (the captured array, or the schema).
    depth: usize,
}

/// What a deferring parse left unread: the values of definitions objects'
/// entries (at a schema's root: `parse_value_deferring_within`; at a tool's schema
/// slot: `parse_capturing` given slots), each standing as `null` in the value
/// until `take` reads it from the text.
#[derive(Debug, Default)]
pub struct Deferred {
    batches: Vec<Batch>,
}

/// One definitions object of a `Deferred`, as `Deferred::containers` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Container {
    /// Its keyword's row in the table (`$defs` or `definitions`).
    pub row: u8,
    /// The item of the captured array it lies in, `usize::MAX` at the root.
    pub tool: usize,
    /// The keys from that item to the schema holding it.
    pub slot: &'static [&'static str],
    /// How many values were read for it (its entries, when no key repeats).
    pub entries: usize,
    /// How many containers deep its deepest entry reaches, counted from the
    /// value the parse read (the captured array is level 1).
    pub depth: usize,
}

impl Deferred {
    /// Nothing was deferred.
    pub fn is_empty(&self) -> bool {
        self.batches.is_empty()
    }

    /// The definitions objects deferred, in the order read.
    pub fn containers(&self) -> impl Iterator<Item = Container> + '_ {
        self.batches.iter().map(|b| Container { row: b.row, tool: b.tool, slot: b.slot, entries: b.spans.len(), depth: b.depth })
    }

    /// The value of the `i`th entry read for the `k`th container, from `src`
    /// (the text parsed). The text was checked when it was deferred, so this
    /// cannot fail; it gives `null` should it, as a placeholder would.
    pub fn take(&self, src: &str, k: usize, i: usize) -> Value {
        let Some(span) = self.batches.get(k).and_then(|b| b.spans.get(i)) else { return Value::Null };
        let mut p = Parser::new(&src[..span.end], usize::MAX, 0);
        p.i = span.start;
        match p.value_at::<false>(usize::MAX) {
            Ok(Some((value, _))) => value,
            _ => {
                debug_assert!(false, "a deferred value failed to parse");
                Value::Null
            }
        }
    }
}

/// An array read straight into a value where the document would hold it
/// (`Doc::parse_capturing`).
#[derive(Debug)]
pub struct Captured {
    /// The node the array stands at in the document: an empty array there.
    pub node: NodeId,
    pub value: Value,
    /// How many containers deep the value nests (1 for a flat array).
    pub depth: usize,
    /// Where the array's text is in the input.
    pub span: std::ops::Range<usize>,
    /// The definitions at its items' schema slots, left unread.
    pub deferred: Deferred,
}

/// Text longer than a span can address is refused before any is read.
fn within_max_text(src: &str) -> Result<()> {
    if src.len() > MAX_TEXT {
        return Err(Error::TooLarge { pointer: Pointer::root(), message: format!("JSON text of {} bytes is over the {MAX_TEXT} a document holds", src.len()) });
    }
    Ok(())
}

pub(super) fn parse(src: &str, max_depth: usize) -> Result<Doc<'_>> {
    within_max_text(src)?;
    // A compact schema averages about one node per 12 bytes (the corpus).
    let mut p = Parser::new(src, max_depth, src.len() / 12 + 4);
    let root = p.document()?;
    Ok(Doc { src, text: String::new(), nodes: p.nodes, items: p.items, members: p.members, root, max_depth, text_depth: p.deepest })
}

/// JSON text to a `Value` (see `Parser::value_at`): no node is made.
pub(super) fn parse_value(src: &str) -> Result<Value> {
    parse_value_within(src, usize::MAX).map(|value| value.expect("no depth cap"))
}

/// `parse_value` that stops with `None` at a container nested deeper than
/// `cap`: what it built, dropped then, nests at most `cap` deep.
pub(super) fn parse_value_within(src: &str, cap: usize) -> Result<Option<Value>> {
    within_max_text(src)?;
    let mut p = Parser::new(src, usize::MAX, 0);
    let Some((value, _)) = p.value_at::<false>(cap)? else { return Ok(None) };
    // serde: `Deserializer::end`.
    match p.skip_ws() {
        None => Ok(Some(value)),
        Some(_) => Err(p.peek_error(Code::TrailingCharacters)),
    }
}

/// `parse_value_within`, except that the values of a root `$defs` or
/// `definitions` object's entries are only checked (accepted, rejected and
/// worded as `parse_value` does) and stand as `null`: `Deferred::take` reads
/// those a caller needs. For schemas whose definitions are mostly unused
/// (`refs`). Stops with `None` at a container nested deeper than `cap`
/// (deferred entries counted as read): what it built, dropped then, nests at
/// most `cap` deep.
pub(super) fn parse_value_deferring_within(src: &str, cap: usize) -> Result<Option<(Value, Deferred)>> {
    within_max_text(src)?;
    let mut p = Parser::new(src, usize::MAX, 0);
    let Some((value, _)) = p.value_at::<true>(cap)? else { return Ok(None) };
    match p.skip_ws() {
        None => Ok(Some((value, Deferred { batches: p.deferred }))),
        Some(_) => Err(p.peek_error(Code::TrailingCharacters)),
    }
}

/// `parse` with no depth limit, reading the arrays at `paths` (key paths from
/// the root; the empty path is the root) straight into values: each stands
/// in the document as an empty array, its value beside. An array nested
/// deeper than `cap` containers is read into the document as usual.
pub(super) fn parse_capturing<'s>(
    src: &'s str,
    paths: &'static [&'static [&'static str]],
    cap: usize,
    slots: &'static [&'static [&'static str]],
) -> Result<(Doc<'s>, Vec<Captured>)> {
    within_max_text(src)?;
    // Most of such a text is what is captured: a smaller guess of nodes.
    let mut p = Parser { capture: paths, capture_cap: cap, slots, ..Parser::new(src, usize::MAX, src.len() / 96 + 4) };
    let root = p.document()?;
    let doc = Doc { src, text: String::new(), nodes: p.nodes, items: p.items, members: p.members, root, max_depth: usize::MAX, text_depth: p.deepest };
    Ok((doc, p.captured))
}

/// An open container of `value_at`, with the key of the member being read
/// and, for an object, a bit for each key read so far (`seen_bit`).
enum Open {
    Array(Vec<Value>),
    Object(Map, Key, u64),
}

/// A key's bit among 64: equal keys have the same one, so a key whose bit no
/// earlier key of the object set is not among them, and is appended without
/// the search for a repeat (JSON.stringify's text never repeats a key).
#[inline]
fn seen_bit(key: &Key) -> u64 {
    let h = match key.keyword() {
        Some(k) => k.row as usize,
        None => {
            let b = key.as_str().as_bytes();
            b.len() ^ b.first().map_or(0, |&c| usize::from(c) << 1) ^ b.last().map_or(0, |&c| usize::from(c) * 7)
        }
    };
    1 << (h & 63)
}

/// Whether the value about to be read is an entry of a definitions object
/// to defer: one at the root (no `slots`), or at the schema slot of an item
/// of the captured array (`slots`). Which one (`Container`, its `entries`
/// the count read so far), if so.
#[inline]
fn deferral(open: &[Open], slots: &'static [&'static [&'static str]]) -> Option<Container> {
    let row_of = |key: &Key| key.keyword().map(|k| k.row).filter(|&r| r == kw::DEFS.row || r == kw::DEFINITIONS.row);
    if slots.is_empty() {
        let [Open::Object(_, outer, _), Open::Object(entries, _, _)] = open else { return None };
        return Some(Container { row: row_of(outer)?, tool: usize::MAX, slot: &[], entries: entries.len(), depth: 0 });
    }
    match open {
        [Open::Array(items), middle @ .., Open::Object(_, outer, _), Open::Object(entries, _, _)] if !middle.is_empty() => {
            let row = row_of(outer)?;
            let slot = slots.iter().copied().find(|slot| {
                slot.len() == middle.len() && slot.iter().zip(middle).all(|(want, o)| matches!(o, Open::Object(_, k, _) if k.as_str() == *want))
            })?;
            Some(Container { row, tool: items.len(), slot, entries: entries.len(), depth: 0 })
        }
        _ => None,
    }
}

impl<'s> Parser<'s> {
    /// A parser of `src` with room for about `nodes` nodes, capturing nothing.
    fn new(src: &'s str, max_depth: usize, nodes: usize) -> Parser<'s> {
        Parser {
            src,
            b: src.as_bytes(),
            i: 0,
            nodes: Vec::with_capacity(nodes),
            items: Vec::with_capacity(nodes / 4),
            members: Vec::with_capacity(nodes / 2),
            open_items: Vec::new(),
            open_members: Vec::new(),
            frames: Vec::new(),
            max_depth,
            deepest: 0,
            capture: &[],
            capture_cap: 0,
            captured: Vec::new(),
            deferred: Vec::new(),
            slots: &[],
        }
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn skip_ws(&mut self) -> Option<u8> {
        while let Some(&c) = self.b.get(self.i) {
            if !matches!(c, b' ' | b'\n' | b'\t' | b'\r') {
                return Some(c);
            }
            self.i += 1;
        }
        None
    }

    /// serde: `Deserializer::error`, at the byte after the last one read.
    pub(super) fn error(&self, code: Code) -> Error {
        self.error_at(self.i, code)
    }

    /// serde: `Deserializer::peek_error`, at the byte after the one peeked.
    pub(super) fn peek_error(&self, code: Code) -> Error {
        self.error_at((self.i + 1).min(self.b.len()), code)
    }

    /// serde: `SliceRead::position_of_index`: 1-based line, byte column.
    fn error_at(&self, i: usize, code: Code) -> Error {
        let i = i.min(self.b.len());
        let line_start = memchr::memrchr(b'\n', &self.b[..i]).map_or(0, |p| p + 1);
        let line = 1 + memchr::memchr_iter(b'\n', &self.b[..line_start]).count();
        Error::InvalidJson { message: format!("{} at line {line} column {}", code.message(), i - line_start) }
    }

    fn push(&mut self, node: Node) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(node);
        id
    }

    /// serde: `from_str` = `Value::deserialize` then `Deserializer::end`.
    fn document(&mut self) -> Result<NodeId> {
        let mut done;
        'value: loop {
            // A value is expected here (serde: `deserialize_any`).
            done = match self.skip_ws() {
                None => return Err(self.peek_error(Code::EofValue)),
                Some(b'{') => {
                    self.open(true)?;
                    self.i += 1;
                    match self.skip_ws() {
                        Some(b'}') => {
                            self.i += 1;
                            self.close()
                        }
                        Some(b'"') => {
                            self.key()?;
                            continue 'value;
                        }
                        Some(_) => return Err(self.peek_error(Code::KeyMustBeAString)),
                        None => return Err(self.peek_error(Code::EofObject)),
                    }
                }
                Some(b'[') if !self.capture.is_empty() && self.at_capture_path() => match self.capture_array()? {
                    Some(id) => id,
                    None => continue 'value,
                },
                Some(b'[') => {
                    self.open(false)?;
                    self.i += 1;
                    match self.skip_ws() {
                        Some(b']') => {
                            self.i += 1;
                            self.close()
                        }
                        Some(_) => continue 'value,
                        None => return Err(self.peek_error(Code::EofList)),
                    }
                }
                Some(b'"') => {
                    self.i += 1;
                    let s = self.string()?;
                    self.push(Node::String(s))
                }
                Some(b'n') => self.ident(b"null", Node::Null)?,
                Some(b't') => self.ident(b"true", Node::Bool(true))?,
                Some(b'f') => self.ident(b"false", Node::Bool(false))?,
                Some(b'-' | b'0'..=b'9') => {
                    let s = self.number()?;
                    self.push(Node::Number(s))
                }
                Some(_) => return Err(self.peek_error(Code::ExpectedValue)),
            };
            // A value is complete: give it to its container, then read what
            // follows it, closing as many containers as end here.
            loop {
                let Some(frame) = self.frames.last() else {
                    // serde: `Deserializer::end`.
                    return match self.skip_ws() {
                        None => Ok(done),
                        Some(_) => Err(self.peek_error(Code::TrailingCharacters)),
                    };
                };
                if frame.object {
                    if let Some(m) = self.open_members.last_mut() {
                        m.value = done;
                    }
                    // serde: `MapAccess::next_key_seed`.
                    match self.skip_ws() {
                        Some(b',') => {
                            self.i += 1;
                            match self.skip_ws() {
                                Some(b'"') => {
                                    self.key()?;
                                    continue 'value;
                                }
                                Some(b'}') => return Err(self.peek_error(Code::TrailingComma)),
                                Some(_) => return Err(self.peek_error(Code::KeyMustBeAString)),
                                None => return Err(self.peek_error(Code::EofValue)),
                            }
                        }
                        Some(b'}') => {
                            self.i += 1;
                            done = self.close();
                        }
                        Some(_) => return Err(self.peek_error(Code::ObjectCommaOrEnd)),
                        None => return Err(self.peek_error(Code::EofObject)),
                    }
                } else {
                    self.open_items.push(done);
                    // serde: `SeqAccess::next_element_seed`.
                    match self.skip_ws() {
                        Some(b',') => {
                            self.i += 1;
                            match self.skip_ws() {
                                Some(b']') => return Err(self.peek_error(Code::TrailingComma)),
                                Some(_) => continue 'value,
                                None => return Err(self.peek_error(Code::EofValue)),
                            }
                        }
                        Some(b']') => {
                            self.i += 1;
                            done = self.close();
                        }
                        Some(_) => return Err(self.peek_error(Code::ListCommaOrEnd)),
                        None => return Err(self.peek_error(Code::EofList)),
                    }
                }
            }
        }
    }

    /// Opens a container at `self.i`, refusing one past the depth limit
    /// before anything below it is read.
    fn open(&mut self, object: bool) -> Result<()> {
        if self.frames.len() >= self.max_depth {
            return Err(Error::TooDeep { pointer: self.pointer(), limit: self.max_depth });
        }
        let node = self.nodes.len() as u32;
        let start = if object { self.open_members.len() } else { self.open_items.len() } as u32;
        self.nodes.push(Node::Null);
        self.frames.push(Frame { node, start, object });
        self.deepest = self.deepest.max(self.frames.len());
        Ok(())
    }

    /// Closes the innermost container: its children become one run.
    fn close(&mut self) -> NodeId {
        let Some(frame) = self.frames.pop() else { unreachable!("close without open") };
        let start = frame.start as usize;
        let node = if frame.object {
            if self.open_members.len() - start > 1 {
                self.dedupe(start);
            }
            let run = Run { start: self.members.len() as u32, len: (self.open_members.len() - start) as u32 };
            self.members.extend_from_slice(&self.open_members[start..]);
            self.open_members.truncate(start);
            Node::Object(run)
        } else {
            let run = Run { start: self.items.len() as u32, len: (self.open_items.len() - start) as u32 };
            self.items.extend_from_slice(&self.open_items[start..]);
            self.open_items.truncate(start);
            Node::Array(run)
        };
        self.nodes[frame.node as usize] = node;
        NodeId(frame.node)
    }

    /// Duplicate keys: the first one's place, the last one's value (serde:
    /// `Map::insert` into an `IndexMap`).
    fn dedupe(&mut self, start: usize) {
        let (src, ms) = (self.src, &mut self.open_members[start..]);
        let text = |s: Str| text(src, s);
        let mut kept = 1;
        if ms.len() <= 32 && ms.iter().all(|m| !m.key.escaped()) {
            // Small objects, the common case: compare spans.
            for j in 1..ms.len() {
                let m = ms[j];
                let key = text(m.key);
                match ms[..kept].iter().position(|k| k.key.len() == m.key.len() && text(k.key) == key) {
                    Some(at) => ms[at].value = m.value,
                    None => {
                        ms[kept] = m;
                        kept += 1;
                    }
                }
            }
        } else {
            let mut seen: crate::hash::HashMap<std::borrow::Cow<'_, str>, usize> = crate::hash::HashMap::with_capacity_and_hasher(ms.len(), Default::default());
            seen.insert(text(ms[0].key), 0);
            for j in 1..ms.len() {
                let m = ms[j];
                match seen.get(&text(m.key)) {
                    Some(&at) => ms[at].value = m.value,
                    None => {
                        seen.insert(text(m.key), kept);
                        ms[kept] = m;
                        kept += 1;
                    }
                }
            }
        }
        self.open_members.truncate(start + kept);
    }

    /// The pointer of the place being read: one segment per open container.
    fn pointer(&self) -> Pointer {
        let mut p = Pointer::root();
        for (k, f) in self.frames.iter().enumerate() {
            if f.object {
                if let Some(m) = self.reading(k) {
                    p.push(text(self.src, m.key));
                }
            } else {
                // The item being read is the last of its run, which ends where
                // the next deeper array's items start.
                let end = self.frames[k + 1..].iter().find(|g| !g.object).map_or(self.open_items.len(), |g| g.start as usize);
                p.push_index(end - f.start as usize);
            }
        }
        p
    }

    /// The member the object open at level `k` is reading: the last of its
    /// run so far, which ends where the next deeper object's members start.
    fn reading(&self, k: usize) -> Option<&Member> {
        let f = &self.frames[k];
        let end = self.frames[k + 1..].iter().find(|g| g.object).map_or(self.open_members.len(), |g| g.start as usize);
        self.open_members[f.start as usize..end].last()
    }

    /// serde: `parse_ident`, after the first letter was peeked.
    fn ident(&mut self, word: &[u8], node: Node) -> Result<NodeId> {
        self.word(word)?;
        Ok(self.push(node))
    }

    /// The letters of `null`, `true` or `false`, the first one peeked.
    fn word(&mut self, word: &[u8]) -> Result<()> {
        self.i += 1;
        for &want in &word[1..] {
            match self.peek() {
                None => return Err(self.error(Code::EofValue)),
                Some(c) => {
                    self.i += 1;
                    if c != want {
                        return Err(self.error(Code::ExpectedIdent));
                    }
                }
            }
        }
        Ok(())
    }

    /// A key: the string, then the colon (serde: `parse_object_colon`).
    fn key(&mut self) -> Result<()> {
        let key = self.key_span()?;
        self.open_members.push(Member { key, value: PENDING });
        Ok(())
    }

    /// A key's span, read from its opening quote through the colon after it
    /// (straight after it in the common case, JSON.stringify's text).
    #[inline(always)]
    fn key_span(&mut self) -> Result<Str> {
        self.i += 1;
        let key = self.string()?;
        if self.b.get(self.i) == Some(&b':') {
            self.i += 1;
            return Ok(key);
        }
        match self.skip_ws() {
            Some(b':') => {
                self.i += 1;
                Ok(key)
            }
            Some(_) => Err(self.peek_error(Code::ExpectedColon)),
            None => Err(self.peek_error(Code::EofObject)),
        }
    }


    /// Whether the value about to be read sits at one of the capture paths:
    /// every open container an object, each reading the member the path
    /// names (keys compared as written: an escaped key is not captured).
    fn at_capture_path(&self) -> bool {
        let n = self.frames.len();
        self.capture.iter().any(|path| {
            path.len() == n
                && path.iter().enumerate().all(|(k, want)| {
                    self.frames[k].object && self.reading(k).is_some_and(|m| !m.key.escaped() && raw(self.src, m.key) == *want)
                })
        })
    }

    /// Reads the array at `self.i` into a value and stands an empty array in
    /// for it; `None` (the position restored) when it nests past the cap.
    fn capture_array(&mut self) -> Result<Option<NodeId>> {
        let start = self.i;
        let read = if self.slots.is_empty() { self.value_at::<false>(self.capture_cap)? } else { self.value_at::<true>(self.capture_cap)? };
        let deferred = Deferred { batches: std::mem::take(&mut self.deferred) };
        let Some((value, depth)) = read else {
            self.i = start;
            self.capture = &[];
            return Ok(None);
        };
        self.deepest = self.deepest.max(self.frames.len() + depth);
        let node = self.push(Node::Array(Run { start: self.items.len() as u32, len: 0 }));
        self.captured.push(Captured { node, value, depth, span: start..self.i, deferred });
        Ok(Some(node))
    }

    /// One value from `self.i`, built as it is read, and how many containers
    /// deep it nests: what `document` followed by `Doc::to_value` gives for
    /// it, without the document in between. The same steps in the same order
    /// as `document`, so it accepts, rejects and words its errors as that
    /// does. `None` when it nests deeper than `cap`. Nothing here recurses;
    /// `cap` bounds the depth for what comes after.
    /// `DEFER`: the entries of a root definitions object are checked, not
    /// read (`parse_value_deferring_within`); a parameter of the type, so that the
    /// other parses pay nothing for the question (0.7% of the text path's
    /// wasm operators when it was a field).
    fn value_at<const DEFER: bool>(&mut self, cap: usize) -> Result<Option<(Value, usize)>> {
        let mut open: Vec<Open> = Vec::new();
        let mut deepest = 0;
        let mut done;
        'value: loop {
            let next = self.skip_ws();
            if matches!(next, Some(b'{' | b'[')) {
                if open.len() >= cap {
                    return Ok(None);
                }
                deepest = deepest.max(open.len() + 1);
            }
            // An entry of a definitions object, when deferring: checked only,
            // and `null` in its place.
            let deferred = if DEFER { deferral(&open, self.slots) } else { None };
            if let Some(at) = deferred {
                let start = self.i;
                // Counted as if read: the depth guards after the parse see it.
                let depth = open.len() + self.skip_value()?;
                if depth > cap {
                    return Ok(None);
                }
                deepest = deepest.max(depth);
                // A definitions object read again (a repeated key) replaces the
                // one before; those of earlier items are not looked at.
                if at.entries == 0 {
                    let same = |b: &Batch| b.row == at.row && b.tool == at.tool && b.slot == at.slot;
                    let from = self.deferred.iter().rposition(|b| b.tool != at.tool).map_or(0, |k| k + 1);
                    if let Some(k) = self.deferred[from..].iter().position(same) {
                        self.deferred.remove(from + k);
                    }
                    self.deferred.push(Batch { row: at.row, tool: at.tool, slot: at.slot, spans: Vec::new(), depth: 0 });
                }
                if let Some(batch) = self.deferred.last_mut() {
                    batch.spans.push(start..self.i);
                    batch.depth = batch.depth.max(depth);
                }
            }
            done = if deferred.is_some() {
                Value::Null
            } else {
                match next {
                None => return Err(self.peek_error(Code::EofValue)),
                Some(b'{') => {
                    self.i += 1;
                    match self.skip_ws() {
                        Some(b'}') => {
                            self.i += 1;
                            Value::Object(Map::new())
                        }
                        // A container that holds anything starts with room
                        // for four (what its first push would grow it to):
                        // one allocation instead of a vector's grow path,
                        // about 45 wasm operators a container.
                        Some(b'"') => {
                            let key = self.key_span()?;
                            open.push(Open::Object(Map::with_capacity(4), key_of(self.src, key), 0));
                            continue 'value;
                        }
                        Some(_) => return Err(self.peek_error(Code::KeyMustBeAString)),
                        None => return Err(self.peek_error(Code::EofObject)),
                    }
                }
                Some(b'[') => {
                    self.i += 1;
                    match self.skip_ws() {
                        Some(b']') => {
                            self.i += 1;
                            Value::Array(Vec::new())
                        }
                        Some(_) => {
                            open.push(Open::Array(Vec::with_capacity(4)));
                            continue 'value;
                        }
                        None => return Err(self.peek_error(Code::EofList)),
                    }
                }
                Some(b'"') => {
                    self.i += 1;
                    let s = self.string()?;
                    Value::String(owned(self.src, s))
                }
                Some(b'n') => {
                    self.word(b"null")?;
                    Value::Null
                }
                Some(b't') => {
                    self.word(b"true")?;
                    Value::Bool(true)
                }
                Some(b'f') => {
                    self.word(b"false")?;
                    Value::Bool(false)
                }
                Some(b'-' | b'0'..=b'9') => {
                    let s = self.number()?;
                    super::convert::number(raw(self.src, s), s.reformat())
                }
                Some(_) => return Err(self.peek_error(Code::ExpectedValue)),
                }
            };
            loop {
                match open.last_mut() {
                    None => return Ok(Some((done, deepest))),
                    Some(Open::Object(map, key, seen)) => {
                        // A repeated key keeps its first place and takes the last value.
                        let name = std::mem::take(key);
                        let bit = seen_bit(&name);
                        if *seen & bit == 0 {
                            map.push_absent(name, done);
                        } else {
                            map.insert(name, done);
                        }
                        *seen |= bit;
                        match self.skip_ws() {
                            Some(b',') => {
                                self.i += 1;
                                match self.skip_ws() {
                                    Some(b'"') => {
                                        let span = self.key_span()?;
                                        *key = key_of(self.src, span);
                                        continue 'value;
                                    }
                                    Some(b'}') => return Err(self.peek_error(Code::TrailingComma)),
                                    Some(_) => return Err(self.peek_error(Code::KeyMustBeAString)),
                                    None => return Err(self.peek_error(Code::EofValue)),
                                }
                            }
                            Some(b'}') => self.i += 1,
                            Some(_) => return Err(self.peek_error(Code::ObjectCommaOrEnd)),
                            None => return Err(self.peek_error(Code::EofObject)),
                        }
                    }
                    Some(Open::Array(items)) => {
                        items.push(done);
                        match self.skip_ws() {
                            Some(b',') => {
                                self.i += 1;
                                match self.skip_ws() {
                                    Some(b']') => return Err(self.peek_error(Code::TrailingComma)),
                                    Some(_) => continue 'value,
                                    None => return Err(self.peek_error(Code::EofValue)),
                                }
                            }
                            Some(b']') => self.i += 1,
                            Some(_) => return Err(self.peek_error(Code::ListCommaOrEnd)),
                            None => return Err(self.peek_error(Code::EofList)),
                        }
                    }
                }
                // The container closed: it is the value just completed.
                done = match open.pop() {
                    Some(Open::Array(items)) => Value::Array(items),
                    Some(Open::Object(map, _, _)) => Value::Object(map),
                    None => unreachable!("a container closed while one was open"),
                };
            }
        }
    }

    /// One value from `self.i`, checked and not built: `value_at`'s steps in
    /// its order, so the same text fails with the same error at the same
    /// place. Answers how many containers deep it nests.
    fn skip_value(&mut self) -> Result<usize> {
        // Per open container, whether it is an object; the most open at once.
        let mut open: Vec<bool> = Vec::new();
        let mut deepest = 0;
        'value: loop {
            match self.skip_ws() {
                None => return Err(self.peek_error(Code::EofValue)),
                Some(b'{') => {
                    deepest = deepest.max(open.len() + 1);
                    self.i += 1;
                    match self.skip_ws() {
                        Some(b'}') => self.i += 1,
                        Some(b'"') => {
                            self.key_span()?;
                            open.push(true);
                            continue 'value;
                        }
                        Some(_) => return Err(self.peek_error(Code::KeyMustBeAString)),
                        None => return Err(self.peek_error(Code::EofObject)),
                    }
                }
                Some(b'[') => {
                    deepest = deepest.max(open.len() + 1);
                    self.i += 1;
                    match self.skip_ws() {
                        Some(b']') => self.i += 1,
                        Some(_) => {
                            open.push(false);
                            continue 'value;
                        }
                        None => return Err(self.peek_error(Code::EofList)),
                    }
                }
                Some(b'"') => {
                    self.i += 1;
                    self.string()?;
                }
                Some(b'n') => self.word(b"null")?,
                Some(b't') => self.word(b"true")?,
                Some(b'f') => self.word(b"false")?,
                Some(b'-' | b'0'..=b'9') => {
                    self.number()?;
                }
                Some(_) => return Err(self.peek_error(Code::ExpectedValue)),
            }
            loop {
                match open.last() {
                    None => return Ok(deepest),
                    Some(true) => match self.skip_ws() {
                        Some(b',') => {
                            self.i += 1;
                            match self.skip_ws() {
                                Some(b'"') => {
                                    self.key_span()?;
                                    continue 'value;
                                }
                                Some(b'}') => return Err(self.peek_error(Code::TrailingComma)),
                                Some(_) => return Err(self.peek_error(Code::KeyMustBeAString)),
                                None => return Err(self.peek_error(Code::EofValue)),
                            }
                        }
                        Some(b'}') => self.i += 1,
                        Some(_) => return Err(self.peek_error(Code::ObjectCommaOrEnd)),
                        None => return Err(self.peek_error(Code::EofObject)),
                    },
                    Some(false) => match self.skip_ws() {
                        Some(b',') => {
                            self.i += 1;
                            match self.skip_ws() {
                                Some(b']') => return Err(self.peek_error(Code::TrailingComma)),
                                Some(_) => continue 'value,
                                None => return Err(self.peek_error(Code::EofValue)),
                            }
                        }
                        Some(b']') => self.i += 1,
                        Some(_) => return Err(self.peek_error(Code::ListCommaOrEnd)),
                        None => return Err(self.peek_error(Code::EofList)),
                    },
                }
                open.pop();
            }
        }
    }

    /// The rest of a string after its opening quote (serde: `parse_str_bytes`
    /// with validation: escapes checked, surrogates paired, no control bytes).
    /// Nearly every key and most short strings close within sixteen bytes
    /// with nothing to unescape: one read tells them, in line; the others
    /// take `string_slow`.
    #[inline(always)]
    fn string(&mut self) -> Result<Str> {
        if let Some(k) = super::write::special_within_16(self.b, self.i) {
            if self.b[self.i + k] == b'"' {
                let s = Str::new(self.i, k, false, false);
                self.i += k + 1;
                return Ok(s);
            }
        }
        self.string_slow()
    }

    /// `string` byte run by byte run, escapes and all.
    #[inline(never)]
    fn string_slow(&mut self) -> Result<Str> {
        let start = self.i;
        let mut escaped = false;
        loop {
            self.i = super::write::skip_plain(self.b, self.i);
            match self.peek() {
                None => return Err(self.error(Code::EofString)),
                Some(b'"') => {
                    let s = Str::new(start, self.i - start, escaped, false);
                    self.i += 1;
                    return Ok(s);
                }
                Some(b'\\') => {
                    escaped = true;
                    self.i += 1;
                    self.escape()?;
                }
                Some(_) => {
                    self.i += 1;
                    return Err(self.error(Code::ControlCharacter));
                }
            }
        }
    }

    /// serde: `parse_escape`, after the backslash.
    fn escape(&mut self) -> Result<()> {
        let Some(c) = self.peek() else { return Err(self.error(Code::EofString)) };
        self.i += 1;
        match c {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Ok(()),
            b'u' => self.unicode_escape(),
            _ => Err(self.error(Code::InvalidEscape)),
        }
    }

    /// serde: `parse_unicode_escape` with validation: a surrogate must be
    /// the leading half of a pair.
    fn unicode_escape(&mut self) -> Result<()> {
        let n = self.hex4()?;
        if (0xDC00..=0xDFFF).contains(&n) {
            return Err(self.error(Code::LoneSurrogate));
        }
        if !(0xD800..=0xDBFF).contains(&n) {
            return Ok(());
        }
        for want in [b'\\', b'u'] {
            match self.peek() {
                None => return Err(self.error(Code::EofString)),
                Some(c) => {
                    self.i += 1;
                    if c != want {
                        return Err(self.error(Code::UnexpectedEndOfHexEscape));
                    }
                }
            }
        }
        let n2 = self.hex4()?;
        if !(0xDC00..=0xDFFF).contains(&n2) {
            return Err(self.error(Code::LoneSurrogate));
        }
        Ok(())
    }

    /// serde: `SliceRead::decode_hex_escape`.
    fn hex4(&mut self) -> Result<u16> {
        let Some(digits) = self.b.get(self.i..self.i + 4) else {
            self.i = self.b.len();
            return Err(self.error(Code::EofString));
        };
        self.i += 4;
        hex4(digits).ok_or_else(|| self.error(Code::InvalidEscape))
    }
}

fn hex4(d: &[u8]) -> Option<u16> {
    let mut n = 0u16;
    for &c in d {
        let v = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => return None,
        };
        n = n << 4 | v as u16;
    }
    Some(n)
}
