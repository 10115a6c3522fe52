//! The `#[wasm_bindgen]` boundary: convert and forward, no logic.
//!
//! Every export takes and returns JSON text. Measured against
//! `serde-wasm-bindgen` object conversion, one `JSON.stringify` +
//! one `serde_json` parse is the cheaper crossing for schema-sized
//! values, and JSON text keeps `__proto__` as an ordinary own key.
//!
//! Each export returns an envelope: `{"ok": <payload>}` or
//! `{"error": {"code", "pointer", "message"}}`. The JS shim turns the
//! second form into a `ToolSchemaError`.
use wasm_bindgen::prelude::*;

#[wasm_bindgen(start, skip_typescript)]
fn start() {
    console_error_panic_hook::set_once();
}

/// Normalize one schema (JSON text) for `target` with `options` (JSON text,
/// may be empty). Payload: `{"schema", "strict"?, "report"}`.
#[wasm_bindgen(js_name = normalizeJson)]
pub fn normalize_json(input: &str, target: &str, options: &str) -> String {
    crate::api::normalize_json(input, target, options)
}

/// Check one schema (JSON text) against `target`'s acceptance rules.
/// Payload: `[{"code", "pointer", "message"}]`.
#[wasm_bindgen(js_name = checkJson)]
pub fn check_json(input: &str, target: &str) -> String {
    crate::api::check_json(input, target)
}

/// The targets this build knows. Payload: `[{"id", "description", "source"}]`.
#[wasm_bindgen(js_name = targetsJson)]
pub fn targets_json() -> String {
    crate::api::targets_json()
}

/// The crate version.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Panics on purpose, so the shim's trap recovery can be tested.
#[wasm_bindgen(js_name = __panicForTest)]
pub fn panic_for_test() {
    panic!("deliberate panic for the trap-recovery test");
}
