//! JSON text in: serde_json's parse behind a depth guard. Every entry point
//! that reads text (api, the fail-open rerun, tool lists, arguments) parses
//! here, so nesting is refused before any recursive parser or destructor
//! sees it.
use crate::error::Error;
use crate::walk;
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
        let depth = walk::json_depth(input);
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
    if depth.saturating_mul(PARSE_STACK_PER_LEVEL) > walk::stack_left().saturating_sub(walk::STACK_RESERVE) {
        return Err(Error::StackExhausted { pointer: Default::default(), depth });
    }
    Ok(())
}
