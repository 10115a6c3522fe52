//! Option objects (JSON text a caller passes) read member by member, for
//! `Options`, `args::RestoreOptions` and `route::Route`. Each type keeps
//! serde's `Deserialize` for the Rust API; the JSON entry points read through
//! here, so the wasm module carries no serde_json deserializer and no
//! derived visitors (tests/settings.rs holds both readings equal).
//!
//! What serde's derive did, kept: an unknown name is an error (a typo never
//! silently does nothing), a missing member takes its default, `null` is
//! "not given" only where a member is optional, and a number must be a
//! non-negative integer as written (`5.0` is not one). A repeated name takes
//! its last value, as everywhere else a JSON object is read.
use crate::doc::{Map, Value};
use crate::error::Error;

/// Deepest options text read: the restore options hold the normalization
/// options, two levels; past this it is not options.
const MAX_DEPTH: usize = 32;

/// The object `text` holds (blank text is no options: the empty object), or
/// an `invalid-options` error saying why not.
pub(crate) fn object(text: &str, what: &str) -> Result<Map, Error> {
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match crate::json::parse(text, MAX_DEPTH) {
        Ok(Value::Object(members)) => Ok(members),
        Ok(other) => Err(invalid(format!("{what} must be a JSON object, got {}", kind(&other)))),
        Err(Error::InvalidJson { message }) => Err(invalid(format!("{what} are not JSON: {message}"))),
        Err(Error::TooDeep { .. } | Error::StackExhausted { .. }) => Err(invalid(format!("{what} nest deeper than {MAX_DEPTH} levels"))),
        Err(e) => Err(e),
    }
}

pub(crate) fn invalid(message: String) -> Error {
    Error::InvalidOptions { message }
}

/// An error for a name none of `known` is.
pub(crate) fn unknown(name: &str, known: &[&str]) -> Error {
    invalid(format!("unknown option {name:?}; the options are {}", known.join(", ")))
}

pub(crate) fn flag(name: &str, v: &Value) -> Result<bool, Error> {
    v.as_bool().ok_or_else(|| wrong(name, "true or false", v))
}

/// A non-negative integer that fits the platform's `usize`.
pub(crate) fn count(name: &str, v: &Value) -> Result<usize, Error> {
    v.as_u64().and_then(|n| usize::try_from(n).ok()).ok_or_else(|| wrong(name, &format!("an integer from 0 to {}", usize::MAX), v))
}

/// `count`, or `None` for `null`.
pub(crate) fn maybe_count(name: &str, v: &Value) -> Result<Option<usize>, Error> {
    if v.is_null() {
        return Ok(None);
    }
    count(name, v).map(Some)
}

/// A string, or `None` for `null`.
pub(crate) fn maybe_text(name: &str, v: &Value) -> Result<Option<String>, Error> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s.clone())),
        _ => Err(wrong(name, "a string", v)),
    }
}

/// An array of strings.
pub(crate) fn texts(name: &str, v: &Value) -> Result<Vec<String>, Error> {
    let items = v.as_array().ok_or_else(|| wrong(name, "an array of strings", v))?;
    items.iter().map(|item| item.as_str().map(str::to_owned).ok_or_else(|| wrong(name, "an array of strings", v))).collect()
}

/// One of the named `choices`.
pub(crate) fn choice<T: Copy>(name: &str, v: &Value, choices: &[(&str, T)]) -> Result<T, Error> {
    v.as_str().and_then(|s| choices.iter().find(|(c, _)| *c == s)).map(|&(_, t)| t).ok_or_else(|| {
        let names: Vec<String> = choices.iter().map(|(c, _)| format!("{c:?}")).collect();
        wrong(name, &format!("one of {}", names.join(", ")), v)
    })
}

/// An error for a member that is not what `name` takes.
pub(crate) fn wrong(name: &str, wanted: &str, got: &Value) -> Error {
    invalid(format!("option {name:?} must be {wanted}, got {}", kind(got)))
}

/// What a value is, for a message: its kind, and its text when short.
fn kind(v: &Value) -> String {
    let what = match v {
        Value::Null => return "null".into(),
        Value::Array(_) => return "an array".into(),
        Value::Object(_) => return "an object".into(),
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "the number",
        Value::String(_) => "the string",
    };
    let text = crate::doc::json_text(v);
    if text.len() > 60 {
        what.to_string()
    } else {
        format!("{what} {text}")
    }
}
