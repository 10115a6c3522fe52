//! Call options. Unknown keys are an error, so a typo never silently does nothing.
use serde::Deserialize;

/// How stripped, human-meaningful keywords are written into `description`.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SpillFormat {
    /// `{pattern: "^a$", minimum: 0}` appended after a blank line (the contract's format).
    #[default]
    Spill,
    /// ` (pattern: ^a$) (minimum: 0)` appended inline.
    Paren,
    /// Stripped keywords are only reported.
    None,
}

/// Which part of the OpenAI strict pipeline runs.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum StrictStage {
    /// Sanitize, enforce, check; fail open to the non-strict schema.
    #[default]
    Full,
    /// Only `sanitizeSchemaForStrictMode`.
    Sanitize,
}

/// What happens to an open map (an object with `additionalProperties` other
/// than `false`, or with no properties at all) on a target that cannot
/// express it (strict modes, which close every object; Gemini's Schema, which
/// has no `additionalProperties`): issue 18.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum OpenMaps {
    /// Sent as an array of `{"key", "value"}` entries (`passes::entries`),
    /// which `restoreArguments` turns back into the map.
    #[default]
    Entries,
    /// As before: strict fails open, Gemini drops the value schema.
    Keep,
}

/// What happens to a value of any JSON type (`{}`, a node with only
/// annotations) on a target that needs a type on every node.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum AnyValues {
    /// Sent as a string holding the value's JSON text (`passes::entries`),
    /// which `restoreArguments` parses back.
    #[default]
    Json,
    /// As before: strict fails open, Gemini types the node as a plain string.
    Keep,
}

/// What happens to a tuple whose positions differ (`prefixItems`) on a target
/// without tuples that encodes open maps.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Tuples {
    /// Sent as an object of its positions, `"0"`, `"1"`, ... (and `"rest"`)
    /// (`passes::tuples`), which `restoreArguments` turns back into the array.
    #[default]
    Objects,
    /// As before: strict fails open, Gemini widens it to `items: anyOf`.
    Keep,
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Options {
    pub spill: SpillFormat,
    pub strict_stage: StrictStage,
    /// Strip `pattern`, `format`, numeric and array bounds in OpenAI strict mode, as
    /// the provider's first strict release required (and fine-tuned models still do).
    pub strip_strict_constraints: bool,
    /// `"entries"` (default): open maps go out as entries arrays where the
    /// target cannot express them; `"keep"`: as they are (strict fails open).
    pub open_maps: OpenMaps,
    /// `"json"` (default): values of any type go out as JSON text where the
    /// target needs typed nodes; `"keep"`: as they are (strict fails open).
    pub any_values: AnyValues,
    /// `"objects"` (default): a tuple whose positions differ goes out as an
    /// object of its positions where the target has no tuples and encodes
    /// open maps; `"keep"`: as before (strict fails open, Gemini widens it).
    pub tuples: Tuples,
    /// Deepest JSON nesting accepted (`too-deep` past it).
    pub max_depth: usize,
    /// Most schema nodes that `$ref` inlining may produce before the deepest
    /// inline is coarsened (seed 001 `SIZE_BUDGET`); default per target (20,000,
    /// or 1,500 for llama.cpp, tuned to its grammar repetition threshold). The
    /// same number, counted apart, bounds the nodes that copying the keywords
    /// beside an `anyOf` into its branches may add (`any-of-collapsed` past it).
    pub size_budget: Option<usize>,
    /// Most nested `$ref` expansions on one path before the inline is coarsened
    /// (seed 001 `MAX_INLINE_DEPTH`); default per target.
    pub max_inline_depth: Option<usize>,
    /// How many times one recursive definition is expanded on a path before the
    /// cycle is cut, on targets that cannot express recursion.
    pub max_recursion: usize,
    /// An unresolvable `$ref` is an error instead of `{}` plus a lossy diagnostic.
    pub strict_unresolved_refs: bool,
    /// Extra keywords to strip on this call, for a model the target's rules do not
    /// cover (OpenClaw's per-model `unsupportedToolSchemaKeywords`).
    pub strip_keywords: Vec<String>,
    /// Shrink the output without changing its meaning, after the target's
    /// rules: drop keywords the target documents that it ignores, and hoist
    /// repeated subschemas into `$defs` where the target keeps refs
    /// (src/compact.rs). Off by default: outputs stay as they were.
    pub compact: bool,
    /// Neither the rules' diagnostics nor their counters are written (the
    /// lossy flag still is, except for residual violations, which the checker
    /// is not run for on a target that only reports them): for callers that
    /// drop the report. Not an option callers pass in JSON.
    #[serde(skip)]
    pub quiet: bool,
    /// What `google` does with the constraints its `Schema` has fields for
    /// (bounds, lengths, `pattern`, property counts, the formats Gemini
    /// allows): send them (`keep`) or, as the seed contract did, strip them
    /// into `description` (`spill`).
    pub google_constraints: GoogleConstraints,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            spill: SpillFormat::Spill,
            strict_stage: StrictStage::Full,
            strip_strict_constraints: false,
            open_maps: OpenMaps::Entries,
            any_values: AnyValues::Json,
            tuples: Tuples::Objects,
            max_depth: 256,
            size_budget: None,
            max_inline_depth: None,
            max_recursion: 1,
            strict_unresolved_refs: false,
            strip_keywords: Vec::new(),
            compact: false,
            quiet: false,
            google_constraints: GoogleConstraints::Keep,
        }
    }
}

impl Options {
    pub fn size_budget(&self, caps: &crate::profile::Caps) -> usize {
        self.size_budget.unwrap_or(caps.size_budget)
    }

    pub fn max_inline_depth(&self, caps: &crate::profile::Caps) -> usize {
        self.max_inline_depth.unwrap_or(caps.max_inline_depth)
    }

    pub fn from_json(text: &str) -> Result<Self, crate::error::Error> {
        // No options: what the package sends on nearly every call.
        if matches!(text.trim(), "" | "{}") {
            return Ok(Options::default());
        }
        let opts = Options::from_map(crate::settings::object(text, "options")?)?;
        opts.validate()?;
        Ok(opts)
    }

    /// The names `from_map` reads, as callers spell them.
    pub const NAMES: [&'static str; 14] = [
        "spill",
        "strictStage",
        "stripStrictConstraints",
        "openMaps",
        "anyValues",
        "tuples",
        "maxDepth",
        "sizeBudget",
        "maxInlineDepth",
        "maxRecursion",
        "strictUnresolvedRefs",
        "stripKeywords",
        "compact",
        "googleConstraints",
    ];

    /// Options from their JSON object's members (`crate::settings`): what
    /// serde's derive reads from the same object, without `validate`.
    pub fn from_map(members: crate::doc::Map) -> Result<Self, crate::error::Error> {
        use crate::settings::{choice, count, flag, maybe_count, texts, unknown};
        let mut o = Options::default();
        for (key, v) in &members {
            let name = key.as_str();
            match name {
                "spill" => o.spill = choice(name, v, &[("spill", SpillFormat::Spill), ("paren", SpillFormat::Paren), ("none", SpillFormat::None)])?,
                "strictStage" => o.strict_stage = choice(name, v, &[("full", StrictStage::Full), ("sanitize", StrictStage::Sanitize)])?,
                "stripStrictConstraints" => o.strip_strict_constraints = flag(name, v)?,
                "openMaps" => o.open_maps = choice(name, v, &[("entries", OpenMaps::Entries), ("keep", OpenMaps::Keep)])?,
                "anyValues" => o.any_values = choice(name, v, &[("json", AnyValues::Json), ("keep", AnyValues::Keep)])?,
                "tuples" => o.tuples = choice(name, v, &[("objects", Tuples::Objects), ("keep", Tuples::Keep)])?,
                "maxDepth" => o.max_depth = count(name, v)?,
                "sizeBudget" => o.size_budget = maybe_count(name, v)?,
                "maxInlineDepth" => o.max_inline_depth = maybe_count(name, v)?,
                "maxRecursion" => o.max_recursion = count(name, v)?,
                "strictUnresolvedRefs" => o.strict_unresolved_refs = flag(name, v)?,
                "stripKeywords" => o.strip_keywords = texts(name, v)?,
                "compact" => o.compact = flag(name, v)?,
                "googleConstraints" => o.google_constraints = choice(name, v, &[("keep", GoogleConstraints::Keep), ("spill", GoogleConstraints::Spill)])?,
                _ => return Err(unknown(name, &Self::NAMES)),
            }
        }
        Ok(o)
    }

    /// Keywords every target's structure is made of cannot be stripped: the rules
    /// that write them (an object root's `type`) would fight the strip forever.
    pub fn validate(&self) -> Result<(), crate::error::Error> {
        match self.strip_keywords.iter().find(|k| crate::keywords::get(k).is_some_and(|kw| kw.structural)) {
            Some(k) => Err(crate::error::Error::InvalidOptions {
                message: format!(
                    "stripKeywords cannot name {k:?}: it is part of the structure every target needs (structural keywords: {})",
                    crate::keywords::structural().collect::<Vec<_>>().join(", ")
                ),
            }),
            None => Ok(()),
        }
    }
}

/// `googleConstraints`: keep on the wire the constraints Gemini's `Schema`
/// accepts, or spill them into `description` as seed 003 §2.1 did.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum GoogleConstraints {
    #[default]
    Keep,
    Spill,
}

#[cfg(test)]
mod tests {
    use super::Options;

    /// `from_json` answers `{}` without serde: the answer must be serde's.
    #[test]
    fn no_options_read_as_serde_reads_them() {
        let by_serde: Options = serde_json::from_str("{}").expect("{} is options");
        for text in ["", "  ", "{}", " {} \n"] {
            assert_eq!(Options::from_json(text).expect("no options"), by_serde, "{text:?}");
        }
        assert!(Options::from_json("{ }").is_ok_and(|o| o == by_serde));
    }
}
