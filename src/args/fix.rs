//! The walk behind `restore` and `repair`: the arguments beside the original
//! schema, rewriting a value only where it does not fit, so arguments that
//! already fit come back unchanged.
use crate::lookup::Fields;
use super::validate::{discriminated, is_type, resolved, ArgError, Validator};
use super::{place, preview, Original, RefTrail};
use crate::error::{Error, Result};
use crate::pointer::Pointer;
use crate::report::{Diagnostic, Report};
use crate::doc::{Map, Value};
use crate::keywords::kw;

/// Which lossless encodings the target applied to the schema.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Encoded {
    /// Open maps went out as entries arrays (`map-as-entries`).
    pub maps: bool,
    /// Values of any type went out as JSON text (`any-as-json`).
    pub any: bool,
    /// Tuples went out as objects of their positions (`tuple-as-object`).
    pub tuples: bool,
}

#[derive(Clone, Copy)]
pub(super) enum Mode {
    /// Undo what normalization did to the argument shape. `widened` says
    /// which one-value places the target could not say exactly, `encoded`
    /// which lossless encodings it applied.
    Restore { empty_strings: bool, widened: Widened, encoded: Encoded },
    /// Coerce what the schema alone says how to coerce.
    Repair,
}

/// Which places that admit exactly one value the target widened: a null
/// type where it has none (Gemini, Cloud Code Assist: a nullable or optional
/// string), a `const` or one-value `enum` where it keeps neither keyword.
#[derive(Clone, Copy, Default)]
pub(super) struct Widened {
    pub null: bool,
    pub literals: bool,
}

impl Widened {
    pub(super) fn by(caps: &crate::profile::Caps) -> Widened {
        Widened { null: !caps.null_type, literals: !caps.keeps(kw::CONST) && !caps.keeps(kw::ENUM) }
    }
}

/// The one value a schema admits, where it says so directly: `type: "null"`,
/// a `const`, a one-value `enum`.
fn single_value(m: &Map) -> Option<&Value> {
    const NULL: Value = Value::Null;
    if let Some(c) = m.field(kw::CONST) {
        return Some(c);
    }
    if let Some(Value::Array(e)) = m.field(kw::ENUM) {
        return (e.len() == 1).then(|| &e[0]);
    }
    let only_null = match m.field(kw::TYPE) {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => !ts.is_empty() && ts.iter().all(|t| t == "null"),
        _ => false,
    };
    only_null.then_some(&NULL)
}

/// Rewrites `args` in place; what the model must fix that no rewrite can
/// (an entries array naming a key twice) comes back as errors.
pub(super) fn run(args: &mut Value, doc: &Original, mode: Mode, report: &mut Report) -> Result<Vec<ArgError>> {
    let prior = report.diagnostics.iter().filter(|d| d.code == "duplicate-key").map(|d| d.pointer.clone()).collect();
    let mut f = Fixer {
        doc,
        mode,
        v: Validator::new(doc),
        spath: Pointer::root(),
        ipath: Pointer::root(),
        depth: 0,
        report,
        active: RefTrail::default(),
        problems: Vec::new(),
        prior,
    };
    let root = &doc.root;
    f.fix(args, root)?;
    Ok(f.problems)
}

pub(super) struct Fixer<'d, 'r> {
    pub(super) doc: &'d Original,
    pub(super) mode: Mode,
    v: Validator<'d>,
    pub(super) spath: Pointer,
    pub(super) ipath: Pointer,
    depth: usize,
    pub(super) report: &'r mut Report,
    active: RefTrail,
    /// Errors found while rewriting, for `prepare` (restore only notes them).
    pub(super) problems: Vec<ArgError>,
    /// Where an earlier pass over these arguments found one already.
    pub(super) prior: crate::hash::HashSet<String>,
}

impl<'d> Fixer<'d, '_> {
    fn errors(&mut self, value: &Value, schema: &Value) -> Result<usize> {
        Ok(self
            .v
            .check(schema, value, &self.spath, &self.ipath)?
            .errors
            .len())
    }

    fn fits(&mut self, value: &Value, schema: &Value) -> Result<bool> {
        Ok(self.errors(value, schema)? == 0)
    }

    fn fix(&mut self, value: &mut Value, schema: &'d Value) -> Result<()> {
        self.depth += 1;
        if self.depth > 2 * self.doc.max_depth + 16 {
            return Err(Error::TooDeep {
                pointer: self.ipath.clone(),
                limit: self.doc.max_depth,
            });
        }
        let out = self.node(value, schema);
        self.depth -= 1;
        out
    }

    fn node(&mut self, value: &mut Value, schema: &'d Value) -> Result<()> {
        if self.decode_any(value, schema) {
            return Ok(());
        }
        let Value::Object(m) = schema else {
            return Ok(());
        };
        let fits = self.fits(value, schema)?;
        if fits && !self.empty_pass(value) && !self.encoded_pass(value) {
            return Ok(());
        }
        for key in ["$ref", "$dynamicRef"] {
            if let Some(Value::String(r)) = m.get(key) {
                self.reference(value, (key, r))?;
            }
        }
        // A value that fits is walked only for what lies below it (empty
        // strings, encodings), never rewritten itself.
        match self.mode {
            Mode::Restore { widened, .. } if !fits => {
                self.restore_scalar(value, m);
                self.restore_single(value, m, widened);
            }
            Mode::Repair if !fits => self.coerce(value, m)?,
            _ => {}
        }
        self.entries_to_map(value, m)?;
        self.object_to_tuple(value, m);
        match value {
            Value::Object(obj) => self.properties(obj, m)?,
            Value::Array(items) => self.items(items, m)?,
            _ => {}
        }
        if let Some(Value::Array(all)) = m.field(kw::ALL_OF) {
            for (i, b) in all.iter().enumerate() {
                self.fix_at(&["allOf", &i.to_string()], value, b)?;
            }
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = m.get(key) {
                self.union(value, schema, key, branches)?;
            }
        }
        if let Some(cond) = m.field(kw::IF) {
            let taken = self.fits_at(&["if"], value, cond)?;
            let branch = if taken { "then" } else { "else" };
            if let Some(b) = m.get(branch) {
                self.fix_at(&[branch], value, b)?;
            }
        }
        Ok(())
    }

    /// `emptyStrings` removes `""` even from arguments that fit, so the walk
    /// goes on wherever one is left.
    fn empty_pass(&self, value: &Value) -> bool {
        fn has_empty(v: &Value) -> bool {
            match v {
                Value::String(s) => s.is_empty(),
                Value::Array(items) => items.iter().any(has_empty),
                Value::Object(m) => m.values().any(has_empty),
                _ => false,
            }
        }
        matches!(
            self.mode,
            Mode::Restore {
                empty_strings: true,
                ..
            }
        ) && value.is_object() | value.is_array()
            && has_empty(value)
    }

    /// `fix` one level down the schema (`segs` appended to its path).
    fn fix_at(&mut self, segs: &[&str], value: &mut Value, schema: &'d Value) -> Result<()> {
        segs.iter().for_each(|s| self.spath.push(s));
        let out = self.fix(value, schema);
        segs.iter().for_each(|_| self.spath.pop());
        out
    }

    /// `fits` one level down the schema.
    fn fits_at(&mut self, segs: &[&str], value: &Value, schema: &'d Value) -> Result<bool> {
        segs.iter().for_each(|s| self.spath.push(s));
        let out = self.fits(value, schema);
        segs.iter().for_each(|_| self.spath.pop());
        out
    }

    fn reference(&mut self, value: &mut Value, r: (&str, &str)) -> Result<()> {
        let Some((saved, schema)) = self.active.enter(self.doc, r, &mut self.spath, self.ipath.len()) else {
            return Ok(());
        };
        let out = self.fix(value, schema);
        self.active.leave(&mut self.spath, saved);
        out
    }

    pub(super) fn note(&mut self, code: &'static str, message: String) {
        let at = self.ipath.clone();
        self.report.note(code, &at, message);
    }

    /// Gemini takes string enums only, so `1` went out as `"1"`: the string is
    /// turned back into the enum member whose JSON text it is.
    fn restore_scalar(&mut self, value: &mut Value, m: &Map) {
        let Value::String(s) = value else { return };
        let members = m
            .field(kw::ENUM)
            .and_then(Value::as_array)
            .map(|e| e.iter().collect::<Vec<_>>())
            .unwrap_or_default();
        let members = members.into_iter().chain(m.field(kw::CONST));
        let Some(found) = members
            .filter(|v| !v.is_string())
            .find(|v| crate::doc::json_text(v) == *s)
            .cloned()
        else {
            return;
        };
        let msg = format!(
            "{} was sent as the string {}; the original enum value is {}",
            place(&self.ipath),
            preview(value),
            preview(&found)
        );
        *value = found;
        self.note("enum-restored", msg);
    }

    /// Where the original admits exactly one value and the target could not
    /// say so (Gemini has no null type: `type: "null"` went out as a nullable
    /// string), whatever the model sent there stands for that value, which the
    /// tool takes and nothing else (issue 22).
    fn restore_single(&mut self, value: &mut Value, m: &Map, widened: Widened) {
        let Some(only) = single_value(m) else { return };
        if *value == *only || !(if only.is_null() { widened.null } else { widened.literals }) {
            return;
        }
        let msg = format!(
            "the schema accepts only {} for {}, which the target could not say; the {} sent there became it",
            preview(only),
            place(&self.ipath),
            preview(value)
        );
        *value = only.clone();
        self.note("single-value-restored", msg);
    }

    /// The schema's own types decide: a value of a type the node does not
    /// allow, turned into one it does only where the text says so exactly.
    fn coerce(&mut self, value: &mut Value, m: &Map) -> Result<()> {
        let allowed = allowed_types(m);
        if allowed.is_empty() || allowed.iter().any(|t| is_type(value, t)) {
            return Ok(());
        }
        let has = |t: &str| allowed.contains(&t);
        if let Value::String(s) = value {
            let text = s.trim();
            if has("integer") || has("number") {
                if let Some(n) = parse_number(text, !has("number")) {
                    let msg = format!(
                        "{} was the string {}; it was read as the number {n}",
                        place(&self.ipath),
                        preview(value)
                    );
                    *value = Value::Number(n);
                    self.note("number-parsed", msg);
                    return Ok(());
                }
            }
            if has("boolean")
                && (text.eq_ignore_ascii_case("true") || text.eq_ignore_ascii_case("false"))
            {
                let b = text.eq_ignore_ascii_case("true");
                let msg = format!(
                    "{} was the string {}; it was read as {b}",
                    place(&self.ipath),
                    preview(value)
                );
                *value = Value::Bool(b);
                self.note("boolean-parsed", msg);
                return Ok(());
            }
            if (has("array") || has("object")) && (text.starts_with('[') || text.starts_with('{')) {
                if let Ok(parsed) =
                    crate::json::parse(text, self.doc.max_depth.saturating_sub(self.ipath.len()))
                {
                    if allowed.iter().any(|t| is_type(&parsed, t)) {
                        let kind = if parsed.is_array() {
                            "an array"
                        } else {
                            "an object"
                        };
                        let msg = format!(
                            "{} was {kind} encoded as a JSON string; it was decoded",
                            place(&self.ipath)
                        );
                        *value = parsed;
                        self.note("json-parsed", msg);
                        return Ok(());
                    }
                }
            }
        }
        if has("array") && !value.is_array() {
            let single = std::mem::take(value);
            let msg = format!(
                "{} must be an array; the single value {} became a one-item array",
                place(&self.ipath),
                preview(&single)
            );
            *value = Value::Array(vec![single]);
            self.note("wrapped-in-array", msg);
        }
        Ok(())
    }

    fn properties(
        &mut self,
        obj: &mut Map,
        m: &'d Map,
    ) -> Result<()> {
        let required: Vec<&str> = m
            .field(kw::REQUIRED)
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if matches!(self.mode, Mode::Restore { .. }) {
            self.missing_nulls(obj, m, &required)?;
        }
        let keys: Vec<String> = obj.keys().map(|k| k.to_string()).collect();
        for key in keys {
            let subs = self.subschemas(m, &key);
            if let Mode::Restore { empty_strings, .. } = self.mode {
                if !required.contains(&key.as_str()) {
                    if let Some(code) = self.removable(&obj[&key], &subs, empty_strings)? {
                        let removed = obj.remove_field(&key).unwrap_or_default();
                        self.ipath.push(&key);
                        let msg = format!(
                            "{} was {}; the original schema has it optional{}, so it was left out",
                            place(&self.ipath),
                            preview(&removed),
                            if code == "null-removed" {
                                " and not nullable"
                            } else {
                                " (emptyStrings)"
                            }
                        );
                        self.note(code, msg);
                        self.ipath.pop();
                        continue;
                    }
                }
            }
            let Some(child) = obj.get_mut(&key) else {
                continue;
            };
            let subs = if subs.is_empty() { self.implied_any(m) } else { subs };
            self.ipath.push(&key);
            for (segs, schema) in &subs {
                let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
                let out = self.fix_at(&segs, child, schema);
                if out.is_err() {
                    self.ipath.pop();
                    return out;
                }
            }
            self.ipath.pop();
        }
        Ok(())
    }

    /// Cloud Code Assist cannot say "null", so a required property that may be
    /// null became optional (contract §3.4): left out, it comes back as `null`.
    fn missing_nulls(&mut self, obj: &mut Map, m: &'d Map, required: &[&str]) -> Result<()> {
        for key in required {
            if obj.contains_key(*key) {
                continue;
            }
            let subs = self.subschemas(m, key);
            if subs.is_empty() {
                continue;
            }
            let mut nullable = true;
            for (segs, schema) in &subs {
                let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
                nullable &= self.fits_at(&segs, &Value::Null, schema)?;
            }
            if nullable {
                obj.insert(crate::doc::Key::from(*key), Value::Null);
                self.ipath.push(key);
                let msg = format!("{} was left out; the original schema requires it and accepts null, so it was sent as null", place(&self.ipath));
                self.note("null-restored", msg);
                self.ipath.pop();
            }
        }
        Ok(())
    }

    /// The subschemas that apply to property `key`, with their schema path.
    fn subschemas(
        &mut self,
        m: &'d Map,
        key: &str,
    ) -> Vec<(Vec<String>, &'d Value)> {
        let mut out = Vec::new();
        if let Some(p) = m
            .field(kw::PROPERTIES)
            .and_then(Value::as_object)
            .and_then(|p| p.get(key))
        {
            out.push((vec!["properties".to_string(), key.to_string()], p));
        }
        if let Some(Value::Object(patterns)) = m.field(kw::PATTERN_PROPERTIES) {
            for (p, s) in patterns {
                if self.v.patterns.is_match(p, key) == Some(true) {
                    out.push((vec!["patternProperties".to_string(), p.to_string()], s));
                }
            }
        }
        if out.is_empty() {
            if let Some(a) = m.field(kw::ADDITIONAL_PROPERTIES) {
                out.push((vec!["additionalProperties".to_string()], a));
            }
        }
        out
    }

    /// Why an optional property's value should go: `null` its schema does
    /// not accept (strict mode made it nullable), or `""` where asked.
    fn removable(
        &mut self,
        value: &Value,
        subs: &[(Vec<String>, &'d Value)],
        empty_strings: bool,
    ) -> Result<Option<&'static str>> {
        match value {
            Value::Null => {}
            Value::String(s) if s.is_empty() && empty_strings => {
                return Ok(Some("empty-string-removed"))
            }
            _ => return Ok(None),
        }
        let code = "null-removed";
        for (segs, schema) in subs {
            let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
            if !self.fits_at(&segs, value, schema)? {
                return Ok(Some(code));
            }
        }
        Ok(None)
    }

    fn items(&mut self, items: &mut [Value], m: &'d Map) -> Result<()> {
        let prefix = m.field(kw::PREFIX_ITEMS).and_then(Value::as_array);
        for (i, item) in items.iter_mut().enumerate() {
            let idx = i.to_string();
            let (segs, schema): (Vec<&str>, Option<&'d Value>) = match prefix.and_then(|p| p.get(i))
            {
                Some(s) => (vec!["prefixItems", idx.as_str()], Some(s)),
                None => (vec!["items"], m.field(kw::ITEMS)),
            };
            let Some(schema) = schema else { continue };
            self.ipath.push(&idx);
            let out = self.fix_at(&segs, item, schema);
            self.ipath.pop();
            out?;
        }
        Ok(())
    }

    /// A union the value does not fit: each branch is tried on a copy, the
    /// one the value was meant for first (a matching discriminator), and the
    /// first copy that fits the whole node is taken. Restoring, a merged
    /// object also loses the keys its branch does not declare (CCA and the
    /// root-union merge put every branch's properties into one object).
    fn union(
        &mut self,
        value: &mut Value,
        schema: &'d Value,
        key: &str,
        branches: &'d [Value],
    ) -> Result<()> {
        let union_at = self.spath.child(key);
        let mut order: Vec<usize> = (0..branches.len()).collect();
        if let Some(first) = discriminated(self.doc, branches, value, &union_at) {
            order.retain(|&i| i != first);
            order.insert(0, first);
        }
        if self.fits(value, schema)? {
            if self.empty_pass(value) || self.encoded_pass(value) {
                // Fits already: only the branch it fits says which fields are optional.
                for i in order {
                    let idx = i.to_string();
                    if self.fits_at(&[key, &idx], value, &branches[i])? {
                        return self.fix_at(&[key, &idx], value, &branches[i]);
                    }
                }
            }
            return Ok(());
        }
        let before = self.errors(value, schema)?;
        let mut best: Option<(usize, Value, Vec<Diagnostic>, Vec<ArgError>)> = None;
        for i in order {
            let mark = self.report.diagnostics.len();
            let problems_mark = self.problems.len();
            let mut candidate = value.clone();
            let idx = i.to_string();
            self.fix_at(&[key, &idx], &mut candidate, &branches[i])?;
            // A copy the branch left as it was is the value, which fits
            // nothing and has `before` errors: asked again for every branch,
            // a union of n branches was checked n times over (quadratic, past
            // the step budget at 1,000 branches).
            let mut unchanged = candidate == *value;
            if matches!(self.mode, Mode::Restore { .. }) && (unchanged || !self.fits(&candidate, schema)?) {
                unchanged &= !self.drop_undeclared(&mut candidate, &branches[i], &union_at.child(&idx), i);
            }
            let left = if unchanged { before } else { self.errors(&candidate, schema)? };
            let notes: Vec<Diagnostic> = self.report.diagnostics.drain(mark..).collect();
            let problems: Vec<ArgError> = self.problems.drain(problems_mark..).collect();
            if left == 0 {
                *value = candidate;
                self.restore_notes(notes);
                self.problems.extend(problems);
                return Ok(());
            }
            if left < before && best.as_ref().map_or(true, |(e, ..)| left < *e) {
                best = Some((left, candidate, notes, problems));
            }
        }
        if let Some((_, candidate, notes, problems)) = best {
            *value = candidate;
            self.restore_notes(notes);
            self.problems.extend(problems);
        }
        Ok(())
    }

    fn restore_notes(&mut self, notes: Vec<Diagnostic>) {
        for d in notes {
            self.report.lossy |= d.lossy;
            self.report.diagnostics.push(d);
        }
    }

    /// Removes from a candidate the keys branch `i` does not declare, noted;
    /// says whether there were any.
    fn drop_undeclared(
        &mut self,
        candidate: &mut Value,
        branch: &'d Value,
        at: &Pointer,
        i: usize,
    ) -> bool {
        let Value::Object(obj) = candidate else {
            return false;
        };
        let Some(b) = resolved(self.doc, branch, at) else {
            return false;
        };
        let Some(declared) = b.field(kw::PROPERTIES).and_then(Value::as_object) else {
            return false;
        };
        let extra: Vec<String> = obj
            .keys()
            .filter(|k| !declared.contains_key(*k))
            .map(|k| k.to_string())
            .collect();
        if extra.is_empty() {
            return false;
        }
        let dropped_values = extra.iter().any(|k| !obj[k].is_null());
        for k in &extra {
            obj.remove_field(k);
        }
        let names = extra
            .iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let msg = format!("{} matches option {} of the original union once {names} (declared only by other options) is left out", place(&self.ipath), i + 1);
        let at = self.ipath.clone();
        if dropped_values {
            self.report.lossy("branch-selected", &at, msg);
        } else {
            self.report.note("branch-selected", &at, msg);
        }
        true
    }
}

/// The instance types a node allows: its `type`, else its enum's or const's.
pub(super) fn allowed_types(m: &Map) -> Vec<&'static str> {
    const TYPES: &[&str] = &[
        "null", "boolean", "integer", "number", "string", "array", "object",
    ];
    let named: Vec<&str> = match m.field(kw::TYPE) {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => {
            let members: Vec<&Value> = m
                .field(kw::ENUM)
                .and_then(Value::as_array)
                .map(|e| e.iter().collect())
                .unwrap_or_default();
            let members: Vec<&Value> = members.into_iter().chain(m.field(kw::CONST)).collect();
            return TYPES
                .iter()
                .copied()
                .filter(|t| *t != "integer" && members.iter().any(|v| is_type(v, t)))
                .collect();
        }
    };
    TYPES
        .iter()
        .copied()
        .filter(|t| named.contains(t))
        .collect()
}

/// A number written as text: JSON number syntax (after trimming), finite,
/// and integral where only integers are allowed.
fn parse_number(text: &str, integer: bool) -> Option<serde_json::Number> {
    // Only number syntax: nothing else can start so, and what follows a
    // number is an error, so no container is ever built here.
    if !text.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
        return None;
    }
    let Ok(Value::Number(n)) = crate::doc::parse_value(text) else { return None };
    let f = n.as_f64()?;
    if !f.is_finite() {
        return None;
    }
    if !integer || n.is_i64() || n.is_u64() {
        return Some(n);
    }
    (f.fract() == 0.0 && f.abs() < 9.0e15).then(|| serde_json::Number::from(f as i64))
}
