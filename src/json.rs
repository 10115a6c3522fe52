//! JSON text in: serde_json's parse behind a depth guard (the nesting count
//! of a text, the shadow stack left), which the walks use too. Every entry point
//! that reads text (api, the fail-open rerun, tool lists, arguments) parses
//! here, so nesting is refused before any recursive parser or destructor
//! sees it.
use crate::error::Error;
use serde::Deserialize;
use crate::doc::Value;

/// Shadow stack one level of serde_json's parse takes in the wasm build, with
/// room to spare: measured about 500 bytes (2 MiB ran out at 4,200 levels).
const PARSE_STACK_PER_LEVEL: usize = 768;

/// Parses JSON text, refusing nesting deeper than `max_depth` before any
/// recursive parser sees it.
pub fn parse(input: &str, max_depth: usize) -> Result<Value, Error> {
    // Nesting is at most the number of `{` and `[` bytes, strings included:
    // when that count passes both limits, so does the depth, and the exact
    // scan (which steps through every string) is not needed. It is counted
    // in one tight loop; a schema rarely opens more than a few hundred.
    let openers = input.bytes().filter(|&b| b == b'{' || b == b'[').count();
    if openers > max_depth || fits_stack(openers).is_err() {
        let depth = json_depth(input);
        if depth > max_depth {
            return Err(Error::TooDeep { pointer: Default::default(), limit: max_depth });
        }
        fits_stack(depth)?;
    }
    let mut de = serde_json::Deserializer::from_str(input);
    de.disable_recursion_limit();
    let v = Value::deserialize(&mut de).map_err(|e| Error::InvalidJson { message: e.to_string() })?;
    de.end().map_err(|e| Error::InvalidJson { message: e.to_string() })?;
    Ok(v)
}

/// Whether a value nesting `depth` levels can be built and dropped on what
/// is left of the stack. serde_json recurses once per level, with no hook to
/// stop it: what the stack can hold is decided before (tests/js/hostile.test.mjs
/// parses up to 100,000 levels with maxDepth raised, so a larger frame shows as
/// a trap).
pub(crate) fn fits_stack(depth: usize) -> Result<(), Error> {
    if depth.saturating_mul(PARSE_STACK_PER_LEVEL) > stack_left().saturating_sub(STACK_RESERVE) {
        return Err(Error::StackExhausted { pointer: Default::default(), depth });
    }
    Ok(())
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
    fn depth_scan_ignores_brackets_in_strings() {
        assert_eq!(json_depth(r#"{"a":"{{[[\"]]","b":[{}]}"#), 3);
        assert_eq!(json_depth(r#"{"a":"\\","b":[[{}]]}"#), 4);
        assert_eq!(json_depth(r#"[{"a":"[[[\\\"[[["}]"#), 2);
        // Unterminated strings and escapes at the very end stop the scan, not the process.
        assert_eq!(json_depth(r#"[["abc"#), 2);
        assert_eq!(json_depth(r#"[["abc\"#), 2);
        assert_eq!(json_depth(""), 0);
    }
}
