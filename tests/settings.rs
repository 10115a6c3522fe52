//! The option readers the JSON entry points use (src/settings.rs) against
//! serde's derive, which the Rust API keeps: over generated option objects
//! (known and unknown names, values of every JSON kind, right and wrong),
//! both accept the same objects and read the same options from them.
mod common;

use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use toolschema::args::RestoreOptions;
use toolschema::route::Route;
use toolschema::Options;

/// Values of every kind, and the ones each member takes.
const VALUES: &[&str] = &[
    "true", "false", "null", "0", "1", "5", "256", "-1", "5.0", "1e3", "-0", "4294967296", "18446744073709551616", "\"spill\"", "\"paren\"",
    "\"none\"", "\"full\"", "\"sanitize\"", "\"entries\"", "\"keep\"", "\"json\"", "\"Spill\"", "\"x\"", "\"\"", "[]", "[\"pattern\"]",
    "[\"pattern\", \"format\"]", "[\"type\"]", "[1]", "[null]", "{}", "{\"maxDepth\": 3}", "{\"spill\": \"none\", \"compact\": true}",
    "{\"nope\": 1}", "{\"maxDepth\": -1}",
];

fn object(names: &'static [&'static str]) -> impl Strategy<Value = String> {
    // Known names mostly, an unknown or a differently cased one sometimes;
    // each name at most once (a repeated name is the one place the readers
    // differ by design: serde's derive refuses it, JSON objects take the last).
    let name = prop_oneof![8 => prop::sample::select(names), 1 => prop::sample::select(&["quiet", "target", "MaxDepth", "", "name"][..])];
    prop::collection::vec((name, prop::sample::select(VALUES)), 0..5).prop_map(|members| {
        let mut seen = std::collections::HashSet::new();
        let body: Vec<String> = members.into_iter().filter(|(n, _)| seen.insert(*n)).map(|(n, v)| format!("{n:?}: {v}")).collect();
        format!("{{{}}}", body.join(", "))
    })
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(common::seeded(cases, 0x5e77_1265))
}

fn check<T: PartialEq + std::fmt::Debug>(text: &str, ours: Result<T, toolschema::Error>, serde: Result<T, String>) {
    match (ours, serde) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{text}"),
        (Err(e), Err(_)) => assert_eq!(e.code(), "invalid-options", "{text}: {e}"),
        (a, b) => panic!("{text}: ours {a:?}, serde's {b:?}"),
    }
}

#[test]
fn options_read_as_serde_reads_them() {
    let names = Box::leak(Box::new(Options::NAMES));
    runner(4000)
        .run(&object(names), |text| {
            let serde = serde_json::from_str::<Options>(&text).map_err(|e| e.to_string()).and_then(|o| o.validate().map(|()| o).map_err(|e| e.to_string()));
            check(&text, Options::from_json(&text), serde);
            Ok(())
        })
        .unwrap();
}

#[test]
fn restore_options_read_as_serde_reads_them() {
    let names = Box::leak(Box::new(RestoreOptions::NAMES));
    runner(2000)
        .run(&object(names), |text| {
            let ours = RestoreOptions::from_json(&text);
            if text.contains("\"normalize\": [") {
                // serde's derive reads a struct from an array too, member by
                // position (`[]` is every default): options are an object.
                assert!(ours.is_err(), "{text}");
                return Ok(());
            }
            check(&text, ours, serde_json::from_str::<RestoreOptions>(&text).map_err(|e| e.to_string()));
            Ok(())
        })
        .unwrap();
}

#[test]
fn routes_read_as_serde_reads_them() {
    let names = Box::leak(Box::new(Route::NAMES));
    runner(2000)
        .run(&object(names), |text| {
            let ours = Route::from_json(&text).map(|r| format!("{r:?}"));
            check(&text, ours, serde_json::from_str::<Route>(&text).map(|r| format!("{r:?}")).map_err(|e| e.to_string()));
            Ok(())
        })
        .unwrap();
}

/// What is not an object of options, and options nested without end, are
/// `invalid-options` with a message that says so.
#[test]
fn text_that_is_not_options_says_why() {
    for (text, says) in [
        ("[]", "must be a JSON object, got an array"),
        ("\"spill\"", "must be a JSON object, got the string \"spill\""),
        ("{", "are not JSON: EOF while parsing an object at line 1 column 1"),
        ("{\"spil\": \"none\"}", "unknown option \"spil\"; the options are spill, strictStage"),
        ("{\"maxDepth\": \"12\"}", "option \"maxDepth\" must be an integer from 0 to"),
        ("{\"spill\": \"Spill\"}", "option \"spill\" must be one of \"spill\", \"paren\", \"none\", got the string \"Spill\""),
    ] {
        let e = Options::from_json(text).expect_err(text);
        assert_eq!(e.code(), "invalid-options", "{text}");
        assert!(e.to_string().contains(says), "{text}: {e}");
    }
    let deep = format!("{{\"normalize\": {}{}", "[".repeat(100), "]".repeat(100)) + "}";
    let e = RestoreOptions::from_json(&deep).expect_err("deep");
    assert!(e.to_string().contains("nest deeper than"), "{e}");
}
