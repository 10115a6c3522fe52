//! How fuzz input bytes become a call: a three-byte header picks the target
//! and the options, the rest is the schema text. Keeping the header first lets
//! libFuzzer mutate the choice of target and options independently of the
//! schema, and the seed corpus (fuzz/seed.mjs) writes the same layout.
#![allow(dead_code)]

use serde_json::{json, Value};
use toolschema::targets::{self, Target};

pub const HEADER: usize = 3;

/// Keywords `stripKeywords` may name; index 0 means "none".
const STRIP: &[&str] = &["", "description", "format", "anyOf", "properties", "items", "enum", "required", "$ref", "type"];

pub struct Call<'a> {
    pub target: &'static Target,
    pub options: Value,
    pub text: &'a str,
}

/// byte 0: target index; byte 1: option bits; byte 2: depth and stripKeywords.
pub fn decode(data: &[u8]) -> Option<Call<'_>> {
    if data.len() < HEADER {
        return None;
    }
    // Non-UTF-8 never reaches the core: both JS and Rust callers hold strings.
    let text = std::str::from_utf8(&data[HEADER..]).ok()?;
    let target = targets::TARGETS[data[0] as usize % targets::TARGETS.len()];
    let bits = data[1];
    let mut options = serde_json::Map::new();
    match bits & 0b11 {
        1 => drop(options.insert("spill".into(), json!("paren"))),
        2 => drop(options.insert("spill".into(), json!("none"))),
        _ => {}
    }
    if bits & 0b100 != 0 {
        options.insert("stripStrictConstraints".into(), json!(true));
    }
    if bits & 0b1000 != 0 {
        options.insert("strictStage".into(), json!("sanitize"));
    }
    if bits & 0b1_0000 != 0 {
        options.insert("strictUnresolvedRefs".into(), json!(true));
    }
    let recursion = (bits >> 5) & 0b11;
    if recursion != 1 {
        options.insert("maxRecursion".into(), json!(recursion));
    }
    if bits & 0b1000_0000 != 0 {
        // Small budgets reach the coarsening paths with small inputs.
        options.insert("sizeBudget".into(), json!(40));
        options.insert("maxInlineDepth".into(), json!(2));
    }
    let more = data[2];
    match more & 0b11 {
        1 => drop(options.insert("maxDepth".into(), json!(12))),
        2 => drop(options.insert("maxDepth".into(), json!(40))),
        _ => {}
    }
    let strip = STRIP[(more >> 2) as usize % STRIP.len()];
    if !strip.is_empty() {
        options.insert("stripKeywords".into(), json!([strip]));
    }
    Some(Call { target, options: Value::Object(options), text })
}

/// The error codes README.md documents for the Rust core.
pub const DOCUMENTED_ERRORS: &[&str] = &[
    "invalid-json",
    "not-a-schema",
    "unknown-target",
    "invalid-options",
    "too-deep",
    "too-large",
    "unresolved-ref",
    "strict-unrepresentable",
];

/// Parses an envelope; panics (a fuzz finding) unless it is `{"ok"}` or a
/// documented `{"error"}` with a message.
pub fn envelope(out: &str, what: &str) -> Result<Value, String> {
    let v: Value = parse_deep(out).unwrap_or_else(|e| panic!("{what}: the envelope is not JSON ({e}): {out:.400}"));
    if let Some(err) = v.get("error") {
        let code = err["code"].as_str().unwrap_or_else(|| panic!("{what}: error without a code: {err}"));
        assert!(DOCUMENTED_ERRORS.contains(&code), "{what}: undocumented error code {code:?}: {err}");
        assert!(err["message"].as_str().is_some_and(|m| !m.is_empty()), "{what}: error without a message: {err}");
        assert!(err["pointer"].is_string(), "{what}: error without a pointer: {err}");
        return Err(code.to_string());
    }
    Ok(v.get("ok").unwrap_or_else(|| panic!("{what}: neither ok nor error: {out:.400}")).clone())
}

/// The core's output can nest deeper than serde_json's default limit of 128
/// (maxDepth is 256); parse it without the limit, as the core does.
pub fn parse_deep(text: &str) -> serde_json::Result<Value> {
    use serde::Deserialize;
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let v = Value::deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// Makes a stack overflow a saved crash. Without a sanitizer, libFuzzer's
/// SIGSEGV handler runs on the overflowed stack and dies before writing the
/// input (libFuzzer's main is not Rust's, so std's guard-page handler is not
/// installed either). Called from `fuzz_target!`'s init, which runs before
/// libFuzzer installs its handlers: libFuzzer keeps an existing SIGSEGV
/// handler as its upstream and keeps SA_ONSTACK. Ours runs on an alternate
/// stack and raises SIGABRT, whose handler (libFuzzer's crash callback) then
/// also runs there and writes `crash-<sha1>`.
pub fn catch_stack_overflow() {
    extern "C" fn on_segv(_: libc::c_int, _: *mut libc::siginfo_t, _: *mut libc::c_void) {
        let msg = b"\n==toolschema-fuzz== SIGSEGV (stack overflow: safe Rust has no other cause); saving the input\n";
        // SAFETY: async-signal-safe calls only; raise does not return, and _exit covers it if it did.
        unsafe {
            libc::write(2, msg.as_ptr().cast(), msg.len());
            libc::raise(libc::SIGABRT);
            libc::_exit(139);
        }
    }
    const ALT_STACK: usize = 1 << 20;
    let stack: &'static mut [u8] = Box::leak(vec![0u8; ALT_STACK].into_boxed_slice());
    // SAFETY: a leaked (never freed) buffer becomes this thread's signal stack,
    // and the handler is a plain extern "C" fn.
    unsafe {
        let ss = libc::stack_t { ss_sp: stack.as_mut_ptr().cast(), ss_flags: 0, ss_size: ALT_STACK };
        assert_eq!(libc::sigaltstack(&ss, std::ptr::null_mut()), 0, "sigaltstack");
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_segv as extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) as usize;
        sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        libc::sigemptyset(&mut sa.sa_mask);
        assert_eq!(libc::sigaction(libc::SIGSEGV, &sa, std::ptr::null_mut()), 0, "sigaction");
    }
}
