//! The document model (src/doc) against serde_json on arbitrary text (no
//! header: the whole input is the JSON text). Beyond "never panics, never
//! hangs", each input must:
//! - parse exactly when serde_json parses it (`from_str::<Value>`, recursion
//!   limit off, as the JSON entry points parse), and write back the same
//!   bytes as `serde_json::to_string`; or fail with serde_json's message and
//!   position, as `invalid-json`;
//! - nest past the limit only as `too-deep`, at a pointer one segment per
//!   level (it need not resolve afterwards: a later duplicate key replaces
//!   the member it runs through);
//! - parse to the same value with `doc::parse_value`, the parse the JSON
//!   entry points use, or fail with the same message;
//! - as a request body's tools, parse the same with `Doc::parse_capturing`;
//! - as root definitions, parse the same with `refs::parse_reached`;
//! - write text that parses back to itself;
//! - reach every member and item by the pointer `pointer_to` renders for it.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use serde::Deserialize;
use serde_json::Value;
use toolschema::doc::Doc;
use toolschema::Error;

/// Deeper than this, serde_json (which recurses once per level) is not asked:
/// its own stack is not what is under test.
const SERDE_DEPTH: usize = 2_000;
/// The limit the document is parsed with, below `SERDE_DEPTH` so that both
/// sides of the limit are reached.
const LIMIT: usize = 1_000;

fn serde(text: &str) -> Result<String, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    Value::deserialize(&mut de).and_then(|v| de.end().map(|()| v.to_string())).map_err(|e| e.to_string())
}

fuzz_target!(init: common::catch_stack_overflow(), |data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let unlimited = Doc::parse(text, usize::MAX);
    let got = match &unlimited {
        Ok(d) => Ok(d.to_json().expect("no limit to pass")),
        Err(Error::InvalidJson { message }) => Err(message.clone()),
        Err(e) => panic!("an error other than invalid-json without a depth limit: {e:?}"),
    };
    if toolschema::json::json_depth(text) <= SERDE_DEPTH {
        assert_eq!(got, serde(text), "input: {text:?}");
        // Values are dropped by recursion: asked only within serde's depth.
        let value = match toolschema::doc::parse_value(text) {
            Ok(v) => Ok(v.to_string()),
            Err(Error::InvalidJson { message }) => Err(message),
            Err(e) => panic!("parse_value: an error other than invalid-json: {e:?}"),
        };
        assert_eq!(value, got, "parse_value, input: {text:?}");
        // The capturing parse (the tool-list text path's) of the text as a
        // body's tools: the same error, or the same text once its value is
        // written where it stands.
        const PLACES: &[&[&str]] = &[&[], &["tools"]];
        let body = format!("{{\"tools\":{text}}}");
        let plain = Doc::parse(&body, usize::MAX).map(|d| d.to_json().unwrap()).map_err(|e| e.to_string());
        let capturing = Doc::parse_capturing(&body, PLACES, 64).map_err(|e| e.to_string()).map(|(d, captured)| match captured.as_slice() {
            [c] => d.write_spliced(d.root(), Some((c.node, &c.value.to_string()))).unwrap(),
            _ => d.to_json().unwrap(),
        });
        assert_eq!(capturing, plain, "parse_capturing, input: {text:?}");
        // The schema entry points' parse (unreached root definitions checked,
        // not read) of the text as definitions, one of them reached: what
        // parse_value gives once the run drops the unreached, or its error.
        let defs = format!("{{\"$ref\":\"#/$defs/b\",\"$defs\":{{\"a\":{text},\"b\":{{\"items\":{text}}}}}}}");
        let whole = toolschema::doc::parse_value(&defs).map(|mut v| {
            toolschema::refs::drop_unreachable_definitions(&mut v);
            v.to_string()
        });
        let reached = toolschema::refs::parse_reached(&defs).map(|v| v.to_string());
        assert_eq!(reached.map_err(|e| e.to_string()), whole.map_err(|e| e.to_string()), "parse_reached, input: {defs:?}");
    }
    let Ok(doc) = unlimited else { return };
    let out = got.unwrap();

    // The limit: the same document, or too-deep at a place that exists.
    match Doc::parse(text, LIMIT) {
        Ok(d) => assert_eq!(d.to_json().unwrap(), out),
        Err(Error::TooDeep { pointer, limit }) => {
            assert_eq!(limit, LIMIT);
            assert_eq!(pointer.len(), LIMIT, "too-deep at {pointer}");
        }
        Err(e) => panic!("{e:?} with a limit, none without"),
    }

    // What it writes reads back as itself.
    let again = Doc::parse(&out, usize::MAX).expect("own output parses");
    assert_eq!(again.to_json().unwrap(), out);

    // Pointers, over the first levels (`pointer_to` searches the subtree).
    let root = doc.root();
    let mut children: Vec<_> = doc.members(root).iter().map(|m| m.value).collect();
    children.extend_from_slice(doc.items(root));
    for &child in children.iter().take(64) {
        let p = doc.pointer_to(root, child).expect("a child has a pointer");
        let found = doc.resolve(root, &p).expect("its pointer resolves");
        assert_eq!(doc.write(found).unwrap(), doc.write(child).unwrap(), "{p}");
    }
});
