//! A JSON Schema 2020-12 validator for tool arguments.
//!
//! Written here rather than taken as a dependency: the well-kept Rust
//! validators bring a regex engine, URL handling and remote-reference support
//! that would several-fold the wasm module (see the README's round-trip
//! section for the measurement), while tool arguments need the assertion and
//! applicator vocabularies over one local document. `pattern` uses the host's
//! ECMA-262 engine in JavaScript (what the specification names) and
//! `regex-lite` natively; `format` is an annotation (the 2020-12 default).
//! Every error carries a message that says what to send instead.
use crate::lookup::Fields;
use super::describe::{describe, is_are};
use super::pattern::Patterns;
use super::{place, preview, Original, RefTrail};
use crate::error::{Error, Result};
use crate::pointer::Pointer;
use serde::Serialize;
use crate::doc::{Map, Value};
use crate::hash::HashSet;
use crate::keywords::kw;

/// One way the arguments miss the schema.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArgError {
    /// JSON pointer into the arguments.
    pub pointer: String,
    /// The keyword that failed (`type`, `required`, `minimum`, ...).
    pub keyword: String,
    /// JSON pointer into the original schema (after its upgrade to 2020-12).
    pub schema_pointer: String,
    /// What is wrong and what to send instead, written for the model.
    pub message: String,
}

crate::doc::write_json_struct!(ArgError { always pointer: "pointer", always keyword: "keyword", always schema_pointer: "schemaPointer", always message: "message" });

/// Work bound for one call: hostile unions nested under refs cannot make
/// validation exponential without limit.
const STEP_BUDGET: usize = 1_000_000;

/// What one schema said about one value: errors, and the annotations
/// `unevaluatedProperties`/`unevaluatedItems` read.
#[derive(Default)]
pub(super) struct Outcome {
    pub errors: Vec<ArgError>,
    props: HashSet<String>,
    items: usize,
    all_items: bool,
    /// Indices `contains` matched, ascending.
    contained: Vec<usize>,
}

impl Outcome {
    pub fn valid(&self) -> bool {
        self.errors.is_empty()
    }

    fn absorb(&mut self, other: Outcome) {
        self.errors.extend(other.errors);
        self.absorb_annotations(other.props, other.items, other.all_items, other.contained);
    }

    fn absorb_annotations(
        &mut self,
        props: HashSet<String>,
        items: usize,
        all: bool,
        contained: Vec<usize>,
    ) {
        self.props.extend(props);
        self.items = self.items.max(items);
        self.all_items |= all;
        self.contained.extend(contained);
        crate::sort::sort(&mut self.contained);
        self.contained.dedup();
    }
}

pub(super) struct Validator<'d> {
    doc: &'d Original,
    steps: usize,
    depth: usize,
    spath: Pointer,
    ipath: Pointer,
    /// Compiled patterns, shared with the restore/repair walk that owns this validator.
    pub(super) patterns: Patterns,
    /// `$ref` targets being evaluated.
    active: RefTrail,
    /// Patterns the engine cannot run (lookaround, backreferences), by schema pointer.
    unchecked: Vec<String>,
    /// Long enums as sets of canonical texts, by the address of their values.
    enums: Vec<(usize, HashSet<String>)>,
}

/// All errors of `args` against the original schema.
/// All errors of `args` against the original schema, and the schema
/// pointers of the patterns that could not be checked.
pub(super) fn errors(args: &Value, doc: &Original) -> Result<(Vec<ArgError>, Vec<String>)> {
    let mut v = Validator::new(doc);
    let errors = v.check(&doc.root, args, &Pointer::root(), &Pointer::root())?.errors;
    Ok((errors, v.unchecked))
}

impl<'d> Validator<'d> {
    pub fn new(doc: &'d Original) -> Self {
        Validator {
            doc,
            steps: 0,
            depth: 0,
            spath: Pointer::root(),
            ipath: Pointer::root(),
            patterns: Patterns::default(),
            active: RefTrail::default(),
            unchecked: Default::default(),
            enums: Vec::new(),
        }
    }

    /// Evaluates `schema` (found at `spath`) on `inst` (found at `ipath`).
    pub fn check(
        &mut self,
        schema: &Value,
        inst: &Value,
        spath: &Pointer,
        ipath: &Pointer,
    ) -> Result<Outcome> {
        let saved = (
            std::mem::replace(&mut self.spath, spath.clone()),
            std::mem::replace(&mut self.ipath, ipath.clone()),
        );
        let out = self.node(schema, inst);
        (self.spath, self.ipath) = saved;
        out
    }

    fn node(&mut self, schema: &Value, inst: &Value) -> Result<Outcome> {
        self.steps += 1;
        if self.steps > STEP_BUDGET {
            return Err(Error::TooLarge {
                pointer: self.spath.clone(),
                message: format!("checking the arguments took more than {STEP_BUDGET} steps; the schema's unions and references are too entangled to check"),
            });
        }
        self.depth += 1;
        if self.depth > 2 * self.doc.max_depth + 16 {
            return Err(Error::TooDeep {
                pointer: self.spath.clone(),
                limit: self.doc.max_depth,
            });
        }
        let out = match schema {
            Value::Bool(false) => {
                let mut o = Outcome::default();
                let msg = format!("{} is not allowed here; leave it out", place(&self.ipath));
                self.fail(&mut o, "false", msg);
                Ok(o)
            }
            Value::Object(m) => self.object(m, inst),
            _ => Ok(Outcome::default()),
        };
        self.depth -= 1;
        out
    }

    /// Enum membership; a long enum is hashed once per call (by canonical
    /// text), so 100,000 items against 100,000 values stay linear.
    fn in_enum(&mut self, values: &[Value], inst: &Value) -> bool {
        if values.len() <= 32 {
            return values.iter().any(|v| json_eq(v, inst));
        }
        let key = values.as_ptr() as usize;
        let at = match self.enums.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                self.steps += values.len();
                self.enums.push((key, values.iter().map(canonical).collect()));
                self.enums.len() - 1
            }
        };
        self.enums[at].1.contains(&canonical(inst))
    }

    fn note_unchecked(&mut self, at: String) {
        if !self.unchecked.contains(&at) {
            self.unchecked.push(at);
        }
    }

    fn fail(&self, out: &mut Outcome, keyword: &str, message: String) {
        out.errors.push(ArgError {
            pointer: self.ipath.to_string(),
            keyword: keyword.to_string(),
            schema_pointer: self.spath.child(keyword).to_string(),
            message,
        });
    }

    /// "`limit` must be an integer ≥ 1; you sent "10"": the node's whole
    /// expectation, which is what a model needs to send the right value.
    fn must_be(&self, out: &mut Outcome, keyword: &str, m: &Map, inst: &Value) {
        let msg = format!(
            "{} must be {}; you sent {}",
            place(&self.ipath),
            describe(self.doc, m, &self.spath),
            preview(inst)
        );
        self.fail(out, keyword, msg);
    }

    fn sub(&mut self, seg: &[&str], schema: &Value, inst: &Value) -> Result<Outcome> {
        for s in seg {
            self.spath.push(s);
        }
        let out = self.node(schema, inst);
        for _ in seg {
            self.spath.pop();
        }
        out
    }

    fn child(&mut self, seg: &[&str], key: &str, schema: &Value, inst: &Value) -> Result<Outcome> {
        self.ipath.push(key);
        let out = self.sub(seg, schema, inst);
        self.ipath.pop();
        out
    }

    fn object(&mut self, m: &Map, inst: &Value) -> Result<Outcome> {
        let mut out = Outcome::default();
        for key in ["$ref", "$dynamicRef"] {
            if let Some(Value::String(r)) = m.get(key) {
                self.reference((key, r), inst, &mut out)?;
            }
        }
        if let Some(t) = m.field(kw::TYPE) {
            if !type_matches(inst, t) {
                self.must_be(&mut out, "type", m, inst);
                return Ok(out);
            }
        }
        if let Some(Value::Array(values)) = m.field(kw::ENUM) {
            if !self.in_enum(values, inst) {
                self.must_be(&mut out, "enum", m, inst);
            }
        }
        if let Some(c) = m.field(kw::CONST) {
            if !json_eq(c, inst) {
                self.must_be(&mut out, "const", m, inst);
            }
        }
        match inst {
            Value::Number(_) => self.number(m, inst, &mut out),
            Value::String(s) => self.string(m, s, inst, &mut out),
            Value::Array(items) => self.array(m, items, &mut out)?,
            Value::Object(obj) => self.properties(m, obj, &mut out)?,
            _ => {}
        }
        self.combinators(m, inst, &mut out)?;
        self.unevaluated(m, inst, &mut out)?;
        Ok(out)
    }

    fn reference(&mut self, r: (&str, &str), inst: &Value, out: &mut Outcome) -> Result<()> {
        let Some((saved, schema)) = self.active.enter(self.doc, r, &mut self.spath, self.ipath.len()) else {
            return Ok(());
        };
        let o = self.node(schema, inst);
        self.active.leave(&mut self.spath, saved);
        out.absorb(o?);
        Ok(())
    }

    fn number(&mut self, m: &Map, inst: &Value, out: &mut Outcome) {
        let Some(x) = inst.as_f64() else { return };
        let bound = |k: &str| m.get(k).and_then(Value::as_f64);
        type Holds = fn(f64, f64) -> bool;
        let checks: [(&str, Holds); 4] = [
            ("minimum", |x, b| x >= b),
            ("maximum", |x, b| x <= b),
            ("exclusiveMinimum", |x, b| x > b),
            ("exclusiveMaximum", |x, b| x < b),
        ];
        for (k, ok) in checks {
            if let Some(b) = bound(k) {
                if !ok(x, b) {
                    self.must_be(out, k, m, inst);
                    return;
                }
            }
        }
        if let Some(d) = bound("multipleOf") {
            if d > 0.0 && !is_multiple(inst, x, m.field(kw::MULTIPLE_OF), d) {
                self.must_be(out, "multipleOf", m, inst);
            }
        }
    }

    fn string(&mut self, m: &Map, s: &str, inst: &Value, out: &mut Outcome) {
        let len = s.chars().count() as u64;
        if m.field(kw::MIN_LENGTH)
            .and_then(Value::as_u64)
            .is_some_and(|n| len < n)
        {
            return self.must_be(out, "minLength", m, inst);
        }
        if m.field(kw::MAX_LENGTH)
            .and_then(Value::as_u64)
            .is_some_and(|n| len > n)
        {
            return self.must_be(out, "maxLength", m, inst);
        }
        if let Some(Value::String(p)) = m.field(kw::PATTERN) {
            let found = self.patterns.is_match(p, s);
            if found.is_none() {
                self.note_unchecked(self.spath.child("pattern").to_string());
            }
            if found == Some(false) {
                self.must_be(out, "pattern", m, inst);
            }
        }
    }

    fn array(&mut self, m: &Map, items: &[Value], out: &mut Outcome) -> Result<()> {
        let at = place(&self.ipath);
        let n = items.len() as u64;
        let plural = |k: u64| if k == 1 { "item" } else { "items" };
        if let Some(min) = m
            .field(kw::MIN_ITEMS)
            .and_then(Value::as_u64)
            .filter(|&min| n < min)
        {
            self.fail(
                out,
                "minItems",
                format!(
                    "{at} must have at least {min} {}; you sent {n}",
                    plural(min)
                ),
            );
        }
        if let Some(max) = m
            .field(kw::MAX_ITEMS)
            .and_then(Value::as_u64)
            .filter(|&max| n > max)
        {
            self.fail(
                out,
                "maxItems",
                format!("{at} must have at most {max} {}; you sent {n}", plural(max)),
            );
        }
        if m.field(kw::UNIQUE_ITEMS) == Some(&Value::Bool(true)) {
            // Sorted by canonical text: equal items sit side by side.
            let mut keyed: Vec<(String, usize)> = items.iter().enumerate().map(|(i, item)| (canonical(item), i)).collect();
            self.steps += keyed.len();
            crate::sort::sort(&mut keyed);
            let first_repeat = keyed.windows(2).filter(|w| w[0].0 == w[1].0).map(|w| (w[0].1, w[1].1)).min_by_key(|&(_, later)| later);
            if let Some((j, i)) = first_repeat {
                let msg = format!("{at} must not repeat items: items {j} and {i} are equal ({})", preview(&items[i]));
                self.fail(out, "uniqueItems", msg);
            }
        }
        let mut evaluated = 0;
        if let Some(Value::Array(prefix)) = m.field(kw::PREFIX_ITEMS) {
            for (i, (schema, item)) in prefix.iter().zip(items).enumerate() {
                let idx = i.to_string();
                let o = self.child(&["prefixItems", &idx], &idx, schema, item)?;
                out.errors.extend(o.errors);
            }
            evaluated = prefix.len().min(items.len());
            out.items = out.items.max(evaluated);
        }
        if let Some(schema) = m.field(kw::ITEMS) {
            for (i, item) in items.iter().enumerate().skip(evaluated) {
                let o = self.child(&["items"], &i.to_string(), schema, item)?;
                out.errors.extend(o.errors);
            }
            out.all_items = true;
        }
        if let Some(schema) = m.field(kw::CONTAINS) {
            let mut found = Vec::new();
            for (i, item) in items.iter().enumerate() {
                if self
                    .child(&["contains"], &i.to_string(), schema, item)?
                    .valid()
                {
                    found.push(i);
                }
            }
            let min = m.field(kw::MIN_CONTAINS).and_then(Value::as_u64).unwrap_or(1);
            let count = found.len() as u64;
            if count < min {
                let what = match m.field(kw::CONTAINS) {
                    Some(Value::Object(c)) => describe(self.doc, c, &self.spath.child("contains")),
                    _ => "allowed".into(),
                };
                self.fail(
                    out,
                    "contains",
                    format!(
                        "{at} must contain at least {min} {} that {} {what}; it has {count}",
                        plural(min),
                        if min == 1 { "is" } else { "are" }
                    ),
                );
            }
            if let Some(max) = m
                .field(kw::MAX_CONTAINS)
                .and_then(Value::as_u64)
                .filter(|&max| count > max)
            {
                self.fail(
                    out,
                    "maxContains",
                    format!(
                        "{at} must contain at most {max} matching {}; it has {count}",
                        plural(max)
                    ),
                );
            }
            out.absorb_annotations(HashSet::default(), 0, false, found);
        }
        Ok(())
    }

    fn properties(
        &mut self,
        m: &Map,
        obj: &Map,
        out: &mut Outcome,
    ) -> Result<()> {
        let at = place(&self.ipath);
        let declared = m.field(kw::PROPERTIES).and_then(Value::as_object);
        if let Some(Value::Array(required)) = m.field(kw::REQUIRED) {
            for name in required.iter().filter_map(Value::as_str) {
                if !obj.contains_key(name) {
                    let what = match declared.and_then(|d| d.get(name)) {
                        Some(Value::Object(p)) => format!(
                            " ({})",
                            describe(self.doc, p, &self.spath.child("properties").child(name))
                        ),
                        _ => String::new(),
                    };
                    self.fail(
                        out,
                        "required",
                        format!(
                            "{at} {} missing the required property `{name}`{what}",
                            is_are(&self.ipath)
                        ),
                    );
                }
            }
        }
        let n = obj.len() as u64;
        if let Some(min) = m
            .field(kw::MIN_PROPERTIES)
            .and_then(Value::as_u64)
            .filter(|&min| n < min)
        {
            self.fail(
                out,
                "minProperties",
                format!("{at} must have at least {min} properties; you sent {n}"),
            );
        }
        if let Some(max) = m
            .field(kw::MAX_PROPERTIES)
            .and_then(Value::as_u64)
            .filter(|&max| n > max)
        {
            self.fail(
                out,
                "maxProperties",
                format!("{at} must have at most {max} properties; you sent {n}"),
            );
        }
        if let Some(Value::Object(deps)) = m.field(kw::DEPENDENT_REQUIRED) {
            for (key, needs) in deps {
                if !obj.contains_key(key) {
                    continue;
                }
                for need in needs
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                {
                    if !obj.contains_key(need) {
                        self.fail(
                            out,
                            "dependentRequired",
                            format!("{at} has `{key}`, so it must also have `{need}`"),
                        );
                    }
                }
            }
        }
        if let Some(Value::Object(deps)) = m.field(kw::DEPENDENT_SCHEMAS) {
            let inst = Value::Object(obj.clone());
            for (key, schema) in deps {
                if obj.contains_key(key) {
                    let o = self.sub(&["dependentSchemas", key], schema, &inst)?;
                    out.absorb(o);
                }
            }
        }
        if let Some(names) = m.field(kw::PROPERTY_NAMES) {
            for key in obj.keys() {
                let o = self.sub(&["propertyNames"], names, &Value::String(key.to_string()))?;
                if !o.valid() {
                    let rule = match names {
                        Value::Object(n) => {
                            describe(self.doc, n, &self.spath.child("propertyNames"))
                        }
                        _ => "allowed".into(),
                    };
                    self.fail(out, "propertyNames", format!("{at} has the property name {}, which is not allowed: names must be {rule}", preview(&Value::String(key.to_string()))));
                }
            }
        }
        let patterns = m.field(kw::PATTERN_PROPERTIES).and_then(Value::as_object);
        let additional = m.field(kw::ADDITIONAL_PROPERTIES);
        for (key, value) in obj {
            let mut matched = false;
            if let Some(schema) = declared.and_then(|d| d.get(key)) {
                matched = true;
                let o = self.child(&["properties", key], key, schema, value)?;
                out.errors.extend(o.errors);
            }
            for (p, schema) in patterns.into_iter().flatten() {
                let found = self.patterns.is_match(p, key);
                if found.is_none() {
                    self.note_unchecked(self.spath.child("patternProperties").child(p).to_string());
                }
                if found == Some(true) {
                    matched = true;
                    let o = self.child(&["patternProperties", p], key, schema, value)?;
                    out.errors.extend(o.errors);
                }
            }
            if matched {
                out.props.insert(key.to_string());
                continue;
            }
            if let Some(schema) = additional {
                out.props.insert(key.to_string());
                if is_false(schema) {
                    self.unexpected(out, "additionalProperties", key, declared);
                } else {
                    let o = self.child(&["additionalProperties"], key, schema, value)?;
                    out.errors.extend(o.errors);
                }
            }
        }
        Ok(())
    }

    fn unexpected(
        &mut self,
        out: &mut Outcome,
        keyword: &str,
        key: &str,
        declared: Option<&Map>,
    ) {
        let allowed = match declared {
            Some(d) if !d.is_empty() && d.len() <= 30 => {
                format!(
                    "; the allowed properties are {}",
                    d.keys()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
            _ => String::new(),
        };
        self.ipath.push(key);
        let msg = format!(
            "{} is not a property this tool accepts; leave it out{allowed}",
            place(&self.ipath)
        );
        self.fail(out, keyword, msg);
        self.ipath.pop();
    }

    fn combinators(
        &mut self,
        m: &Map,
        inst: &Value,
        out: &mut Outcome,
    ) -> Result<()> {
        if let Some(Value::Array(all)) = m.field(kw::ALL_OF) {
            for (i, b) in all.iter().enumerate() {
                let o = self.sub(&["allOf", &i.to_string()], b, inst)?;
                out.absorb(o);
            }
        }
        for key in ["anyOf", "oneOf"] {
            let Some(Value::Array(branches)) = m.get(key) else {
                continue;
            };
            let mut results = Vec::with_capacity(branches.len());
            for (i, b) in branches.iter().enumerate() {
                results.push(self.sub(&[key, &i.to_string()], b, inst)?);
            }
            let valid: Vec<usize> = (0..results.len()).filter(|&i| results[i].valid()).collect();
            if key == "oneOf" && valid.len() > 1 {
                let msg = format!(
                    "{} matches more than one of the allowed shapes (options {} and {}); send a value that matches exactly one",
                    place(&self.ipath),
                    valid[0] + 1,
                    valid[1] + 1
                );
                self.fail(out, key, msg);
                continue;
            }
            if valid.is_empty() {
                self.union_failed(key, m, branches, results, inst, out);
                continue;
            }
            for (i, o) in results.into_iter().enumerate() {
                if valid.contains(&i) {
                    out.absorb_annotations(o.props, o.items, o.all_items, o.contained);
                }
            }
        }
        if let Some(not) = m.field(kw::NOT) {
            if self.sub(&["not"], not, inst)?.valid() {
                let msg = match not {
                    Value::Object(n) if !n.is_empty() => {
                        format!(
                            "{} must not be {}; you sent {}",
                            place(&self.ipath),
                            describe(self.doc, n, &self.spath.child("not")),
                            preview(inst)
                        )
                    }
                    // `false` (upgraded to `{"not": {}}`): nothing may be here.
                    _ => format!("{} is not allowed here; leave it out", place(&self.ipath)),
                };
                self.fail(out, "not", msg);
            }
        }
        if let Some(cond) = m.field(kw::IF) {
            let o = self.sub(&["if"], cond, inst)?;
            let (branch, schema) = if o.valid() {
                ("then", m.field(kw::THEN))
            } else {
                ("else", m.field(kw::ELSE))
            };
            if o.valid() {
                out.absorb(o);
            }
            if let Some(schema) = schema {
                let o = self.sub(&[branch], schema, inst)?;
                out.absorb(o);
            }
        }
        Ok(())
    }

    /// No branch of a union matched: the errors of the branch the value was
    /// evidently meant for (its discriminator matches, or it is the only one
    /// of the right type), else one message listing the shapes allowed.
    fn union_failed(
        &mut self,
        key: &str,
        m: &Map,
        branches: &[Value],
        results: Vec<Outcome>,
        inst: &Value,
        out: &mut Outcome,
    ) {
        let meant = discriminated(self.doc, branches, inst, &self.spath.child(key)).or_else(|| {
            let typed: Vec<usize> = (0..results.len())
                .filter(|&i| {
                    !results[i]
                        .errors
                        .iter()
                        .any(|e| e.keyword == "type" && e.pointer == self.ipath.to_string())
                })
                .collect();
            (typed.len() == 1).then(|| typed[0])
        });
        if let Some(i) = meant {
            if let Some(o) = results.into_iter().nth(i) {
                out.errors.extend(o.errors);
                return;
            }
        }
        let only: Map = m
            .iter()
            .filter(|(k, _)| k.as_str() == key)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let msg = format!(
            "{} must be {}; you sent {}",
            place(&self.ipath),
            describe(self.doc, &only, &self.spath),
            preview(inst)
        );
        self.fail(out, key, msg);
    }

    fn unevaluated(
        &mut self,
        m: &Map,
        inst: &Value,
        out: &mut Outcome,
    ) -> Result<()> {
        if let (Some(schema), Value::Object(obj)) = (m.field(kw::UNEVALUATED_PROPERTIES), inst) {
            for (key, value) in obj {
                if out.props.contains(key.as_str()) {
                    continue;
                }
                if is_false(schema) {
                    self.unexpected(
                        out,
                        "unevaluatedProperties",
                        key,
                        m.field(kw::PROPERTIES).and_then(Value::as_object),
                    );
                } else {
                    let o = self.child(&["unevaluatedProperties"], key, schema, value)?;
                    out.errors.extend(o.errors);
                }
            }
            out.props.extend(obj.keys().map(|k| k.to_string()));
        }
        if let (Some(schema), Value::Array(items)) = (m.field(kw::UNEVALUATED_ITEMS), inst) {
            if !out.all_items {
                for (i, item) in items.iter().enumerate().skip(out.items) {
                    if out.contained.binary_search(&i).is_ok() {
                        continue;
                    }
                    let o = self.child(&["unevaluatedItems"], &i.to_string(), schema, item)?;
                    out.errors.extend(o.errors);
                }
            }
            out.all_items = true;
        }
        Ok(())
    }
}

/// The branch whose `const` (or one-value `enum`) property equals the value's:
/// `{"kind": "circle", ...}` was meant for the circle branch.
pub(super) fn discriminated(
    doc: &Original,
    branches: &[Value],
    inst: &Value,
    at: &Pointer,
) -> Option<usize> {
    let Value::Object(obj) = inst else {
        return None;
    };
    branches.iter().enumerate().position(|(i, b)| {
        let b = resolved(doc, b, &at.child(i.to_string()));
        let Some(props) = b
            .and_then(|b| b.field(kw::PROPERTIES))
            .and_then(Value::as_object)
        else {
            return false;
        };
        props.iter().any(|(k, p)| {
            let tag = p.field(kw::CONST).or_else(|| {
                p.field(kw::ENUM)
                    .and_then(Value::as_array)
                    .filter(|e| e.len() == 1)
                    .and_then(|e| e.first())
            });
            tag.is_some_and(|t| obj.get(k).is_some_and(|v| json_eq(v, t)))
        })
    })
}

/// A branch with its `$ref` followed (one hop is what generators write).
pub(super) fn resolved<'d>(
    doc: &'d Original,
    schema: &'d Value,
    at: &Pointer,
) -> Option<&'d Map> {
    let m = schema.as_object()?;
    match m.field(kw::REF).and_then(Value::as_str) {
        Some(r) if !m.has(kw::PROPERTIES) => {
            doc.deref(r, false, at).and_then(|(_, t)| t.as_object())
        }
        _ => Some(m),
    }
}

fn is_false(schema: &Value) -> bool {
    match schema {
        Value::Bool(b) => !b,
        Value::Object(m) => {
            m.len() == 1
                && m.field(kw::NOT)
                    .is_some_and(|n| n.as_object().is_some_and(Map::is_empty))
        }
        _ => false,
    }
}

pub(super) fn type_matches(inst: &Value, t: &Value) -> bool {
    match t {
        Value::String(name) => is_type(inst, name),
        Value::Array(names) => names
            .iter()
            .filter_map(Value::as_str)
            .any(|n| is_type(inst, n)),
        _ => true,
    }
}

pub(super) fn is_type(inst: &Value, name: &str) -> bool {
    match (name, inst) {
        ("null", Value::Null) | ("boolean", Value::Bool(_)) | ("string", Value::String(_)) => true,
        ("number", Value::Number(_))
        | ("array", Value::Array(_))
        | ("object", Value::Object(_)) => true,
        ("integer", Value::Number(n)) => {
            n.is_i64()
                || n.is_u64()
                || n.as_f64()
                    .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
        }
        _ => false,
    }
}

/// `multipleOf`: exact for integers; for decimals within the rounding error of
/// the division (`0.3` is a multiple of `0.1` to anyone but a float).
fn is_multiple(inst: &Value, x: f64, divisor: Option<&Value>, d: f64) -> bool {
    if let (Some(a), Some(b)) = (inst.as_i64(), divisor.and_then(Value::as_i64)) {
        return b != 0 && a % b == 0;
    }
    let q = x / d;
    q.is_finite() && (q - q.round()).abs() <= 1e-9 * q.abs().max(1.0)
}

/// JSON equality with numbers compared by value (`1` equals `1.0`).
pub(super) fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(i), Some(j)) => i == j,
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// A text equal for `json_eq`-equal values: sorted keys, integral numbers
/// without a fraction. `uniqueItems` hashes it instead of comparing pairs.
fn canonical(v: &Value) -> String {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(f) if !(n.is_i64() || n.is_u64()) && f.fract() == 0.0 && f.abs() < 9.0e15 => {
                format!("{}", f as i64)
            }
            _ => n.to_string(),
        },
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(canonical).collect::<Vec<_>>().join(",")
        ),
        Value::Object(m) => {
            let mut entries: Vec<(&crate::doc::Key, &Value)> = m.iter().collect();
            crate::sort::sort_by(&mut entries, |a, b| a.0.cmp(b.0));
            let parts: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("{}:{}", Value::String(k.to_string()), canonical(v)))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        other => other.to_string(),
    }
}
