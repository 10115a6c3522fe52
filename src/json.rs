//! JSON text in: the core's own parse (`doc::parse_value`, which builds the
//! value without recursion) behind a depth guard (the nesting count of a text,
//! the shadow stack left), which the walks use too. Every entry point that
//! reads text (api, the fail-open rerun, tool lists, arguments) parses here,
//! so nesting is refused before any recursive walk or destructor sees it.
use crate::error::Error;
use crate::doc::Value;

/// Shadow stack kept per level of a value, with room to spare: measured for
/// serde_json's recursive parse when it was the parse here (about 500 bytes;
/// 2 MiB ran out at 4,200 levels), and kept, so the depths refused stay the
/// same. What recurses now is the drop and the walks after the parse.
const PARSE_STACK_PER_LEVEL: usize = 768;

/// Parses JSON text, refusing nesting deeper than `max_depth` before any
/// recursive walk or destructor sees it.
pub fn parse(input: &str, max_depth: usize) -> Result<Value, Error> {
    parse_capped(input, max_depth, crate::doc::parse_value_within)
}

/// `within_depth`, then `read(input, usize::MAX)`, with the scan skipped for
/// text that reads: `read` builds nothing nested deeper than the cap it is
/// given (the depth allowed, a level short of what the stack holds, so never
/// past what `within_depth` allows) and answers `None` past it. Only when it
/// stops or fails does the scan run and word a depth error, which a text too
/// deep gets whatever else is wrong with it, as when the scan came first.
pub(crate) fn parse_capped<T>(input: &str, max_depth: usize, read: impl Fn(&str, usize) -> Result<Option<T>, Error>) -> Result<T, Error> {
    let cap = max_depth.min(stack_depth().saturating_sub(1));
    match read(input, cap) {
        Ok(Some(value)) => Ok(value),
        Ok(None) => {
            within_depth(input, max_depth)?;
            read(input, usize::MAX).map(|value| value.expect("no depth cap"))
        }
        Err(e) => {
            within_depth(input, max_depth)?;
            Err(e)
        }
    }
}

/// Refuses text nesting deeper than `max_depth`, or deeper than the stack
/// left can walk and drop: `parse`'s guard, for parses made elsewhere.
pub(crate) fn within_depth(input: &str, max_depth: usize) -> Result<(), Error> {
    // Nesting is at most the number of `{` and `[` bytes, strings included:
    // when that count passes both limits, so does the depth, and the exact
    // scan (which steps through every string) is not needed. It is counted
    // eight bytes at a time; a schema rarely opens more than a few hundred.
    let openers = openers(input.as_bytes());
    if openers > max_depth || fits_stack(openers).is_err() {
        let depth = json_depth(input);
        if depth > max_depth {
            return Err(Error::TooDeep { pointer: Default::default(), limit: max_depth });
        }
        fits_stack(depth)?;
    }
    Ok(())
}

/// How many `{` and `[` bytes `bytes` holds, eight at a time. The two differ
/// only in bit 5 (0x7B, 0x5B), and no other byte becomes 0x7B when that bit is
/// set, so one compare per byte counts both. A loop over the bytes took about
/// 3% of a whole call's instructions on the real MCP schemas.
fn openers(bytes: &[u8]) -> usize {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const LOW7: u64 = ONES * 0x7F;
    let mut chunks = bytes.chunks_exact(8);
    let mut count = 0usize;
    for chunk in &mut chunks {
        let word = u64::from_ne_bytes([chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7]]);
        // Zero exactly in the bytes that are `{` or `[`.
        let x = (word | (ONES * 0x20)) ^ (ONES * 0x7B);
        // High bit set exactly in the nonzero bytes (no carry crosses a byte).
        let nonzero = ((x & LOW7) + LOW7) | x;
        count += (!nonzero & (ONES * 0x80)).count_ones() as usize;
    }
    count + chunks.remainder().iter().filter(|&&b| b | 0x20 == b'{').count()
}

/// Whether a value nesting `depth` levels can be walked and dropped on what
/// is left of the stack. Dropping a value recurses once per level, with no
/// hook to stop it: what the stack can hold is decided before
/// (tests/js/hostile.test.mjs parses up to 100,000 levels with maxDepth
/// raised, so a larger frame shows as a trap).
pub(crate) fn fits_stack(depth: usize) -> Result<(), Error> {
    if depth.saturating_mul(PARSE_STACK_PER_LEVEL) > stack_left().saturating_sub(STACK_RESERVE) {
        return Err(Error::StackExhausted { pointer: Default::default(), depth });
    }
    Ok(())
}

/// The deepest nesting `fits_stack` accepts here.
pub(crate) fn stack_depth() -> usize {
    stack_left().saturating_sub(STACK_RESERVE) / PARSE_STACK_PER_LEVEL
}

/// Shadow stack kept free below the deepest `enter`: room for one node's rules
/// and for the shallower recursions (serializing, dropping) over the same depth.
pub(crate) const STACK_RESERVE: usize = 128 * 1024;

/// Bytes left on the shadow stack. In wasm it grows down toward address 0
/// (rustc links the stack first), so a local's address is what is left; running
/// out is a trap that cannot be told from a bug, where this check is an error.
/// Natively the thread's stack is the process's concern: no limit here.
#[inline(always)]
pub(crate) fn stack_left() -> usize {
    #[cfg(target_arch = "wasm32")]
    {
        let probe = 0u8;
        std::hint::black_box(&probe) as *const u8 as usize
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        usize::MAX
    }
}

/// Deepest JSON nesting in `text`, counted without parsing (brackets outside
/// strings). Lets the API refuse a too-deep document before any recursive
/// parser or destructor touches it. Most of a schema's text is inside strings
/// (descriptions), which are skipped to their closing quote by `memchr`.
pub fn json_depth(text: &str) -> usize {
    let bytes = text.as_bytes();
    let (mut depth, mut max, mut i) = (0usize, 0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                // To the closing quote: past every escape, whatever it escapes.
                i += 1;
                loop {
                    match memchr::memchr2(b'"', b'\\', bytes.get(i..).unwrap_or_default()) {
                        Some(at) if bytes[i + at] == b'\\' => i += at + 2,
                        Some(at) => {
                            i += at;
                            break;
                        }
                        None => return max,
                    }
                }
            }
            b'{' | b'[' => {
                depth += 1;
                max = max.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    max
}

#[cfg(test)]
mod tests {
    use super::json_depth;

    #[test]
    fn openers_counts_every_brace_and_bracket() {
        // Every byte value at every position of a chunk and of the remainder.
        for len in 0..20 {
            for b in 0..=255u8 {
                for at in 0..len {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = b;
                    bytes[len - 1 - at] = if b == b'[' { b'{' } else { b };
                    let expected = bytes.iter().filter(|&&c| c == b'{' || c == b'[').count();
                    assert_eq!(super::openers(&bytes), expected, "byte {b:#x} at {at} of {len}");
                }
            }
        }
        assert_eq!(super::openers(br#"{"a":[{"b":"[{x"}],"c":{}}"#), 6);
    }

    #[test]
    fn depth_scan_ignores_brackets_in_strings() {
        assert_eq!(json_depth(r#"{"a":"{{[[\"]]","b":[{}]}"#), 3);
        assert_eq!(json_depth(r#"{"a":"\\","b":[[{}]]}"#), 4);
        assert_eq!(json_depth(r#"[{"a":"[[[\\\"[[["}]"#), 2);
        // Unterminated strings and escapes at the very end stop the scan, not the process.
        assert_eq!(json_depth(r#"[["abc"#), 2);
        assert_eq!(json_depth(r#"[["abc\"#), 2);
        assert_eq!(json_depth(""), 0);
    }

    /// What the scan first, then the parse, answered: `parse` skips the scan
    /// for text that reads within the cap, and gives the same answers.
    #[test]
    fn parse_answers_as_the_scan_then_the_parse() {
        let scan_first = |text: &str, max: usize| super::within_depth(text, max).and_then(|()| crate::doc::parse_value(text));
        let nest = |n: usize, inner: &str| format!("{}{inner}{}", "[".repeat(n), "]".repeat(n));
        let mut texts = vec![];
        for n in [0, 1, 3, 4, 5, 9] {
            for inner in ["", "1", r#"{"a":"[[[[[["}"#, "1,", "}", r#"{"a":1,"a":[[]]}"#] {
                texts.push(nest(n, inner));
                // Deep, then malformed: the depth is the error, as the scan found it first.
                texts.push(format!("{}x", nest(n, inner)));
                texts.push(format!("[x,{}]", nest(n, inner)));
            }
        }
        texts.push(format!("{}{}", "[".repeat(8), "x"));
        texts.push(format!(r#"{{"$defs":{{"a":{}}},"b":1}}"#, nest(6, "")));
        for text in &texts {
            for max in [0, 1, 4, 5, 6, 8, 100] {
                assert_eq!(format!("{:?}", super::parse(text, max)), format!("{:?}", scan_first(text, max)), "{text:?} within {max}");
                let reached = |t: &str, m: usize| super::within_depth(t, m).and_then(|()| crate::refs::parse_reached(t));
                let schema = crate::pipeline::parse_schema(text, max);
                assert_eq!(format!("{schema:?}"), format!("{:?}", reached(text, max)), "{text:?} within {max}, as a schema");
            }
        }
    }
}
