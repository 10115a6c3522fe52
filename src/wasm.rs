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

/// `normalizeJson` without the report: `{"schema", "strict"?, "strictError"?}`.
#[wasm_bindgen(js_name = normalizeSchemaJson)]
pub fn normalize_schema_json(input: &str, target: &str, options: &str) -> String {
    crate::api::normalize_schema_json(input, target, options)
}

/// Normalize every schema of a tool list (JSON text); `options` (JSON text)
/// carries `target`. Payload: `{"tools", "telemetry"}`.
#[wasm_bindgen(js_name = normalizeToolsJson)]
pub fn normalize_tools_json(input: &str, options: &str) -> String {
    crate::api::normalize_tools_json(input, options)
}

/// A tool list or request body (JSON text) with every tool normalized, as
/// JSON text of the same shape; `options` (JSON text) carries `target`.
/// Answer: `o` + telemetry JSON (when asked) + newline + body, or `e` + envelope.
#[wasm_bindgen(js_name = normalizeToolsText)]
pub fn normalize_tools_text(input: &str, options: &str, telemetry: bool) -> String {
    crate::api::normalize_tools_text(input, options, telemetry)
}

/// WordPress: compile an ability schema for `target` (openai, anthropic,
/// google, default). Payload: `{"schema", "strict"?, "report"}`.
#[wasm_bindgen(js_name = compileAbilityJson)]
pub fn compile_ability_json(input: &str, target: &str, options: &str) -> String {
    crate::api::compile_ability_json(input, target, options)
}

/// WordPress authoring guidance. Payload: `[{"code", "pointer", "message"}]`.
#[wasm_bindgen(js_name = lintJson)]
pub fn lint_json(input: &str) -> String {
    crate::api::lint_json(input)
}

/// The target for `{provider, model, api, strict}` (JSON text). Payload: the id.
#[wasm_bindgen(js_name = targetForJson)]
pub fn target_for_json(route: &str) -> String {
    crate::api::target_for_json(route)
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

/// Undo what `target` did to the argument shape (JSON text in). Payload:
/// `{"args", "report"}`.
#[wasm_bindgen(js_name = restoreArgumentsJson)]
pub fn restore_arguments_json(args: &str, original: &str, target: &str, options: &str) -> String {
    crate::api::restore_arguments_json(args, original, target, options)
}

/// Coercions the original schema justifies. Payload: `{"args", "report"}`.
#[wasm_bindgen(js_name = repairArgumentsJson)]
pub fn repair_arguments_json(args: &str, original: &str, options: &str) -> String {
    crate::api::repair_arguments_json(args, original, options)
}

/// Validate against the original. Payload: `{"valid", "errors", "unchecked"}`.
#[wasm_bindgen(js_name = validateArgumentsJson)]
pub fn validate_arguments_json(args: &str, original: &str, options: &str) -> String {
    crate::api::validate_arguments_json(args, original, options)
}

/// Restore, repair, validate. Payload: `{"ok", "args", "errors", "report", "message"?}`.
#[wasm_bindgen(js_name = prepareToolCallJson)]
pub fn prepare_tool_call_json(args: &str, original: &str, target: &str, options: &str) -> String {
    crate::api::prepare_tool_call_json(args, original, target, options)
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

/// Boundary experiments for `bench/boundary.mjs`, compiled only with
/// `RUSTFLAGS="--cfg toolschema_bench"` (never in the published .wasm). They
/// time the three ways a schema can cross: JSON text (what ships), objects
/// converted by serde-wasm-bindgen's `json_compatible` serializer, and a
/// hand-written walk of the JS objects through `js_sys`. Each direction is
/// separate: `benchStore` parks a parsed value so the `benchOut*` exports
/// time only the way back.
// The cfg is set only by bench/build-boundary.sh; allowed here rather than
// declared in Cargo.toml, as nothing else in the crate knows about it.
#[allow(unexpected_cfgs)]
mod gate {
    #[cfg(toolschema_bench)]
    mod boundary_bench {
        use js_sys::{Array, Object, Reflect};
        use serde::Serialize;
        use serde_json::{Map, Number, Value};
        use std::cell::RefCell;
        use wasm_bindgen::prelude::*;
        use wasm_bindgen::JsCast;

        thread_local! {
            static STORED: RefCell<Vec<Value>> = const { RefCell::new(Vec::new()) };
        }

        fn size(v: &Value) -> usize {
            match v {
                Value::Object(m) => m.len(),
                Value::Array(a) => a.len(),
                _ => 1,
            }
        }

        /// Parses JSON text and keeps it for the `benchOut*` exports; returns its index.
        #[wasm_bindgen(js_name = benchStore)]
        pub fn store(text: &str) -> usize {
            let v = crate::api::parse(text, usize::MAX).unwrap_or(Value::Null);
            STORED.with(|s| {
                let mut s = s.borrow_mut();
                s.push(v);
                s.len() - 1
            })
        }

        /// Drops every stored value.
        #[wasm_bindgen(js_name = benchClear)]
        pub fn clear() {
            STORED.with(|s| s.borrow_mut().clear());
        }

        /// JSON text in: the depth pre-scan and `serde_json` parse the shipped path does.
        #[wasm_bindgen(js_name = benchInJson)]
        pub fn in_json(text: &str) -> usize {
            crate::api::parse(text, 256).map(|v| size(&v)).unwrap_or(0)
        }

        /// Objects in through serde-wasm-bindgen.
        #[wasm_bindgen(js_name = benchInSwb)]
        pub fn in_swb(v: JsValue) -> usize {
            serde_wasm_bindgen::from_value::<Value>(v)
                .map(|v| size(&v))
                .unwrap_or(0)
        }

        /// Objects in through a direct walk (`Object.keys` + `Reflect.get`).
        #[wasm_bindgen(js_name = benchInWalk)]
        pub fn in_walk(v: JsValue) -> usize {
            size(&from_js(&v))
        }

        /// The stored value `i` out as JSON text.
        #[wasm_bindgen(js_name = benchOutJson)]
        pub fn out_json(i: usize) -> String {
            STORED.with(|s| serde_json::to_string(&s.borrow()[i]).unwrap_or_default())
        }

        /// The stored value `i` out as objects, through serde-wasm-bindgen.
        #[wasm_bindgen(js_name = benchOutSwb)]
        pub fn out_swb(i: usize) -> JsValue {
            STORED.with(|s| {
                s.borrow()[i]
                    .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
                    .unwrap_or(JsValue::NULL)
            })
        }

        /// The stored value `i` out as objects built through `js_sys`.
        #[wasm_bindgen(js_name = benchOutWalk)]
        pub fn out_walk(i: usize) -> JsValue {
            STORED.with(|s| to_js(&s.borrow()[i]))
        }

        /// The whole pipeline with objects both ways (serde-wasm-bindgen), the
        /// payload or `{error}` as an object.
        #[wasm_bindgen(js_name = benchNormalizeSwb)]
        pub fn normalize_swb(input: JsValue, target: &str, options: &str) -> JsValue {
            let ser = serde_wasm_bindgen::Serializer::json_compatible();
            let run = || -> Result<JsValue, crate::Error> {
                let opts = crate::Options::from_json(options)?;
                let target =
                    crate::targets::get(target).ok_or_else(|| crate::Error::UnknownTarget {
                        target: target.to_string(),
                    })?;
                let schema: Value = serde_wasm_bindgen::from_value(input).map_err(|e| {
                    crate::Error::InvalidJson {
                        message: e.to_string(),
                    }
                })?;
                let out = crate::normalize(&schema, target, &opts)?;
                Ok(out.serialize(&ser).unwrap_or(JsValue::NULL))
            };
            run().unwrap_or_else(|e| {
                serde_json::json!({"error": {"code": e.code(), "message": e.to_string()}})
                    .serialize(&ser)
                    .unwrap_or(JsValue::NULL)
            })
        }

        fn from_js(v: &JsValue) -> Value {
            if let Some(s) = v.as_string() {
                return Value::String(s);
            }
            if let Some(n) = v.as_f64() {
                // Integers stay integers, as JSON.parse + serde_json would keep them.
                return if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
                    Value::Number((n as i64).into())
                } else {
                    Number::from_f64(n).map_or(Value::Null, Value::Number)
                };
            }
            if let Some(b) = v.as_bool() {
                return Value::Bool(b);
            }
            if v.is_null() || v.is_undefined() {
                return Value::Null;
            }
            if Array::is_array(v) {
                let a: &Array = v.unchecked_ref();
                return Value::Array((0..a.length()).map(|i| from_js(&a.get(i))).collect());
            }
            let o: &Object = v.unchecked_ref();
            let mut m = Map::new();
            for k in Object::keys(o).iter() {
                let val = Reflect::get(o, &k).unwrap_or(JsValue::NULL);
                m.insert(k.as_string().unwrap_or_default(), from_js(&val));
            }
            Value::Object(m)
        }

        fn to_js(v: &Value) -> JsValue {
            match v {
                Value::Null => JsValue::NULL,
                Value::Bool(b) => JsValue::from_bool(*b),
                Value::Number(n) => JsValue::from_f64(n.as_f64().unwrap_or(0.0)),
                Value::String(s) => JsValue::from_str(s),
                Value::Array(a) => a.iter().map(to_js).collect::<Array>().into(),
                Value::Object(m) => {
                    let o = Object::new();
                    for (k, val) in m {
                        let _ = Reflect::set(&o, &JsValue::from_str(k), &to_js(val));
                    }
                    o.into()
                }
            }
        }
    }
}
