//! Each target's rules in order. Outputs depend on the order, so when the
//! lists are written from shared sequences this holds every target to the
//! exact list it ran before (`!` marks a rule of the enforce stage).
use super::TARGETS;
use crate::passes::Stage;

#[rustfmt::skip]
const EXPECTED: &[(&str, &[&str])] = &[
    ("openai", &["strip-unsupported", "object-shapes", "array-items", "root-object"]),
    ("openai-strict", &["const-to-enum", "infer-type", "merge-all-of", "one-of-to-any-of", "default-to-description", "type-arrays", "splice-unions", "distribute-siblings", "regex-subset", "strip-constraints", "any-as-json!", "maps-as-entries!", "array-items", "strip-unsupported", "open-objects!", "object-shapes", "enforce-object!", "root-object"]),
    ("openai-responses", &["one-of-to-any-of", "regex-subset", "strip-unsupported", "object-shapes", "array-items", "root-object"]),
    ("google", &["const-to-enum", "one-of-to-any-of", "merge-all-of", "type-arrays", "null-unions", "literal-unions", "splice-unions", "any-as-json", "maps-as-entries", "infer-type", "exclusive-bounds", "regex-subset", "string-enums", "array-items", "strip-unsupported", "object-shapes", "property-ordering", "nullable-after-type", "lone-any-of", "root-object"]),
    ("cca", &["const-to-enum", "one-of-to-any-of", "merge-all-of", "type-arrays", "null-unions", "literal-unions", "splice-unions", "collapse-unions", "any-as-json", "maps-as-entries", "infer-type", "string-enums", "array-items", "strip-unsupported", "object-shapes", "optional-nullables", "root-object"]),
    ("mcp", &["strip-unsupported", "root-object"]),
    ("llamacpp", &["const-to-enum", "one-of-to-any-of", "merge-all-of", "splice-unions", "distribute-siblings", "array-items", "number-bounds", "patterns", "anchored-alternatives", "regex-subset", "unicode-classes", "string-pattern-first", "declare-required", "strip-unsupported"]),
    ("xgrammar", &["const-to-enum", "one-of-to-any-of", "merge-all-of", "splice-unions", "distribute-siblings", "anchored-alternatives", "regex-subset", "unicode-classes", "string-format-first", "declare-required", "any-items", "strip-unsupported"]),
    ("llguidance", &["const-to-enum", "one-of-to-any-of", "merge-all-of", "regex-subset", "llguidance-limits", "strip-unsupported"]),
    ("ollama", &["const-to-enum", "one-of-to-any-of", "merge-all-of", "literal-unions", "splice-unions", "array-items", "strip-unsupported", "root-object"]),
    ("anthropic", &["one-of-to-any-of", "type-arrays", "splice-unions", "min-items", "pattern-maps", "strip-unsupported", "close-objects", "root-object"]),
    ("anthropic-strict", &["const-to-enum", "one-of-to-any-of", "infer-type", "merge-all-of", "type-arrays", "splice-unions", "regex-subset", "any-as-json!", "maps-as-entries!", "min-items", "pattern-maps", "strip-unsupported", "open-objects!", "closed-objects!", "root-object"]),
    ("bedrock", &["one-of-to-any-of", "type-arrays", "splice-unions", "min-items", "pattern-maps", "strip-unsupported", "close-objects", "root-object"]),
    ("xai", &["const-to-enum", "one-of-to-any-of", "merge-all-of", "strip-unsupported", "free-form-open", "object-shapes", "array-items", "root-object"]),
    ("moonshot", &["one-of-to-any-of", "type-arrays", "splice-unions", "distribute-siblings", "type-branches", "array-items", "strip-unsupported", "object-shapes", "root-object"]),
    ("deepseek-strict", &["const-to-enum", "infer-type", "merge-all-of", "one-of-to-any-of", "default-to-description", "type-arrays", "splice-unions", "distribute-siblings", "regex-subset", "strip-constraints", "any-as-json!", "maps-as-entries!", "array-items", "strip-unsupported", "open-objects!", "object-shapes", "enforce-object!", "root-object"]),
    ("mistral", &["strip-unsupported", "object-shapes", "array-items", "root-object"]),
    ("groq", &["splice-unions", "distribute-siblings", "strip-unsupported", "object-shapes", "array-items", "root-object"]),
    ("openrouter", &["splice-unions", "distribute-siblings", "type-branches", "strip-unsupported", "object-shapes", "array-items", "root-object"]),
    ("fireworks", &["never-items", "drop-not", "strip-unsupported", "object-shapes", "array-items", "root-object"]),
    ("gemini-openai", &["const-to-enum", "one-of-to-any-of", "merge-all-of", "type-arrays", "null-unions", "literal-unions", "splice-unions", "any-as-json", "maps-as-entries", "infer-type", "exclusive-bounds", "string-enums", "array-items", "strip-unsupported", "object-shapes", "nullable-after-type", "lone-any-of", "root-object"]),
    ("webmcp", &["const-to-enum", "one-of-to-any-of", "merge-all-of", "literal-unions", "splice-unions", "type-unions", "never-items", "drop-not", "maps-as-entries", "strip-unsupported", "additional-false-only", "object-shapes", "root-object"]),
    ("google-json", &["const-to-enum", "one-of-to-any-of", "merge-all-of", "never-items", "drop-not", "exclusive-bounds", "strip-unsupported", "root-object"]),
];

#[test]
fn every_target_runs_its_rules_in_the_recorded_order() {
    let ids: Vec<&str> = TARGETS.iter().map(|t| t.id).collect();
    let expected_ids: Vec<&str> = EXPECTED.iter().map(|(id, _)| *id).collect();
    assert_eq!(
        ids, expected_ids,
        "a target was added or removed: record its rules here"
    );
    for (target, (_, expected)) in TARGETS.iter().zip(EXPECTED) {
        let got: Vec<String> = target
            .passes
            .iter()
            .map(|p| {
                if p.stage == Stage::Enforce {
                    format!("{}!", p.name)
                } else {
                    p.name.to_string()
                }
            })
            .collect();
        assert_eq!(got, *expected, "{}", target.id);
    }
}
