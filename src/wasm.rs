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
//!
//! Each call runs inside the call arena (src/arena.rs): its allocations
//! come from a region that the next call starts over.
use wasm_bindgen::prelude::*;

use crate::arena::ALLOC;

#[wasm_bindgen(start, skip_typescript)]
fn start() {
    console_error_panic_hook::set_once();
}

/// Normalize one schema (JSON text) for `target` with `options` (JSON text,
/// may be empty). Payload: `{"schema", "strict"?, "report"}`.
#[wasm_bindgen(js_name = normalizeJson)]
pub fn normalize_json(input: &str, target: &str, options: &str) -> String {
    ALLOC.call(|| crate::api::normalize_json(input, target, options))
}

/// `normalizeJson` without the report: `{"schema", "strict"?, "strictError"?}`.
#[wasm_bindgen(js_name = normalizeSchemaJson)]
pub fn normalize_schema_json(input: &str, target: &str, options: &str) -> String {
    ALLOC.call(|| crate::api::normalize_schema_json(input, target, options))
}

/// `normalizeJson` answering `{"shared": payload}`, the schema written with
/// what equals the input's value at the same place as the string "\u0000"
/// (js/share.mjs builds it), or `{"ok": payload}`.
#[wasm_bindgen(js_name = normalizeJsonSharing)]
pub fn normalize_json_sharing(input: &str, target: &str, options: &str) -> String {
    ALLOC.call(|| crate::api::normalize_json_sharing(input, target, options))
}

/// `normalizeSchemaJson` answering as `normalizeJsonSharing` does.
#[wasm_bindgen(js_name = normalizeSchemaJsonSharing)]
pub fn normalize_schema_json_sharing(input: &str, target: &str, options: &str) -> String {
    ALLOC.call(|| crate::api::normalize_schema_json_sharing(input, target, options))
}

/// Normalize every schema of a tool list (JSON text); `options` (JSON text)
/// carries `target`. Payload: `{"tools", "telemetry"}`.
#[wasm_bindgen(js_name = normalizeToolsJson)]
pub fn normalize_tools_json(input: &str, options: &str) -> String {
    ALLOC.call(|| crate::api::normalize_tools_json(input, options))
}

/// `normalizeToolsJson` answering as `normalizeJsonSharing` does.
#[wasm_bindgen(js_name = normalizeToolsJsonSharing)]
pub fn normalize_tools_json_sharing(input: &str, options: &str) -> String {
    ALLOC.call(|| crate::api::normalize_tools_json_sharing(input, options))
}

/// A tool list or request body (JSON text) with every tool normalized, as
/// JSON text of the same shape; `options` (JSON text) carries `target`.
/// Answer: `o` + telemetry JSON (when asked) + newline + body, or `e` + envelope.
#[wasm_bindgen(js_name = normalizeToolsText)]
pub fn normalize_tools_text(input: &str, options: &str, telemetry: bool) -> String {
    ALLOC.call(|| crate::api::normalize_tools_text(input, options, telemetry))
}

/// WordPress: compile an ability schema for `target` (openai, anthropic,
/// google, default). Payload: `{"schema", "strict"?, "report"}`.
#[wasm_bindgen(js_name = compileAbilityJson)]
pub fn compile_ability_json(input: &str, target: &str, options: &str) -> String {
    ALLOC.call(|| crate::api::compile_ability_json(input, target, options))
}

/// WordPress authoring guidance. Payload: `[{"code", "pointer", "message"}]`.
#[wasm_bindgen(js_name = lintJson)]
pub fn lint_json(input: &str) -> String {
    ALLOC.call(|| crate::api::lint_json(input))
}

/// The target for `{provider, model, api, strict}` (JSON text). Payload: the id.
#[wasm_bindgen(js_name = targetForJson)]
pub fn target_for_json(route: &str) -> String {
    ALLOC.call(|| crate::api::target_for_json(route))
}

/// Check one schema (JSON text) against `target`'s acceptance rules.
/// Payload: `[{"code", "pointer", "message"}]`.
#[wasm_bindgen(js_name = checkJson)]
pub fn check_json(input: &str, target: &str) -> String {
    ALLOC.call(|| crate::api::check_json(input, target))
}

/// The targets this build knows. Payload: `[{"id", "description", "source"}]`.
#[wasm_bindgen(js_name = targetsJson)]
pub fn targets_json() -> String {
    ALLOC.call(crate::api::targets_json)
}

/// Undo what `target` did to the argument shape (JSON text in). Payload:
/// `{"args", "report"}`.
#[wasm_bindgen(js_name = restoreArgumentsJson)]
pub fn restore_arguments_json(args: &str, original: &str, target: &str, options: &str) -> String {
    ALLOC.call(|| crate::api::restore_arguments_json(args, original, target, options))
}

/// Coercions the original schema justifies. Payload: `{"args", "report"}`.
#[wasm_bindgen(js_name = repairArgumentsJson)]
pub fn repair_arguments_json(args: &str, original: &str, options: &str) -> String {
    ALLOC.call(|| crate::api::repair_arguments_json(args, original, options))
}

/// Validate against the original. Payload: `{"valid", "errors", "unchecked"}`.
#[wasm_bindgen(js_name = validateArgumentsJson)]
pub fn validate_arguments_json(args: &str, original: &str, options: &str) -> String {
    ALLOC.call(|| crate::api::validate_arguments_json(args, original, options))
}

/// Restore, repair, validate. Payload: `{"ok", "args", "errors", "report", "message"?}`.
#[wasm_bindgen(js_name = prepareToolCallJson)]
pub fn prepare_tool_call_json(args: &str, original: &str, target: &str, options: &str) -> String {
    ALLOC.call(|| crate::api::prepare_tool_call_json(args, original, target, options))
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
