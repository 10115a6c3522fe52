//! Schemas a target's run gives back as they came, but for the root's
//! `$schema`: most real tool schemas, on the targets whose rules only shape
//! what is malformed (MCP, OpenAI without strict, OpenAI Responses, Mistral).
//! On the real MCP schemas of the corpus, 226 of 261 come out of the MCP
//! target so, 214 out of OpenAI Responses. A call with the default options
//! gives them back without the run (`pipeline::normalize_parsed`), with the
//! report the run would write (`report`): no draft upgrade, no reference
//! pass, no rules.
//!
//! The question is asked of the parsed schema and answers yes only where
//! every step of the run is known to change nothing, each condition below
//! standing for the step that would act: anything else, and anything
//! unsure, takes the run. `tests/untouched.rs` holds the answer to the run's
//! own over the corpus and over generated schemas built to sit on either side
//! of each condition.
use crate::doc::{Map, Value};
use crate::keywords::{kw, Keyword, Shape, Slot, KEYWORDS};
use crate::lookup::Fields;
use crate::options::Options;
use crate::profile::OnViolation;
use crate::report::Report;
use crate::targets::Target;

/// The rules whose work on a schema within `INERT` is known here. A target
/// that runs any other takes the run.
const KNOWN_RULES: &[&str] = &["strip-unsupported", "object-shapes", "array-items", "root-object", "one-of-to-any-of", "regex-subset"];

/// Keywords no step of those targets' runs rewrites when their values have
/// the table's shape (`values::bad_shape`), by row: of the combinators only
/// `anyOf` (asked below: the never-prune folds a one-branch union, and
/// `root-object` merges the root's), no reference or definitions, no `not`,
/// no `nullable`, no draft-only forms. Each has a bit in `doc::Map`.
const INERT: &[&Keyword] = &[
    kw::TYPE,
    kw::PROPERTIES,
    kw::DESCRIPTION,
    kw::ITEMS,
    kw::REQUIRED,
    kw::ENUM,
    kw::TITLE,
    kw::DEFAULT,
    kw::FORMAT,
    kw::MINIMUM,
    kw::MAXIMUM,
    kw::CONST,
    kw::PATTERN,
    kw::ADDITIONAL_PROPERTIES,
    kw::MIN_LENGTH,
    kw::MAX_LENGTH,
    kw::MIN_ITEMS,
    kw::MAX_ITEMS,
    kw::EXAMPLES,
    kw::EXCLUSIVE_MINIMUM,
    kw::EXCLUSIVE_MAXIMUM,
    kw::UNIQUE_ITEMS,
    kw::ANY_OF,
    kw::PROPERTY_NAMES,
];

/// Deepest schema nesting asked about: deeper ones take the run.
const MAX_LEVELS: usize = 32;

/// `INERT` by row.
const INERT_ROWS: u32 = {
    let mut rows = 0;
    let mut i = 0;
    while i < INERT.len() {
        rows |= 1 << INERT[i].row;
        i += 1;
    }
    rows
};

/// The rows whose values the table gives a shape (`values::misses`) to ask:
/// of `INERT` and `$schema`, those holding data (a `$schema` that is not a
/// string goes too, reported as a repair). A subschema slot is asked
/// for an object (stricter than its shape) where it is walked, and `default`
/// and `const` take any value.
const SHAPED_ROWS: u32 = {
    let mut rows = 0;
    let mut i = 0;
    while i < INERT.len() {
        let k = INERT[i];
        if matches!(k.slot, Slot::Data) && !matches!(k.shape, Shape::Any) {
            rows |= 1 << k.row;
        }
        i += 1;
    }
    rows | 1 << kw::SCHEMA.row
};

/// Whether `target`'s run with `opts` would give `schema` back with nothing
/// changed but the root's `$schema` removed (`strip_root`), and report what
/// `report` says. Options other than the defaults (quiet or not) take the run.
pub fn untouched(schema: &Value, target: &Target, opts: &Options) -> bool {
    let caps = &target.caps;
    // The run's outcome is the output alone: no checker decides it.
    // (A longer list holds another rule: asked first, it costs the targets
    // this is not for nearly nothing.)
    if target.passes.len() > KNOWN_RULES.len()
        || target.on_violation != OnViolation::Report
        || !target.passes.iter().all(|p| KNOWN_RULES.contains(&p.name))
    {
        return false;
    }
    // `$schema` is stripped, whatever the upgrade wrote there. Where only
    // objects may hold `properties` and `required`, or `required` may name
    // declared properties only, `object-shapes` rewrites what is asked
    // nowhere below.
    if caps.keeps(kw::SCHEMA) || caps.object_only_fields || caps.required_declared {
        return false;
    }
    if *opts != (Options { quiet: opts.quiet, ..Options::default() }) {
        return false;
    }
    // `strip-unsupported` says where a target that writes every object with
    // `properties` cannot say that one takes any members.
    if !opts.quiet && caps.object_properties && !caps.keeps(kw::ADDITIONAL_PROPERTIES) {
        return false;
    }
    let Value::Object(root) = schema else { return false };
    // `root-object`: an object root stays as it is; its `enum` and `const`
    // are rewritten where the target refuses them there, its union merged.
    if root.field(kw::TYPE).and_then(Value::as_str) != Some("object") || root.has(kw::ENUM) || root.has(kw::CONST) || root.has(kw::ANY_OF) {
        return false;
    }
    let ask = Ask {
        // `strip-unsupported`: what the call keeps whatever its value
        // (`Cx::plainly_kept`, with the default options).
        inert: INERT_ROWS & crate::context::plainly_kept(caps, opts),
        object_properties: caps.object_properties && target.passes.iter().any(|p| p.name == "object-shapes"),
        array_items: caps.array_items && target.passes.iter().any(|p| p.name == "array-items"),
        regex_subset: target.passes.iter().any(|p| p.name == "regex-subset"),
    };
    ask.node(root, 0, true)
}

/// What the run reports of an `untouched` schema, before `strip_root`:
/// nothing on a quiet call; else, for a root `$schema`, the upgrade's
/// rewrite of one that names an older dialect and the strip.
pub fn report(schema: &Value, opts: &Options) -> Report {
    let mut report = Report::default();
    if opts.quiet {
        return report;
    }
    // `untouched` asked that a `$schema` be a string.
    if let Some(Value::String(uri)) = schema.field(kw::SCHEMA) {
        if crate::draft::rewrites_dialect(crate::draft::detect(schema), uri) {
            report.count("dialectUpgrades");
        }
        report.count("keywordsStripped");
    }
    report
}

/// Removes what the run strips from an `untouched` schema: the root's
/// `$schema`. Whether there was one.
pub fn strip_root(schema: &mut Value) -> bool {
    match schema {
        Value::Object(root) => root.remove_field(kw::SCHEMA).is_some(),
        _ => false,
    }
}

struct Ask {
    inert: u32,
    object_properties: bool,
    array_items: bool,
    regex_subset: bool,
}

impl Ask {
    fn node(&self, m: &Map, level: usize, root: bool) -> bool {
        if level > MAX_LEVELS || !m.keys_are_bits() {
            return false;
        }
        let allowed = if root { self.inert | Map::bit(kw::SCHEMA) } else { self.inert };
        if m.keyword_bits() & !allowed != 0 {
            return false;
        }
        // The draft upgrade repairs values of the wrong shape.
        let mut shaped = m.keyword_bits() & SHAPED_ROWS;
        while shaped != 0 {
            let word = &KEYWORDS[shaped.trailing_zeros() as usize];
            shaped &= shaped - 1;
            if m.field(word).is_some_and(|value| crate::values::misses(word.shape, value).is_some()) {
                return false;
            }
        }
        // The never-prune drops or rewrites what accepts nothing (`enum: []`).
        if crate::values::is_never_object(m) {
            return false;
        }
        // `type` one name: a list is narrowed to the values (`enum`) and split
        // or rewritten by many targets.
        let ty = match m.field(kw::TYPE) {
            None => None,
            Some(Value::String(t)) => Some(t.as_str()),
            Some(_) => return false,
        };
        // `object-shapes` gives an object `properties`; `array-items` an array `items`.
        if self.object_properties && ty == Some("object") && !m.has(kw::PROPERTIES) {
            return false;
        }
        if self.array_items && ty == Some("array") && !m.has(kw::ITEMS) {
            return false;
        }
        // `regex-subset` strips a pattern that needs backtracking.
        if self.regex_subset {
            if let Some(Value::String(p)) = m.field(kw::PATTERN) {
                if crate::passes::regex::needs_backtracking(p) {
                    return false;
                }
            }
        }
        // Subschemas are objects: the upgrade writes `true` as `{}` and
        // `false` as `{"not": {}}`, and only `additionalProperties: false`
        // comes back from that as it was (the never-prune writes `false` again).
        if let Some(Value::Object(props)) = m.field(kw::PROPERTIES) {
            if !props.values().all(|p| matches!(p, Value::Object(p) if self.node(p, level + 1, false))) {
                return false;
            }
        }
        for word in [kw::ITEMS, kw::PROPERTY_NAMES] {
            match m.field(word) {
                None => {}
                Some(Value::Object(sub)) if self.node(sub, level + 1, false) => {}
                Some(_) => return false,
            }
        }
        // A union of one branch is folded into its node; one of two or more
        // stays (a branch that accepts nothing is dropped: asked of each).
        if let Some(Value::Array(branches)) = m.field(kw::ANY_OF) {
            if branches.len() < 2 || !branches.iter().all(|b| matches!(b, Value::Object(b) if self.node(b, level + 1, false))) {
                return false;
            }
        }
        match m.field(kw::ADDITIONAL_PROPERTIES) {
            None | Some(Value::Bool(false)) => {}
            Some(Value::Object(more)) if self.node(more, level + 1, false) => {}
            Some(_) => return false,
        }
        true
    }
}
