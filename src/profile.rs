//! What a provider can express: the capabilities a target's wire format
//! accepts (`Caps`), how it writes a `type` array, its name and size rules,
//! and what it does with an output its checker still refuses. Passes rewrite
//! toward these, `check` verifies them, and `targets/` states one per provider
//! from `BASE`. This layer knows no rule and no target: only the keyword table.
use crate::keywords::{kw, Keyword, Name, Names};

/// How a `type` array (`["string", "null"]`) is written for the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeArrays {
    /// Accepted as is.
    Keep,
    /// `["T","null"]` → `T` + `nullable: true`; several types → `anyOf` (Gemini).
    NullableMarker,
    /// `["T","null"]` → `T`, the property becomes optional; several → first (Cloud Code Assist).
    FirstType,
    /// One `anyOf` branch per type (OpenAI strict).
    AnyOf,
}

/// What the target's wire format accepts. Passes rewrite toward it; `check` verifies it.
#[derive(Clone, Copy, Debug)]
pub struct Caps {
    /// Keywords the target accepts; `None` accepts every keyword.
    pub keep: Option<Names>,
    /// Keywords removed even when `keep` is `None`.
    pub strip: Names,
    /// `$ref` + `$defs` recursion can be expressed.
    pub recursion: bool,
    pub type_arrays: TypeArrays,
    /// The output may carry OpenAPI's `nullable: true`.
    pub nullable_marker: bool,
    /// `enum` values must be strings (Gemini's Schema proto: F19).
    pub string_enums: bool,
    pub any_of: bool,
    pub one_of: bool,
    pub all_of: bool,
    /// `not`, `if`/`then`/`else`.
    pub negation: bool,
    /// Every node needs a `type` (or an `anyOf` of typed branches).
    pub typed_nodes: bool,
    /// Every object needs `properties` (OpenAI F3, Gemini).
    pub object_properties: bool,
    /// Every array needs `items` (OpenAI F34, Gemini).
    pub array_items: bool,
    /// The root must be `type: "object"` without a root combinator (F4, F5, F13).
    pub root_object: bool,
    /// The object root may also carry `enum`, `const`, `not` and
    /// `if`/`then`/`else` (MCP: any 2020-12 schema of type object); OpenAI
    /// rejects them there (F4), and the others follow it.
    pub root_assertions: bool,
    /// Every `required` name must be a declared property (Gemini, Groq F25).
    pub required_declared: bool,
    /// String formats the target accepts; `None` accepts any.
    pub formats: Option<&'static [&'static str]>,
    /// `type: "null"` is accepted.
    pub null_type: bool,
    /// Every `anyOf` branch carries `type` (or `$ref`) itself, not through a
    /// nested union (OpenAI strict F31, Moonshot F30).
    pub typed_branches: bool,
    /// Every object must be closed (`additionalProperties: false`).
    pub closed_objects: bool,
    /// Every property must be listed in `required`; `$ref` has no siblings;
    /// OpenAI's size limits apply (OpenAI strict, DeepSeek strict).
    pub all_required: bool,
    /// Spill stripped human-meaningful keywords into `description`.
    pub spill: bool,
    /// Inline every non-cyclic `$ref`, even where `$ref` is accepted (backends
    /// that mishandle nested refs: llama.cpp#8073, Ollama).
    pub inline_refs: bool,
    /// Default `sizeBudget`: nodes `$ref` inlining may produce, and nodes that
    /// distributing union siblings into branches may add.
    pub size_budget: usize,
    /// Default `maxInlineDepth`: nested `$ref` expansions on one path.
    pub max_inline_depth: usize,
    /// Limits summed over every strict tool of one request (Anthropic strict).
    pub request_budget: Option<RequestBudget>,
    /// Every tool needs a schema, even one without parameters (Anthropic F41).
    pub tool_schema_required: bool,
    /// `"$ref": "#"` (the root) is understood; otherwise root recursion goes
    /// through a `$defs` entry (llama.cpp: "unsupported $ref #").
    pub root_refs: bool,
    /// What the provider accepts as a tool name; `None`: any string (the name
    /// is only matched, never validated). `normalizeTools` rewrites a name
    /// that breaks the rule (src/tools/names.rs).
    pub tool_names: Option<NameRule>,
    /// The combined size of a tool list is measured (`telemetry.listSize`),
    /// with the ceiling past which the backend fails, where there is one.
    pub tool_list_size: Option<ListCeiling>,
    /// An `anyOf` node carries no other field (the Gemini API past its
    /// `Schema` proto: anomalyco/opencode#14700).
    pub lone_any_of: bool,
    /// `properties`, `required` and `propertyOrdering` only on `type: "object"`
    /// nodes (Gemini: "only allowed for OBJECT type", anomalyco/opencode#11889,
    /// goruck/home-generative-agent#525).
    pub object_only_fields: bool,
    /// A `$ref` stands alone: a kept reference never has sibling keywords
    /// (Moonshot expands it and rejects "conflicting keywords found after $ref
    /// expansion", MoonshotAI/kimi-cli#1903, #2061; a sibling `type` is refused
    /// outright). Refs with siblings are inlined; where the target is
    /// recursive, the site refers to a `$defs` entry of the target with the
    /// siblings merged in.
    pub lone_refs: bool,
    /// `additionalProperties` is accepted only as `false` (WebMCP's input
    /// schema subset: webmachinelearning/webmcp#289).
    pub additional_false_only: bool,
    /// Keywords the provider accepts and documents that it ignores: the
    /// `compact` option drops them (src/compact.rs).
    pub ignored: Ignored,
    /// Formats accepted per instance type, where they depend on it (Gemini's
    /// `Schema`: NUMBER `float`, `double`; INTEGER `int32`, `int64`; STRING
    /// `enum`, `date-time`); a format the node's type does not list is refused.
    pub formats_by_type: Option<&'static [(&'static str, &'static [&'static str])]>,
    /// A kept constraint (`minimum`, `minLength`, `pattern`, ...) only on a
    /// node of the type it constrains, and a count (`minItems`, `maxLength`,
    /// ...) only as an integer a 64-bit field holds (the `Schema` proto's
    /// int64 fields refuse 2.5, `true` and 2^63).
    pub typed_constraints: bool,
    /// Constraints the target accepts that the `googleConstraints: "spill"`
    /// option strips into `description`, as seed 003 §2.1 did.
    pub optional_constraints: &'static [&'static str],
    /// `enum` values only strings and numbers (Gemini's JSON Schema:
    /// "enum (for strings and numbers)").
    pub scalar_enums: bool,
}

/// Keywords a target accepts but ignores, with the document that says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ignored {
    pub keywords: &'static [&'static str],
    pub source: &'static str,
}

/// A provider's rule for tool (function) names: ASCII letters, digits, `_`
/// and the characters of `extra`, 1 to `max` characters, the first a letter
/// or `_` when `letter_first`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameRule {
    pub max: usize,
    pub extra: &'static str,
    pub letter_first: bool,
    /// The provider document or issue the rule is from.
    pub source: &'static str,
}

impl NameRule {
    pub fn allows(&self, c: char) -> bool {
        c.is_ascii_alphanumeric() || c == '_' || self.extra.contains(c)
    }

    pub fn accepts(&self, name: &str) -> bool {
        !name.is_empty()
            && name.len() <= self.max
            && name.chars().all(|c| self.allows(c))
            && (!self.letter_first || name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
    }
}

/// How large a tool list may get on a backend that compiles every tool of a
/// request into one grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListCeiling {
    /// Bytes of compact JSON the tools may add up to; `None`: measured only.
    pub max_bytes: Option<usize>,
    /// Why, and where the number comes from.
    pub source: &'static str,
}

/// Anthropic strict tool use compiles all strict tools of a request into one
/// grammar: at most 20 strict tools, 24 optional parameters and 16 parameters
/// with `anyOf` or a type list, summed ([A2]; F10, F11, F44).
#[derive(Clone, Copy, Debug)]
pub struct RequestBudget {
    pub tools: usize,
    pub optional: usize,
    pub unions: usize,
}

impl Caps {
    pub fn keeps<N: Name + AsRef<str> + ?Sized>(&self, key: &N) -> bool {
        !self.strip.contains(key) && self.keep.map_or(true, |k| k.contains(key))
    }

    /// Whether `format` is one of the string formats the target accepts (any, without a list).
    pub fn takes_format(&self, format: &str) -> bool {
        self.formats.map_or(true, |formats| formats.contains(&format))
    }

    /// Keywords the wire refuses: those not kept and, without `negation`, `not`
    /// and the conditionals (a target may remove those with a rule of its own
    /// rather than `strip`, as Fireworks does `not`).
    pub fn refuses<N: Name + AsRef<str> + ?Sized>(&self, key: &N) -> bool {
        !self.keeps(key) || (!self.negation && crate::keywords::NEGATION.contains(&key.as_ref()))
    }

    /// The table's keywords the target keeps (`keeps`) and whose values
    /// `refuses_value` never refuses, one bit each by row: those kept
    /// whatever their value.
    pub fn kept_with_any_value(&self) -> u64 {
        let mut rows = !self.strip.keyword_rows() & self.keep.map_or(u64::MAX, |k| k.keyword_rows());
        if self.scalar_enums {
            rows &= !(1 << kw::ENUM.row);
        }
        if self.formats_by_type.is_some() {
            rows &= !(1 << kw::FORMAT.row);
        }
        if self.typed_constraints {
            rows &= !u64::from(crate::keywords::TYPED_CONSTRAINT_ROWS);
        }
        rows
    }

    /// The keywords with a bit in `doc::Map` that `refuses` never refuses and
    /// whose values `refuses_value` never refuses, by row: a node whose keys
    /// are all among them passes both without asking of each member.
    pub fn unrefused_rows(&self) -> u32 {
        let mut rows = self.kept_with_any_value();
        if !self.negation {
            for k in crate::keywords::NEGATION.iter().filter_map(|name| crate::keywords::lookup(name)) {
                rows &= !(1 << k.row);
            }
        }
        rows as u32
    }

    /// Why a kept keyword's value cannot stand on a node of `types` (a
    /// checker code), or `None` when it can.
    pub fn refuses_value<N: Name + AsRef<str> + ?Sized>(&self, key: &N, value: &crate::doc::Value, types: &[&str]) -> Option<&'static str> {
        let word = key.keyword();
        let is = |k: &Keyword| word.is_some_and(|w| w.row == k.row);
        if is(kw::ENUM) && self.scalar_enums {
            let scalar = |v: &crate::doc::Value| v.is_string() || v.is_number();
            return value.as_array().is_some_and(|e| !e.iter().all(scalar)).then_some("enum-not-scalar");
        }
        let typed = || types.iter().copied().filter(|t| *t != "null");
        if is(kw::FORMAT) {
            if let (Some(table), Some(f)) = (self.formats_by_type, value.as_str()) {
                let listed = |t: &str| table.iter().any(|(ty, fs)| *ty == t && fs.contains(&f));
                return (typed().next().is_none() || !typed().all(listed)).then_some("unsupported-format");
            }
        }
        if !self.typed_constraints {
            return None;
        }
        let word = word?;
        if word.kind != crate::keywords::Kind::Validation || !word.spill || word.applies == crate::keywords::Applies::Any {
            return None;
        }
        if !typed().any(|t| crate::keywords::applies_to(word.applies, t)) {
            return Some("constraint-on-other-type");
        }
        (word.shape == crate::keywords::Shape::Count && !fits_int64(value)).then_some("count-not-int64")
    }
}

/// An integer a signed 64-bit field holds (`2` and `2.0`, not `2.5` or 2^63).
fn fits_int64(value: &crate::doc::Value) -> bool {
    value.as_i64().is_some() || value.as_f64().is_some_and(|f| f.fract() == 0.0 && f.abs() < 9.223_372_036_854_775e18)
}

/// The permissive base every target starts from: any 2020-12 schema.
pub const BASE: Caps = Caps {
    keep: None,
    strip: Names::EMPTY,
    recursion: true,
    type_arrays: TypeArrays::Keep,
    nullable_marker: false,
    string_enums: false,
    any_of: true,
    one_of: true,
    all_of: true,
    negation: true,
    typed_nodes: false,
    object_properties: false,
    array_items: false,
    root_object: false,
    root_assertions: false,
    required_declared: false,
    formats: None,
    null_type: true,
    typed_branches: false,
    closed_objects: false,
    all_required: false,
    spill: true,
    inline_refs: false,
    size_budget: 20_000,
    max_inline_depth: 64,
    request_budget: None,
    tool_schema_required: false,
    root_refs: true,
    tool_names: None,
    tool_list_size: None,
    lone_any_of: false,
    object_only_fields: false,
    lone_refs: false,
    additional_false_only: false,
    ignored: Ignored { keywords: &[], source: "" },
    formats_by_type: None,
    typed_constraints: false,
    optional_constraints: &[],
    scalar_enums: false,
};

/// What the target does when its output still fails its checker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnViolation {
    /// Return the output with the violations in the report.
    Report,
    /// Replace the schema with `{"type":"object","properties":{}}` (per-tool fail-open).
    Fallback,
    /// OpenAI strict: `strict: false` with the non-strict `openai` output.
    FailOpen,
}

/// What the rules see of the target they run for: its id (for messages), what
/// it accepts, and what happens to an output it still refuses. Built by
/// `Target::cx`; the rule list itself travels beside it (`context::Cx::rules`).
#[derive(Clone, Copy, Debug)]
pub struct Profile<'t> {
    pub id: &'static str,
    /// Borrowed from the target: `Caps` is a couple of hundred bytes, which
    /// every `let caps = cx.target.caps` in a rule copied field by field
    /// (about 190 wasm operators a node for strip-unsupported alone).
    pub caps: &'t Caps,
    pub on_violation: OnViolation,
}
