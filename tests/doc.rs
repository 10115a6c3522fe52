//! The document model (src/doc) against serde_json, which the pipeline uses
//! today and whose output it must keep byte for byte: the same text parses
//! to the same JSON text written back, or fails with the same message; the
//! same edits give the same text. Over the corpus, every fixture input and
//! generated JSON (escapes, unicode, lone surrogates, huge numbers,
//! duplicate keys, deep nesting, and every prefix and mutation of it).
mod common;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use toolschema::doc::Value;
use toolschema::doc::{Doc, Kind};
use toolschema::pointer::Pointer;
use toolschema::Error;

const LIMIT: usize = 1 << 20;

/// serde_json as the JSON entry points parse (no recursion limit).
fn serde(text: &str) -> Result<String, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let v = serde::Deserialize::deserialize(&mut de).and_then(|v: Value| de.end().map(|()| v));
    v.map(|v| {
        // The value's own writer (the schema-only answer) against serde_json's.
        let text = v.to_string();
        let mut own = String::new();
        v.write_json(&mut own);
        assert_eq!(own, text, "Value::write_json");
        text
    })
    .map_err(|e| e.to_string())
}

fn doc(text: &str) -> Result<String, String> {
    let by_doc = doc_only(text);
    // The value parser (what the JSON entry points parse with) accepts,
    // rejects and answers as the document does. Values are dropped by
    // recursion, so only texts that nest within a native stack's reach.
    if openers(text) <= 2000 {
        // The same text as a list, a body's tools and a nested result's,
        // read by the capturing parse (the tool-list text path's), with a cap
        // that every value fits and one that few do.
        for wrapped in [text.to_string(), format!("{{\"tools\":{text}}}"), format!("{{\"a\":1,\"result\":{{\"tools\":{text}}},\"tools\":[{text}]}}")] {
            capturing_matches(&wrapped, LIMIT);
            capturing_matches(&wrapped, 2);
        }
        // The document's own conversion to a value (the tool-list text path's).
        if let Ok(d) = Doc::parse(text, LIMIT) {
            assert_eq!(Ok(d.to_value(d.root()).to_string()), by_doc, "to_value, input: {text:?}");
        }
        let by_value = match toolschema::doc::parse_value(text) {
            Ok(v) => Ok(v.to_string()),
            Err(Error::InvalidJson { message }) => Err(message),
            Err(e) => panic!("{text:?}: not an invalid-json error: {e:?}"),
        };
        assert_eq!(by_value, by_doc, "parse_value, input: {text:?}");
        deferring_matches(text);
    }
    by_doc
}

/// The text as root definitions, some reached and some not: read with the
/// unreached ones left unread (`refs::parse_reached`, the JSON entry points'
/// parse), it fails as `parse_value` fails, or gives what `parse_value` gives
/// once the run's first step drops what no reference reaches.
fn deferring_matches(text: &str) {
    for wrapped in [
        format!("{{\"$defs\":{text}}}"),
        format!("{{\"properties\":{{\"x\":{{\"$ref\":\"#/$defs/b\"}}}},\"$defs\":{{\"a\":{text},\"b\":{{\"items\":{text}}},\"c\":{{\"$ref\":\"#/$defs/a\"}}}},\"z\":{text}}}"),
        format!("{{\"definitions\":{{\"a\":{text},\"a\":{{\"$ref\":\"#/definitions/b\"}},\"b\":{text}}},\"$ref\":\"#/definitions/a\"}}"),
        format!("{{\"$defs\":{{\"a\":{text}}},\"$defs\":{{\"b\":{text}}},\"$ref\":\"#/$defs/b\"}}"),
    ] {
        let whole = toolschema::doc::parse_value(&wrapped).map(|mut v| {
            toolschema::refs::drop_unreachable_definitions(&mut v);
            v.to_string()
        });
        let reached = toolschema::refs::parse_reached(&wrapped).map(|v| v.to_string());
        assert_eq!(reached.map_err(|e| e.to_string()), whole.map_err(|e| e.to_string()), "parse_reached, input: {wrapped:?}");
    }
}

/// How many `{` and `[` the text holds: a bound on its nesting.
fn openers(text: &str) -> usize {
    text.bytes().filter(|&b| b == b'{' || b == b'[').count()
}

/// Key paths the capturing parse is asked for in these tests: a request
/// body's places of a tool list.
const CAPTURE: &[&[&str]] = &[&[], &["tools"], &["result", "tools"], &["functionDeclarations"]];

/// The capturing parse of `text` against the plain one: the same error, or
/// the same depth and, with each stand-in replaced by its value's text, the
/// same text. `cap` bounds what is captured; the rest stays in the document.
fn capturing_matches(text: &str, cap: usize) {
    let plain = Doc::parse(text, usize::MAX);
    match (Doc::parse_capturing(text, CAPTURE, cap), plain) {
        (Ok((d, captured)), Ok(p)) => {
            assert_eq!(d.text_depth(), p.text_depth(), "text_depth, input: {text:?}");
            let mut written = d.to_json().expect("no limit");
            for c in &captured {
                assert!(c.depth <= cap, "captured past the cap: {text:?}");
                assert_eq!(d.kind(c.node), Kind::Array, "{text:?}");
                if captured.len() == 1 {
                    written = d.write_spliced(d.root(), Some((c.node, &c.value.to_string()))).expect("no limit");
                }
            }
            if captured.len() <= 1 {
                assert_eq!(written, p.to_json().unwrap(), "capturing, input: {text:?}");
            }
        }
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "input: {text:?}"),
        (a, b) => panic!("capturing {:?}, plain {:?}, input: {text:?}", a.map(|_| ()), b.map(|_| ())),
    }
}

fn doc_only(text: &str) -> Result<String, String> {
    match Doc::parse(text, LIMIT) {
        Ok(d) => {
            // The nesting counted while parsing bounds the walk's (a repeated
            // key's dropped value may have nested deeper than what is kept).
            assert!(d.text_depth() >= d.depth(d.root()), "{text:?}");
            Ok(d.to_json().expect("within the limit"))
        }
        Err(Error::InvalidJson { message }) => Err(message),
        Err(e) => panic!("{text:?}: not an invalid-json error: {e:?}"),
    }
}

fn same(text: &str) {
    assert_eq!(doc(text), serde(text), "input: {text:?}");
}

fn corpus_files() -> Vec<std::path::PathBuf> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> =
        std::fs::read_dir(root.join("../shared/corpus")).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "json")).collect();
    for f in std::fs::read_dir(root.join("tests/fixtures")).unwrap() {
        files.push(f.unwrap().path().join("input.json"));
    }
    files.sort();
    files
}

#[test]
fn corpus_and_fixtures_round_trip_as_serde_json_writes_them() {
    let files = corpus_files();
    assert!(files.len() > 140, "{} files", files.len());
    for f in &files {
        // As stored (pretty-printed, whole files) ...
        let text = std::fs::read_to_string(f).unwrap();
        assert!(serde(&text).is_ok(), "{}", f.display());
        same(&text);
    }
    // ... and every schema alone, compact, as the entry points receive them.
    let schemas = common::corpus();
    for (id, schema) in &schemas {
        let text = schema.to_string();
        assert_eq!(doc(&text).as_deref(), Ok(text.as_str()), "{id}");
    }
}

#[test]
fn numbers_are_written_as_serde_json_writes_what_it_parsed() {
    for text in [
        "0",
        "-0",
        "1.0",
        "1e5",
        "1E5",
        "1e+5",
        "1e-5",
        "-1.5e-7",
        "0.1",
        "100000000000000000000",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "1e16",
        "1e15",
        "123456789012345678901234567890",
        "0.000001",
        "0.0000001",
        "1.7976931348623157e308",
        "1.7976931348623159e308",
        "1e400",
        "-1e400",
        "1e-400",
        "-1e-400",
        "0e99999999999",
        "1e99999999999",
        "1e-99999999999",
        "-0.0",
        "5e-324",
        "2.5e-324",
        "[1.10,2.000e2]",
        "01",
        "1.",
        ".5",
        "-",
        "1e",
        "1e+",
        "+1",
        "-a",
        "0x10",
        "1.5e",
        "[-0,1,-1]",
    ] {
        same(text);
    }
    // A 400-digit integer is a float to serde_json; 310 nines overflow it.
    same(&"7".repeat(400));
    same(&"9".repeat(310));
    same(&format!("0.{}1", "0".repeat(400)));
}

#[test]
fn strings_and_escapes() {
    for text in [
        r#""plain""#,
        r#""a\"b\\c\/d\be\ff\ng\rh\ti""#,
        r#""\u0041\u00e9\u4e2d\uD83D\uDE00""#,
        r#""\u0000\u001f\u007f\u001F""#,
        r#""\ud800""#,
        r#""\udc00""#,
        r#""\ud800\u0041""#,
        r#""\ud800x""#,
        r#""\ud800\ud800""#,
        r#""\ud800\"#,
        r#""\u12""#,
        r#""\u12G4""#,
        r#""\x""#,
        "\"a\u{1}b\"",
        "\"tab\there\"",
        r#""é漢字🙂""#,
        r#""unterminated"#,
        r#""\"#,
        "\"\u{7f}\"",
        r#"{"\u0061":1,"a":2}"#,
        r#"{"k\n":1}"#,
        r#"["\"\\"]"#,
    ] {
        same(text);
    }
}

/// Strings and keys are told in one sixteen-byte read when they close
/// within it with nothing to unescape: every length to 33 (two reads and a
/// tail), with a quote, a backslash escape, a raw control byte, a multibyte
/// character or nothing at every place, as a value, as a key (the colon
/// straight after it or after spaces), and cut off before their end.
#[test]
fn strings_and_keys_of_every_length_with_a_special_at_every_place() {
    for len in 0..=33 {
        for special in ["", "\\\"", "\\\\", "\\n", "\\u0041", "\u{1}", "\n", "é", "🙂"] {
            for at in 0..=len {
                let body = format!("{}{special}{}", "a".repeat(at), "b".repeat(len - at));
                for text in [
                    format!("\"{body}\""),
                    format!("[\"{body}\",1]"),
                    format!("{{\"{body}\":\"{body}\"}}"),
                    format!("{{\"x\":1,\"{body}\" : [\"{body}\"]}}"),
                    format!("{{\"{body}"),
                    format!("\"{body}"),
                ] {
                    same(&text);
                }
            }
        }
    }
}

#[test]
fn duplicate_keys_keep_the_first_place_and_the_last_value() {
    for text in [
        r#"{"a":1,"b":2,"a":3}"#,
        r#"{"a":{"x":1},"a":[2],"c":3,"a":"last"}"#,
        r#"{"\u0062":1,"a":0,"b":2}"#,
        // Keywords (interned keys), one repeated, one written with an escape.
        r#"{"type":"string","description":"d","type":"number","\u0074ype":"boolean","title":"t"}"#,
    ] {
        same(text);
    }
    // Past the small-object path: 40 keys, each twice.
    let keys: Vec<String> = (0..80).map(|i| format!("\"k{}\":{i}", i % 40)).collect();
    same(&format!("{{{}}}", keys.join(",")));
    let keys: Vec<String> = (0..80).map(|i| format!("\"k\\u00{:02x}\":{i}", 0x30 + i % 40)).collect();
    same(&format!("{{{}}}", keys.join(",")));
}

#[test]
fn malformed_text_fails_with_serde_json_message() {
    for text in [
        "",
        " ",
        "nul",
        "nulx",
        "tru",
        "falsy",
        "[",
        "[1",
        "[1,",
        "[1,]",
        "[1 2]",
        "{",
        "{\"a\"",
        "{\"a\":",
        "{\"a\":1",
        "{\"a\":1,",
        "{\"a\":1,}",
        "{\"a\" 1}",
        "{1:2}",
        "{,}",
        "[,]",
        "]",
        "}",
        "1 2",
        "{} x",
        "\n\n  [1,\n  x]",
        "[\"a\"\n,\n\"b\" \"c\"]",
        "{\"a\":1}}",
        "[1]]",
        "\u{feff}1",
        "'a'",
        "[tru]",
    ] {
        same(text);
    }
}

#[test]
fn nesting_past_the_limit_is_too_deep_with_its_pointer() {
    let text = r#"{"a":[1,{"b~/":[[2]]}]}"#;
    match Doc::parse(text, 4) {
        Err(Error::TooDeep { pointer, limit: 4 }) => assert_eq!(pointer.as_str(), "/a/1/b~0~1/0"),
        other => panic!("{other:?}"),
    }
    assert!(Doc::parse(text, 5).is_ok());
    assert!(matches!(Doc::parse("[]", 0), Err(Error::TooDeep { .. })));
    // The same count as the entry points' pre-scan (`json::json_depth`).
    for t in [text, "[[],[[{}]]]", "{\"a\":\"[[[\"}"] {
        let depth = toolschema::json::json_depth(t);
        assert!(Doc::parse(t, depth).is_ok() && Doc::parse(t, depth - 1).is_err(), "{t}");
    }
}

#[test]
fn a_hundred_thousand_levels_parse_write_and_drop_without_recursion() {
    const N: usize = 100_000;
    let text = format!("{}{}", "[".repeat(N), "]".repeat(N));
    let d = Doc::parse(&text, N).unwrap();
    assert_eq!(d.to_json().unwrap(), text);
    assert_eq!(d.text_depth(), N);
    assert!(matches!(Doc::parse(&text, N - 1), Err(Error::TooDeep { .. })));
    let text = format!("{}1{}", "{\"a\":".repeat(N), "}".repeat(N));
    let d = Doc::parse(&text, N).unwrap();
    assert_eq!(d.to_json().unwrap(), text);
    let deepest = Pointer::parse_fragment(&"/a".repeat(N)).unwrap();
    let leaf = d.resolve(d.root(), &deepest).unwrap();
    assert_eq!(d.number_text(leaf), Some("1"));
    assert_eq!(d.pointer_to(d.root(), leaf), Some(deepest));
    // Unterminated: an error, not a crash (serde_json itself would recurse
    // 100,000 deep here: it is held to the same message at 50 levels).
    same(&"[".repeat(50));
    assert_eq!(doc(&"[".repeat(N)), Err(format!("EOF while parsing a list at line 1 column {N}")));
}

#[test]
fn shared_and_cyclic_nodes() {
    let mut d = Doc::parse(r#"{"defs":{"x":{"type":"string"}},"p":{}}"#, 64).unwrap();
    let root = d.root();
    let x = d.resolve(root, &Pointer::parse_fragment("/defs/x").unwrap()).unwrap();
    let p = d.get(root, "p").unwrap();
    d.set(p, "a", x);
    d.set(p, "b", x);
    assert_eq!(d.to_json().unwrap(), r#"{"defs":{"x":{"type":"string"}},"p":{"a":{"type":"string"},"b":{"type":"string"}}}"#);
    assert_eq!(d.pointer_to(root, x).unwrap().as_str(), "/defs/x");
    // A copy is edited alone; the shared node everywhere.
    let y = d.copy(x);
    let s = d.new_string("integer");
    d.set(y, "type", s);
    d.set(p, "b", y);
    let t = d.new_string("a \"quoted\"\n\u{1}é");
    d.set(x, "title", t);
    assert_eq!(
        d.to_json().unwrap(),
        r#"{"defs":{"x":{"type":"string","title":"a \"quoted\"\n\u0001é"}},"p":{"a":{"type":"string","title":"a \"quoted\"\n\u0001é"},"b":{"type":"integer"}}}"#
    );
    // A node made its own descendant: too deep when written, not a hang.
    d.set(x, "self", x);
    match d.to_json() {
        Err(Error::TooDeep { pointer, limit: 64 }) => assert!(pointer.as_str().starts_with("/defs/x/self/self/")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn reading_nodes() {
    let d = Doc::parse(r#"{"s":"a\u00e9\n","n":-1.5e3,"t":true,"z":null,"a":[1,"2"],"o~/":{}}"#, 8).unwrap();
    let r = d.root();
    let get = |k| d.get(r, k).unwrap();
    assert_eq!(d.as_str(get("s")).as_deref(), Some("aé\n"));
    assert_eq!(d.number_text(get("n")), Some("-1.5e3"));
    assert_eq!(d.as_f64(get("n")), Some(-1500.0));
    assert_eq!(d.as_bool(get("t")), Some(true));
    assert_eq!(d.kind(get("z")), Kind::Null);
    assert_eq!(d.items(get("a")).len(), 2);
    assert_eq!(d.kind(get("o~/")), Kind::Object);
    let keys: Vec<_> = d.members(r).iter().map(|m| d.text(m.key).into_owned()).collect();
    assert_eq!(keys, ["s", "n", "t", "z", "a", "o~/"]);
    let one = Pointer::parse_fragment("/a/1").unwrap();
    assert_eq!(d.as_str(d.resolve(r, &one).unwrap()).as_deref(), Some("2"));
    assert_eq!(d.resolve(r, &Pointer::parse_fragment("/a/01").unwrap()), None);
    assert_eq!(d.resolve(r, &Pointer::parse_fragment("/o~0~1").unwrap()), d.get(r, "o~/"));
    assert_eq!(d.write(get("a")).unwrap(), r#"[1,"2"]"#);
}

// ---------------------------------------------------------------------------
// Generated JSON.

fn config(cases: u32) -> Config {
    common::seeded(cases, 0x7001_5c4e_d0c0_0001)
}

fn ws() -> impl Strategy<Value = &'static str> {
    prop_oneof![6 => Just(""), 1 => Just(" "), 1 => Just("\n  "), 1 => Just("\t\r\n")]
}

fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        (0u32..1000).prop_map(|n| n.to_string()),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| format!("{f:e}")),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| f.to_string()),
        ("-?[1-9][0-9]{0,30}", "(\\.[0-9]{1,25})?", "([eE][-+]?[0-9]{1,4})?").prop_map(|(a, b, c)| format!("{a}{b}{c}")),
        Just("-0".to_string()),
        Just("0.0".to_string()),
    ]
}

fn string() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        8 => "[a-z ~/]{1,6}",
        2 => "[\\u{80}-\\u{10ffff}]{1,2}",
        2 => prop::sample::select(vec!["\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"]).prop_map(String::from),
        2 => any::<u16>().prop_map(|n| format!("\\u{n:04x}")),
        1 => (0xD800u16..0xDC00, 0xDC00u16..0xE000).prop_map(|(h, l)| format!("\\u{h:04X}\\u{l:04x}")),
        1 => (0u8..0x20).prop_map(|c| format!("\\u00{c:02x}")),
    ];
    prop::collection::vec(piece, 0..5).prop_map(|p| format!("\"{}\"", p.concat()))
}

/// JSON text (valid but for the odd lone surrogate from `\uXXXX`), with
/// whitespace, few distinct keys (so duplicates) and nesting.
fn json() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![Just("null".to_string()), Just("true".to_string()), Just("false".to_string()), number(), string(),];
    leaf.prop_recursive(6, 64, 6, |inner| {
        let key = prop_oneof![3 => "\"[a-d]\"", 1 => string()];
        prop_oneof![
            prop::collection::vec((ws(), inner.clone(), ws()), 0..6)
                .prop_map(|v| format!("[{}]", v.into_iter().map(|(a, x, b)| format!("{a}{x}{b}")).collect::<Vec<_>>().join(","))),
            prop::collection::vec((key, ws(), inner), 0..6)
                .prop_map(|v| format!("{{{}}}", v.into_iter().map(|(k, w, x)| format!("{w}{k}{w}:{w}{x}")).collect::<Vec<_>>().join(","))),
        ]
    })
}

#[test]
fn generated_json_round_trips_or_fails_as_serde_json_does() {
    let mut runner = TestRunner::new(config(2000));
    runner
        .run(&(json(), any::<prop::sample::Index>(), any::<u8>(), 0u8..4), |(text, at, byte, how)| {
            prop_assert_eq!(doc(&text), serde(&text), "input: {:?}", text);
            // A prefix, a byte dropped, one replaced or one inserted: mostly
            // malformed, to hold the error messages and positions.
            let bytes = text.as_bytes();
            let i = at.index(bytes.len() + 1);
            let b = [b'"', b'\\', b',', b':', b'[', b']', b'{', b'}', b'0', b'-', b'e', b'.', b' ', b'\n', b'u', b'x'][byte as usize % 16];
            let mut m = bytes.to_vec();
            match how {
                0 => m.truncate(i),
                1 if i < m.len() => drop(m.remove(i)),
                2 if i < m.len() => m[i] = b,
                _ => m.insert(i, b),
            }
            if let Ok(t) = std::str::from_utf8(&m) {
                prop_assert_eq!(doc(t), serde(t), "mutated input: {:?}", t);
            }
            Ok(())
        })
        .unwrap();
}

/// The same edits on a `Doc` and on a `toolschema::doc::Value` write the same text.
#[test]
fn generated_edits_match_serde_json_maps() {
    #[derive(Clone, Debug)]
    enum Edit {
        Set(String, i64),
        Insert(usize, String, i64),
        Remove(String),
        Push(i64),
        InsertItem(usize, i64),
        RemoveItem(usize),
        SetItem(usize, String),
        Replace(String),
    }
    let key = || "[a-e]";
    let edit = prop_oneof![
        (key(), any::<i64>()).prop_map(|(k, n)| Edit::Set(k, n)),
        (0usize..8, key(), any::<i64>()).prop_map(|(i, k, n)| Edit::Insert(i, k, n)),
        key().prop_map(Edit::Remove),
        any::<i64>().prop_map(Edit::Push),
        (0usize..8, any::<i64>()).prop_map(|(i, n)| Edit::InsertItem(i, n)),
        (0usize..8).prop_map(Edit::RemoveItem),
        (0usize..8, "[a-z\"\\\\\n]{0,4}").prop_map(|(i, s)| Edit::SetItem(i, s)),
        key().prop_map(Edit::Replace),
    ];
    let start = r#"{"a":1,"b":{"x":[1,2]},"c":"s","l":[true,null,{"k":"v"}]}"#;
    let mut runner = TestRunner::new(config(1000));
    runner
        .run(&prop::collection::vec(edit, 1..12), |edits| {
            let mut v: Value = serde_json::from_str(start).unwrap();
            let mut d = Doc::parse(start, 64).unwrap();
            let root = d.root();
            for e in &edits {
                let (m, list) = (d.get(root, "l").unwrap(), v["l"].as_array().unwrap().len());
                let map = v.as_object_mut().unwrap();
                match e {
                    Edit::Set(k, n) => {
                        let id = d.new_i64(*n);
                        d.set(root, k, id);
                        map.insert(k.clone().into(), (*n).into());
                    }
                    Edit::Insert(i, k, n) => {
                        let present = map.contains_key(k);
                        if (present && *i < map.len()) || (!present && *i <= map.len()) {
                            map.shift_insert(*i, k.clone().into(), (*n).into());
                        }
                        let id = d.new_i64(*n);
                        d.insert(root, *i, k, id);
                    }
                    Edit::Remove(k) => {
                        if k != "l" {
                            map.shift_remove(k);
                            d.remove(root, k);
                        }
                    }
                    Edit::Push(n) => {
                        let id = d.new_i64(*n);
                        d.push(m, id);
                        v["l"].as_array_mut().unwrap().push((*n).into());
                    }
                    Edit::InsertItem(i, n) => {
                        let id = d.new_i64(*n);
                        d.insert_item(m, *i, id);
                        if *i <= list {
                            v["l"].as_array_mut().unwrap().insert(*i, (*n).into());
                        }
                    }
                    Edit::RemoveItem(i) => {
                        d.remove_item(m, *i);
                        if *i < list {
                            v["l"].as_array_mut().unwrap().remove(*i);
                        }
                    }
                    Edit::SetItem(i, s) => {
                        let id = d.new_string(s);
                        d.set_item(m, *i, id);
                        if *i < list {
                            v["l"][*i] = s.clone().into();
                        }
                    }
                    Edit::Replace(k) => {
                        // The member `k` becomes a copy of the list.
                        if let Some(target) = d.get(root, k).filter(|_| k != "l") {
                            d.replace(target, m);
                            map[k.as_str()] = map["l"].clone();
                        }
                    }
                }
            }
            prop_assert_eq!(d.to_json().unwrap(), v.to_string(), "edits: {:?}", edits);
            Ok(())
        })
        .unwrap();
}

#[test]
fn built_documents_write_as_serde_json_values() {
    let mut d = Doc::new(16);
    let items: Vec<_> = [0.1, -0.0, 1e21, 1e-7, 5e-324, f64::MAX, 3.0].iter().map(|&f| d.new_f64(f).unwrap()).collect();
    assert!(d.new_f64(f64::NAN).is_none());
    let a = d.new_array(&items);
    let big = d.new_u64(u64::MAX);
    let small = d.new_i64(i64::MIN);
    let t = d.new_bool(true);
    let n = d.new_null();
    let o = d.new_object(&[("floats", a), ("u", big), ("i", small), ("t", t), ("u", n)]);
    d.set_root(o);
    let v = toolschema::json!({"floats": [0.1, -0.0, 1e21, 1e-7, 5e-324, f64::MAX, 3.0], "u": null, "i": i64::MIN, "t": true});
    assert_eq!(d.to_json().unwrap(), v.to_string());
}
