//! Boundary experiments for `bench/boundary.mjs`, compiled only for wasm32 with
//! `RUSTFLAGS="--cfg toolschema_bench"` (bench/build-boundary.sh), never in the
//! published .wasm. They time the three ways a schema can cross: JSON text (what
//! ships), objects converted by serde-wasm-bindgen's `json_compatible` serializer,
//! and a hand-written walk of the JS objects through `js_sys`. Each direction is
//! separate: `benchStore` parks a parsed value so the `benchOut*` exports time
//! only the way back. Kept out of src/wasm.rs, which holds the shipped exports only.
use js_sys::{Array, Object, Reflect};
use serde::Serialize;
use crate::doc::{Map, Number, Value};
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

/// JSON text in and out through the document model alone, in the call
/// arena as the shipped exports run: the depth pre-scan, the `Value` parse
/// and the writer, no rule. What every call pays before its target's work
/// (bench/boundary.mjs sets it against `normalizeSchemaJson`).
#[wasm_bindgen(js_name = benchRoundTrip)]
pub fn round_trip(text: &str) -> String {
    crate::arena::ALLOC.call(|| crate::api::parse(text, 256).map(|v| crate::doc::json_text(&v)).unwrap_or_default())
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
    let run = || -> Result<JsValue, crate::error::Error> {
        let opts = crate::options::Options::from_json(options)?;
        let target = crate::targets::get(target).ok_or_else(|| crate::targets::unknown(target))?;
        let schema: Value =
            serde_wasm_bindgen::from_value(input).map_err(|e| crate::error::Error::InvalidJson {
                message: e.to_string(),
            })?;
        let out = crate::pipeline::normalize(&schema, target, &opts)?;
        Ok(out.serialize(&ser).unwrap_or(JsValue::NULL))
    };
    run().unwrap_or_else(|e| {
        crate::json!({"error": {"code": e.code(), "message": e.to_string()}})
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
        m.insert(k.as_string().unwrap_or_default().into(), from_js(&val));
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
