//! JSON Pointer (RFC 6901) paths into a schema document.
use std::fmt;

/// A JSON Pointer, kept rendered (with `~0`/`~1` escapes) in one buffer with
/// the end of each segment: pushing and popping on the walk's hot path never
/// allocates once the buffer has grown.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pointer {
    buf: String,
    ends: Vec<usize>,
}

impl Pointer {
    pub fn root() -> Self {
        Pointer::default()
    }

    pub fn push(&mut self, seg: impl AsRef<str>) {
        let seg = seg.as_ref();
        self.push_written(&escape(seg));
    }

    /// `push` for a keyword of the table (a slot's key): none holds `~` or
    /// `/`, so it is copied without the escape scan. The walks push one per
    /// subschema they enter, beside the property name or index.
    pub fn push_keyword(&mut self, keyword: &str) {
        debug_assert!(!needs_escape(keyword.as_bytes()), "{keyword:?} needs escaping");
        self.push_written(keyword);
    }

    /// Appends a segment already as the pointer writes it (escaped).
    #[inline]
    fn push_written(&mut self, seg: &str) {
        self.reserve_first();
        self.buf.push('/');
        self.buf.push_str(seg);
        self.ends.push(self.buf.len());
    }

    /// A walk's pointer starts empty and would grow in several steps on every
    /// call (a tenth of the pointer's cost on the real MCP schemas); one
    /// allocation of a typical depth's worth instead. Pointers never pushed
    /// (error and report placeholders) allocate nothing.
    fn reserve_first(&mut self) {
        if self.ends.capacity() == 0 {
            self.buf.reserve(96);
            self.ends.reserve(12);
        }
    }

    /// Pushes an array index without allocating its text (the walk's hot path).
    pub fn push_index(&mut self, i: usize) {
        self.reserve_first();
        let mut digits = [0u8; 20];
        let (mut n, mut at) = (i, digits.len());
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.buf.push('/');
        self.buf.extend(digits[at..].iter().map(|&d| char::from(d)));
        self.ends.push(self.buf.len());
    }

    pub fn pop(&mut self) {
        self.ends.pop();
        self.buf.truncate(self.ends.last().copied().unwrap_or(0));
    }

    /// Appends every segment of `other` (already escaped, so copied as they are).
    pub fn append(&mut self, other: &Pointer) {
        let base = self.buf.len();
        self.buf.push_str(&other.buf);
        self.ends.extend(other.ends.iter().map(|e| e + base));
    }

    pub fn child(&self, seg: impl AsRef<str>) -> Self {
        let mut p = self.clone();
        p.push(seg);
        p
    }

    /// The unescaped segments (allocates; for cold paths).
    pub fn segments(&self) -> Vec<String> {
        self.raw_segments(0).map(|s| unescape(s).into_owned()).collect()
    }

    /// The segments from the `from`-th on as written in the pointer, still
    /// escaped (`~0`, `~1`), without allocating. A segment without `~` reads
    /// the same escaped or not, so comparing one with a keyword needs no unescaping.
    pub fn raw_segments(&self, from: usize) -> impl Iterator<Item = &str> + '_ {
        let start = if from == 0 { 0 } else { self.ends.get(from - 1).copied().unwrap_or(self.buf.len()) };
        let mut at = start;
        self.ends.iter().skip(from).map(move |&end| {
            let seg = &self.buf[at + 1..end];
            at = end;
            seg
        })
    }

    /// The rendered pointer of the first `k` segments (a prefix of `as_str`).
    pub fn prefix_str(&self, k: usize) -> &str {
        match k {
            0 => "",
            k => &self.buf[..self.ends.get(k - 1).copied().unwrap_or(self.buf.len())],
        }
    }

    /// The rendered pointer (`/a/b~1c`), borrowed.
    pub fn as_str(&self) -> &str {
        &self.buf
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Parses the fragment part of a local `$ref` (`#/a/b~1c`), percent-decoding first.
    pub fn parse_fragment(fragment: &str) -> Option<Self> {
        let decoded = percent_decode(fragment)?;
        if decoded.is_empty() {
            return Some(Pointer::root());
        }
        let rest = decoded.strip_prefix('/')?;
        // Nearly every ref (`#/$defs/Name`) holds no `~`: its text is already
        // the pointer as written, and only the segment ends are to be found.
        // Splitting, unescaping and escaping each segment again was most of
        // resolving a ref.
        if !rest.as_bytes().contains(&b'~') {
            let mut ends: Vec<usize> = rest.bytes().enumerate().filter(|&(_, b)| b == b'/').map(|(i, _)| i + 1).collect();
            ends.push(decoded.len());
            return Some(Pointer { buf: decoded.into_owned(), ends });
        }
        let mut p = Pointer::root();
        for s in rest.split('/') {
            p.push(unescape(s));
        }
        Some(p)
    }

    /// Is `other` this pointer or one of its ancestors?
    pub fn starts_with(&self, other: &Pointer) -> bool {
        other.ends.len() <= self.ends.len() && within(&self.buf, &other.buf)
    }
}

/// Is the rendered pointer `p` the rendered pointer `of` or below it?
pub fn within(p: &str, of: &str) -> bool {
    p.starts_with(of) && (p.len() == of.len() || p.as_bytes()[of.len()] == b'/')
}

impl fmt::Display for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.buf)
    }
}

/// A segment as a pointer writes it, `~` as `~0` and `/` as `~1`; borrowed
/// when it holds neither.
#[inline]
pub(crate) fn escape(seg: &str) -> std::borrow::Cow<'_, str> {
    if needs_escape(seg.as_bytes()) {
        std::borrow::Cow::Owned(seg.replace('~', "~0").replace('/', "~1"))
    } else {
        std::borrow::Cow::Borrowed(seg)
    }
}

/// A segment as written in a pointer, with `~1` and `~0` undone; borrowed
/// when it holds no `~`.
pub(crate) fn unescape(seg: &str) -> std::borrow::Cow<'_, str> {
    if seg.contains('~') {
        std::borrow::Cow::Owned(seg.replace("~1", "/").replace("~0", "~"))
    } else {
        std::borrow::Cow::Borrowed(seg)
    }
}

/// Whether `seg` holds a `~` or a `/`, eight bytes at a time: the walks push
/// every key they pass, and nearly none holds either.
fn needs_escape(seg: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // Nonzero exactly when some byte of `word` equals `byte` (a zero byte of
    // the xor is the only one whose subtraction borrows into its high bit
    // while its own high bit is clear).
    let has = |word: u64, byte: u8| {
        let x = word ^ (ONES * u64::from(byte));
        x.wrapping_sub(ONES) & !x & HIGHS != 0
    };
    let mut words = seg.chunks_exact(8);
    for w in &mut words {
        let word = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        if has(word, b'~') || has(word, b'/') {
            return true;
        }
    }
    words.remainder().iter().any(|&b| b == b'~' || b == b'/')
}

fn percent_decode(s: &str) -> Option<std::borrow::Cow<'_, str>> {
    if !s.contains('%') {
        return Some(std::borrow::Cow::Borrowed(s));
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok().map(std::borrow::Cow::Owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_scan_finds_every_tilde_and_slash() {
        for len in 0..40 {
            let plain: Vec<u8> = (0..len).map(|i| b"abcdefghijklmnopqrstuvwxyz0123456789\x7f\xff"[i % 38]).collect();
            assert!(!needs_escape(&plain), "{len}");
            for at in 0..len {
                for special in [b'~', b'/'] {
                    let mut s = plain.clone();
                    s[at] = special;
                    assert!(needs_escape(&s), "{len} {at} {special}");
                }
            }
        }
        // Bytes next to the two in value, and every byte, one at a time.
        for b in 0..=255u8 {
            assert_eq!(needs_escape(&[b; 9]), b == b'~' || b == b'/', "{b}");
        }
    }

    #[test]
    fn escapes_round_trip() {
        let p = Pointer::parse_fragment("/a~1b/c~0d/%25").unwrap();
        assert_eq!(p.segments(), ["a/b", "c~d", "%"]);
        assert_eq!(p.to_string(), "/a~1b/c~0d/%");
    }

    #[test]
    fn raw_segments_stay_escaped_and_append_copies_them() {
        let p = Pointer::parse_fragment("/a~1b/$defs/c~0d").unwrap();
        assert_eq!(p.raw_segments(0).collect::<Vec<_>>(), ["a~1b", "$defs", "c~0d"]);
        assert_eq!(p.raw_segments(2).collect::<Vec<_>>(), ["c~0d"]);
        assert_eq!(p.raw_segments(3).count(), 0);
        assert_eq!(p.raw_segments(9).count(), 0);
        let mut q = Pointer::root().child("x/y");
        q.append(&p);
        assert_eq!(q.segments(), ["x/y", "a/b", "$defs", "c~d"]);
        assert_eq!(q.as_str(), "/x~1y/a~1b/$defs/c~0d");
        q.pop();
        assert_eq!(q.as_str(), "/x~1y/a~1b/$defs");
    }

    #[test]
    fn fragments_need_a_leading_slash() {
        assert!(Pointer::parse_fragment("a").is_none());
        assert_eq!(Pointer::parse_fragment("/a~1b/0").unwrap().segments(), ["a/b", "0"]);
    }

    /// A fragment without `~` is taken as written: the same pointer as
    /// pushing its segments one by one.
    #[test]
    fn plain_fragments_equal_their_segments_pushed() {
        for fragment in ["", "/", "//", "/a", "/$defs/Name", "/a//b/", "/properties/x/items/0", "/%24defs/A%20B", "/é/漢字"] {
            let p = Pointer::parse_fragment(fragment).unwrap();
            let mut q = Pointer::root();
            for s in percent_decode(fragment).unwrap().split('/').skip(1) {
                q.push(s);
            }
            assert_eq!(p, q, "{fragment:?}");
            assert_eq!((p.as_str(), p.len()), (q.as_str(), q.len()), "{fragment:?}");
        }
    }

    #[test]
    fn pushed_indexes_read_as_their_decimal_text() {
        let (mut a, mut b) = (Pointer::root(), Pointer::root());
        for i in [0, 7, 10, 1234, usize::MAX] {
            a.push_index(i);
            b.push(i.to_string());
        }
        assert_eq!(a, b);
        assert_eq!(a.to_string(), format!("/0/7/10/1234/{}", usize::MAX));
    }
}
