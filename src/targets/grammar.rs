//! Local grammar backends: llama.cpp's JSON-schema-to-grammar (also behind
//! Ollama's `format`), vLLM/SGLang's xgrammar, llguidance, and Ollama's tool
//! `parameters` (seed 001; providers.md §1b and §2). These backends drop what
//! they cannot express without an error, so the rules aim at fidelity: rewrite
//! into forms they enforce, and report what cannot be kept.
use crate::lookup::Fields;
use crate::passes::{combinators, constants, pass, regex, shapes, spill, strict, Pass};
use crate::profile::{Caps, ListCeiling, OnViolation, BASE};
use super::Target;
use super::sequences::{rules, DISTRIBUTED_UNIONS, PLAIN_COMBINATORS};
use crate::keywords::{Keyword, Names};
use crate::keywords::kw;
use crate::context::Cx;
use crate::doc::{Key, Map, Value};
use crate::error::Result;

/// What every grammar backend shares: refs inlined except cycles (nested refs
/// break llama.cpp: #8073), unions without siblings (#7703), no `not`.
/// `allOf` is merged: xgrammar drops constraints inside it and llama.cpp's
/// support is partial, so one merged schema is what every backend enforces.
const GRAMMAR: Caps =
    Caps { strip: Names::new(&["$schema", "not", "if", "then", "else"]), negation: false, all_of: false, inline_refs: true, ..BASE };

/// llama.cpp: `additionalProperties` defaults to false there, bounds apply to
/// integers only, `uniqueItems`/`contains`/`patternProperties`/`dependentSchemas`
/// are skipped silently, `prefixItems` is broken, patterns must be anchored.
const LLAMACPP_KEYWORDS: Names = Names::new(&[
    "type", "description", "title", "properties", "required", "additionalProperties", "items", "anyOf", "oneOf", "allOf",
    "enum", "const", "$ref", "$defs", "pattern", "format", "minLength", "maxLength", "minItems", "maxItems", "minimum",
    "maximum", "exclusiveMinimum", "exclusiveMaximum", "default",
]);

/// llama.cpp's converter lacks `uri` and `email` formats (grammars/README.md).
const LLAMACPP_FORMATS: &[&str] = &["date", "time", "date-time", "uuid"];

pub static LLAMACPP: Target = Target {
    id: "llamacpp",
    description: "llama.cpp json-schema-to-grammar (llama-server json_schema / response_format, Ollama format)",
    source: "https://github.com/ggml-org/llama.cpp/blob/master/grammars/README.md",
    caps: Caps {
        keep: Some(LLAMACPP_KEYWORDS),
        one_of: false,
        formats: Some(LLAMACPP_FORMATS),
        size_budget: 1500,
        max_inline_depth: 5,
        root_refs: false,
        tool_list_size: Some(LLAMACPP_LIST),
        ..GRAMMAR
    },
    // What xgrammar runs, plus `items` on every array, bounds on integers
    // only, and anchored patterns.
    passes: rules![
        PLAIN_COMBINATORS,
        DISTRIBUTED_UNIONS,
        &[
            pass("array-items", shapes::array_items),
            pass("number-bounds", number_bounds),
            pass("patterns", regex::grammar_patterns),
        ],
        GRAMMAR_REGEX,
        &[pass("string-pattern-first", llamacpp_string_rule), pass("declare-required", declare_required), pass("strip-unsupported", spill::strip_unsupported)],
    ],
    on_violation: OnViolation::Report,
    relaxed: None,
};

/// A string's one rule. llama.cpp's converter writes a string from its
/// `pattern`, else its `format`, else its lengths; xgrammar from its
/// `format`, else its `pattern`, else its lengths. What comes after the first
/// one present is left out of the grammar without a word (the grammar checker
/// finds each grammar identical without it: `minLength: 1` beside
/// `format: "uri"` on xgrammar, the lengths beside a pattern on both), so it
/// is spilled. A format the target does not keep is spilled anyway, and a
/// long pattern beside a format is the format's stand-in (`spill::strip`).
fn one_string_rule(node: &mut Map, order: [&Keyword; 2], cx: &mut Cx) -> Result<()> {
    let types = crate::passes::types_of(node);
    if !types.is_empty() && !types.has("string") {
        return Ok(());
    }
    let kept = |node: &Map, k: &Keyword| match k.row == kw::FORMAT.row {
        true => node.field(kw::FORMAT).and_then(Value::as_str).is_some_and(|f| cx.target.caps.takes_format(f)),
        false => node.has(k),
    };
    let Some(rule) = order.iter().position(|k| kept(node, k)) else { return Ok(()) };
    let mut after: Vec<Key> = order[rule + 1..].iter().filter(|k| kept(node, k)).map(|k| Key::from(k.name)).collect();
    after.extend([kw::MIN_LENGTH, kw::MAX_LENGTH].iter().filter(|k| node.has(**k)).map(|k| Key::from(k.name)));
    if after.is_empty() {
        return Ok(());
    }
    let why = format!("ignored by {} beside {}", cx.target.id, order[rule].name);
    spill::strip_because(node, &after, Some(&why), cx);
    Ok(())
}

/// llama.cpp's converter and xgrammar build an object from its `properties`:
/// a required name without one is not required in the grammar (Zod 4's
/// record with required keys: `additionalProperties` and `required` alone).
/// It is declared with the widest schema the object allows, as on Gemini
/// (`strict::declare_required`, noted `required-declared`).
fn declare_required(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if crate::passes::types_of(node).has("object") && !crate::passes::facts::branch_of_combinator(cx) {
        crate::passes::strict::declare_required(node, cx)?;
    }
    Ok(())
}

/// xgrammar (0.2.8) reads an array without `items` as one with no items past
/// its `prefixItems`: `{"type": "array", "maxItems": 3}` compiles to the empty
/// array alone, `"minItems": 1` fails to compile ("minItems is greater than
/// the number of prefixItems, but additional items are not allowed"), and a
/// tuple's rest is closed. Such an array gets `items: {}`, any item, which is
/// what JSON Schema means without `items`. A bare `{"type": "array"}` compiles
/// as any array and is left as it is.
fn any_items(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if node.has(kw::ITEMS) || !(node.has(kw::PREFIX_ITEMS) || node.has(kw::MIN_ITEMS) || node.has(kw::MAX_ITEMS)) {
        return Ok(());
    }
    let types = crate::passes::types_of(node);
    if !types.is_empty() && !types.has("array") {
        return Ok(());
    }
    node.insert(kw::ITEMS.into(), Value::Object(Map::new()));
    cx.count("anyItemsWritten");
    Ok(())
}

fn llamacpp_string_rule(node: &mut Map, cx: &mut Cx) -> Result<()> {
    one_string_rule(node, [kw::PATTERN, kw::FORMAT], cx)
}

fn xgrammar_string_rule(node: &mut Map, cx: &mut Cx) -> Result<()> {
    one_string_rule(node, [kw::FORMAT, kw::PATTERN], cx)
}

/// Patterns in the regex subset a grammar compiler reads (no lookaround or
/// backreferences, no anchor inside), and none with a Unicode property class,
/// which neither xgrammar nor llama.cpp's converter supports.
static GRAMMAR_REGEX: &[Pass] = &[
    pass("anchored-alternatives", regex::anchored_alternatives),
    pass("regex-subset", strict::regex_subset),
    pass("unicode-classes", regex::no_unicode_classes),
];

/// llama-server compiles every tool of a request into one grammar; past about
/// 100 KB of tools it fails to build it (58 tools: 97,102 bytes worked, 100,026
/// failed; ggml-org/llama.cpp#25895), and some builds then generate without
/// any constraint and answer 200 (ggml-org/llama.cpp#19051). The ceiling is
/// the largest size measured to work.
const LLAMACPP_LIST: ListCeiling = ListCeiling {
    max_bytes: Some(97_000),
    source: "ggml-org/llama.cpp#25895 (grammar build fails past ~100 KB of tools), #19051 (then unconstrained with HTTP 200)",
};

/// vLLM's xgrammar gate (`has_xgrammar_unsupported_json_features`): `multipleOf`,
/// `uniqueItems`, `contains`, `patternProperties`/`propertyNames` and formats
/// outside its list make an explicit xgrammar backend raise; `oneOf` is treated
/// as `anyOf`; no regex lookaround.
const XGRAMMAR_FORMATS: &[&str] = &[
    "email", "date", "time", "date-time", "duration", "ipv4", "ipv6", "hostname", "uuid", "uri", "uri-reference",
    "uri-template", "json-pointer", "relative-json-pointer",
];

pub static XGRAMMAR: Target = Target {
    id: "xgrammar",
    description: "xgrammar as gated by vLLM / SGLang structured outputs",
    source: "https://github.com/vllm-project/vllm/blob/main/vllm/v1/structured_output/backend_xgrammar.py",
    caps: Caps {
        strip: Names::new(&[
            "$schema", "not", "if", "then", "else", "multipleOf", "uniqueItems", "contains", "minContains", "maxContains",
            "patternProperties", "propertyNames", "dependentSchemas", "dependentRequired", "unevaluatedProperties",
            "unevaluatedItems",
        ]),
        one_of: false,
        formats: Some(XGRAMMAR_FORMATS),
        ..GRAMMAR
    },
    passes: rules![
        PLAIN_COMBINATORS,
        DISTRIBUTED_UNIONS,
        GRAMMAR_REGEX,
        &[pass("string-format-first", xgrammar_string_rule), pass("declare-required", declare_required), pass("any-items", any_items), pass("strip-unsupported", spill::strip_unsupported)],
    ],
    on_violation: OnViolation::Report,
    relaxed: None,
};

/// llguidance errors (unless lenient) on `not`, conditionals, `uniqueItems`,
/// `propertyNames`, unknown formats and a `oneOf` it cannot prove exclusive.
const LLGUIDANCE_FORMATS: &[&str] =
    &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid", "uri"];

pub static LLGUIDANCE: Target = Target {
    id: "llguidance",
    description: "llguidance (vLLM guidance backend, llama.cpp optional)",
    source: "https://github.com/guidance-ai/llguidance/blob/main/docs/json_schema.md",
    caps: Caps {
        strip: Names::new(&[
            "$schema", "not", "if", "then", "else", "uniqueItems", "propertyNames", "contains", "minContains",
            "maxContains", "dependentSchemas", "dependentRequired", "unevaluatedProperties", "unevaluatedItems",
        ]),
        one_of: false,
        formats: Some(LLGUIDANCE_FORMATS),
        ..GRAMMAR
    },
    // Neither DISTRIBUTED_UNIONS nor unicode-classes, which answer llama.cpp's
    // and xgrammar's readers (#7703; `no_unicode_classes`); llguidance's own
    // numeric and pattern limits instead.
    passes: rules![
        PLAIN_COMBINATORS,
        &[
            pass("regex-subset", strict::regex_subset),
            pass("llguidance-limits", llguidance_limits),
            pass("strip-unsupported", spill::strip_unsupported),
        ],
    ],
    on_violation: OnViolation::Report,
    relaxed: None,
};

/// Ollama tool `parameters` are unmarshalled into a Go struct that keeps only
/// these keys (ollama/ollama#17142, #11444); everything else is lost before the
/// chat template runs, so it is spilled into `description`, the one text the
/// model sees. `$ref` inside properties is dropped, so refs are inlined.
const OLLAMA_KEYWORDS: Names = Names::new(&["type", "description", "enum", "anyOf", "items", "properties", "required"]);

/// Ollama writes the tools into the prompt and parses the calls from the text
/// (no grammar: ollama/ollama#6002), so no grammar ceiling applies; the size is
/// measured because the tools take context like any prompt text.
const OLLAMA_LIST: ListCeiling = ListCeiling {
    max_bytes: None,
    source: "ollama/ollama#6002 (tool schemas go into the prompt, no grammar)",
};

pub static OLLAMA: Target = Target {
    id: "ollama",
    description: "Ollama /api/chat tool parameters (not grammar-constrained; parsed into a fixed struct)",
    source: "https://github.com/ollama/ollama/blob/main/api/types.go; https://github.com/ollama/ollama/issues/17142",
    caps: Caps {
        keep: Some(OLLAMA_KEYWORDS),
        recursion: false,
        one_of: false,
        all_of: false,
        root_object: true,
        tool_list_size: Some(OLLAMA_LIST),
        ..GRAMMAR
    },
    // Not a grammar (ollama/ollama#6002): no regex rules; literal unions
    // become the `enum` its struct keeps.
    passes: rules![
        PLAIN_COMBINATORS,
        &[
            pass("literal-unions", constants::literal_unions),
            pass("splice-unions", combinators::splice_unions),
            pass("array-items", shapes::array_items),
            pass("strip-unsupported", spill::strip_unsupported),
            pass("root-object", shapes::root_object),
        ],
    ],
    on_violation: OnViolation::Report,
    relaxed: None,
};

/// llama.cpp enforces `minimum`/`maximum` (and the exclusive forms) on integers
/// only; on a `number` they would be silently ignored, so they are spilled into
/// the description and reported instead.
fn number_bounds(node: &mut crate::doc::Map, cx: &mut crate::context::Cx) -> crate::error::Result<()> {
    if crate::passes::types_of(node).has("number") {
        let keys: Vec<crate::doc::Key> = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]
            .iter()
            .filter(|k| node.contains_key(**k))
            .map(|k| crate::doc::Key::from(*k))
            .collect();
        spill::strip(node, &keys, cx);
    }
    Ok(())
}

/// llguidance builds a regex for numeric ranges and intersects patterns with
/// length bounds; it fails on float ranges near ±3.4e38 (Zod 4's float32
/// bounds: "Failed to generate regex for float range") and on intersections it
/// cannot decide ("Unable to determine if regex is empty"). Such bounds are
/// spilled: the range is effectively every float, and the pattern stays.
fn llguidance_limits(node: &mut crate::doc::Map, cx: &mut crate::context::Cx) -> crate::error::Result<()> {
    let huge: Vec<crate::doc::Key> = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]
        .iter()
        .filter(|k| node.get(**k).and_then(crate::doc::Value::as_f64).is_some_and(|v| v.abs() >= 1e15))
        .map(|k| crate::doc::Key::from(*k))
        .collect();
    spill::strip(node, &huge, cx);
    if node.has(kw::PATTERN) {
        let lengths: Vec<crate::doc::Key> =
            ["minLength", "maxLength"].iter().filter(|k| node.contains_key(**k)).map(|k| crate::doc::Key::from(*k)).collect();
        spill::strip(node, &lengths, cx);
    }
    Ok(())
}
