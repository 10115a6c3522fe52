//! Undoing the lossless encodings (`passes::entries`, issue 18): an open map
//! the target could not hold went out as an array of `{key, value}` entries
//! (a map that also declares properties kept them, its other members in one
//! more property), and a value of any type as a string of its JSON text.
//!
//! Whether the target encoded is asked of the normalizer (its counters
//! `mapsAsEntries`, `anyValuesAsJson`, `tuplesAsObjects`), the way a wrapped root is: the
//! normalizer encodes every open map and any-value below the root of a schema
//! once it encodes one, so one flag per encoding says what each such place
//! holds. Entries are also accepted by `repair` where the schema allows only an
//! object map: an array cannot fit there, so reading it as entries guesses
//! nothing.
use super::fix::{allowed_types, Encoded, Fixer, Mode};
use super::place;
use super::validate::ArgError;
use crate::lookup::Fields;
use crate::passes::entries::{accepts_any, extra_property_name, free_form as is_free_form, KEY, REST, VALUE};
use crate::pointer::Pointer;
use crate::error::Result;
use crate::doc::{Map, Value};
use crate::keywords::kw;

/// The value schema of a free-form map's members: anything.
static ANY: Value = Value::Bool(true);

/// An open map, as the encoding reads one: `additionalProperties` other than
/// `false`, `patternProperties` without `additionalProperties`, or a
/// free-form object (the same test as `passes::facts::is_free_form`).
pub(super) fn is_open_map(m: &Map) -> bool {
    match m.field(kw::ADDITIONAL_PROPERTIES) {
        // The original is read upgraded, where `false` is `{"not": {}}`.
        Some(v) => !crate::passes::is_never(v),
        None => m.field(kw::PATTERN_PROPERTIES).and_then(Value::as_object).is_some_and(|p| !p.is_empty()) || is_free_form(m),
    }
}


/// The members an array of entries names, in order: None unless every item is
/// an object of exactly a string `key` and a `value`.
fn entries_of(items: &[Value]) -> Option<Vec<(&str, &Value)>> {
    items
        .iter()
        .map(|item| {
            let e = item.as_object().filter(|e| e.len() == 2)?;
            Some((e.field(KEY)?.as_str()?, e.field(VALUE)?))
        })
        .collect()
}

/// `n` and the noun, plural but for one: "1 member", "3 items".
fn counted(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// The first key named twice.
fn duplicate<'a>(entries: &[(&'a str, &Value)]) -> Option<&'a str> {
    let mut seen = crate::hash::HashSet::default();
    entries.iter().map(|(k, _)| *k).find(|k| !seen.insert(*k))
}

impl<'d> Fixer<'d, '_> {
    fn encoded(&self) -> Encoded {
        match self.mode {
            Mode::Restore { encoded, .. } => encoded,
            Mode::Repair => Encoded::default(),
        }
    }

    /// With an encoding applied, arguments that fit the original may still
    /// hold encoded values (JSON text fits `{}`, an entries array fits a map
    /// of anything), so the walk goes on below a value that fits, and into
    /// the `$ref`s and `allOf`s a string that fits meets.
    pub(super) fn encoded_pass(&self, value: &Value) -> bool {
        let e = self.encoded();
        let compound = value.is_object() || value.is_array();
        ((e.maps || e.tuples) && compound) || (e.any && (compound || value.is_string()))
    }

    /// JSON text where the original accepts any value: the value it holds.
    /// Text that is not JSON is a string, itself a valid value: kept, noted.
    /// True when the place was handled (decoded now or before: an `allOf` of
    /// two any-schemas must not decode twice).
    pub(super) fn decode_any(&mut self, value: &mut Value, schema: &Value) -> bool {
        if !self.encoded().any || self.ipath.is_empty() || !accepts_any(schema) {
            return false;
        }
        let Value::String(text) = value else { return false };
        if self.noted_here(&self.ipath.to_string(), &["any-decoded", "any-not-json"]) {
            return true;
        }
        let limit = self.doc.max_depth.saturating_sub(self.ipath.len());
        match crate::json::parse(text, limit) {
            Ok(parsed) => {
                let msg = format!("{} takes any value and was sent as JSON text; the text was decoded", place(&self.ipath));
                *value = parsed;
                self.note("any-decoded", msg);
            }
            Err(e) => {
                let msg = format!(
                    "{} takes any value and was to be sent as JSON text, but {} is not JSON ({e}); it was kept as a string",
                    place(&self.ipath),
                    super::preview(value)
                );
                self.note("any-not-json", msg);
            }
        }
        true
    }

    /// The schema of a member a free-form map does not describe: any value,
    /// which the encoding sent as JSON text. Nothing elsewhere.
    pub(super) fn implied_any(&self, m: &Map) -> Vec<(Vec<String>, &'d Value)> {
        if self.encoded().any && !self.ipath.is_empty() && is_free_form(m) {
            vec![(vec!["additionalProperties".to_string()], &ANY)]
        } else {
            Vec::new()
        }
    }

    /// An entries array where the original has an open map becomes the map
    /// (restore, where the target encoded maps; repair, where only an object
    /// is allowed); a mixed map's extra property is merged back. A key named
    /// twice, or named both ways, is left for the model to fix.
    pub(super) fn entries_to_map(&mut self, value: &mut Value, m: &'d Map) -> Result<()> {
        let restoring = matches!(self.mode, Mode::Restore { .. });
        // At the root only a mixed map's entries property: the root is an
        // object, and one without properties is a tool without parameters.
        let root = self.ipath.is_empty();
        if (restoring && !self.encoded().maps) || !is_open_map(m) || (root && (!restoring || is_free_form(m))) {
            return Ok(());
        }
        let types = allowed_types(m);
        let object_only = types.contains(&"object") && !types.contains(&"array");
        match value {
            Value::Array(items) if !root && (object_only || (restoring && types.is_empty())) => {
                let Some(entries) = entries_of(items) else { return Ok(()) };
                if let Some(k) = duplicate(&entries) {
                    let msg = format!("{} has the key {} twice; send each key once", place(&self.ipath), Value::from(k));
                    self.problem(self.ipath.clone(), msg);
                    return Ok(());
                }
                let map: Map = entries.into_iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
                let msg = format!(
                    "{} was sent as a list of {{key, value}} entries (an open map the target could not hold); it became an object of {}",
                    place(&self.ipath),
                    counted(map.len(), "member")
                );
                *value = Value::Object(map);
                self.note("map-from-entries", msg);
            }
            Value::Object(obj) if restoring => self.merge_extra(obj, m),
            _ => {}
        }
        Ok(())
    }

    /// An object of positions where the original has a tuple (`prefixItems`)
    /// and no object is allowed becomes the array: `"0"`, `"1"`, ... in
    /// order, then the items of `"rest"` (`null` or absent: none). Only where
    /// the target sent tuples as objects, and only an object of nothing but
    /// the first k positions and `"rest"` (after all of them); anything else
    /// is left for validation to name.
    pub(super) fn object_to_tuple(&mut self, value: &mut Value, m: &Map) {
        if !matches!(self.mode, Mode::Restore { .. }) || !self.encoded().tuples {
            return;
        }
        let Some(n) = m.field(kw::PREFIX_ITEMS).and_then(Value::as_array).map(Vec::len).filter(|n| *n > 0) else { return };
        let Value::Object(obj) = value else { return };
        if allowed_types(m).contains(&"object") {
            return;
        }
        let rest = match obj.field(REST) {
            None | Some(Value::Null) => None,
            Some(Value::Array(items)) => Some(items),
            Some(_) => return,
        };
        let positions = obj.len() - usize::from(obj.contains_key(REST));
        let in_order = (0..positions).all(|i| obj.contains_key(i.to_string().as_str()));
        if !in_order || positions > n || (rest.is_some_and(|r| !r.is_empty()) && positions < n) {
            return;
        }
        let mut items: Vec<Value> = (0..positions).filter_map(|i| obj.remove_field(i.to_string().as_str())).collect();
        if let Some(Value::Array(after)) = obj.remove_field(REST) {
            items.extend(after);
        }
        let msg = format!(
            "{} was sent as an object of its positions (a tuple the target could not hold); it became an array of {}",
            place(&self.ipath),
            counted(items.len(), "item")
        );
        *value = Value::Array(items);
        self.note("tuple-from-object", msg);
    }

    /// A map that declares properties: its other members came as entries in
    /// the property `extra_property_name` (null or absent: none).
    fn merge_extra(&mut self, obj: &mut Map, m: &'d Map) {
        // Declared as the normalizer declares them: the properties, and the
        // required names it declares as properties before encoding the map.
        let props = m.field(kw::PROPERTIES).and_then(Value::as_object);
        let required: Vec<&str> = m.field(kw::REQUIRED).and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        let declared = |n: &str| props.is_some_and(|p| p.contains_key(n)) || required.contains(&n);
        if !props.is_some_and(|p| !p.is_empty()) && required.is_empty() && !self.ipath.is_empty() {
            return;
        }
        let extra = extra_property_name(declared);
        let at = self.ipath.child(&extra);
        match obj.field(&extra) {
            Some(Value::Null) => {
                obj.remove_field(&extra);
                let msg = format!("{} was null: the map's other members, of which there were none; it was left out", place(&at));
                self.report.note("null-removed", &at, msg);
            }
            Some(Value::Array(items)) => {
                let Some(entries) = entries_of(items) else { return };
                if let Some(k) = duplicate(&entries) {
                    let msg = format!("{} has the key {} twice; send each key once", place(&at), Value::from(k));
                    self.problem(at, msg);
                    return;
                }
                if let Some((k, _)) = entries.iter().find(|(k, _)| *k != extra && (declared(k) || obj.contains_key(*k))) {
                    let msg = format!(
                        "{} has the key {}, which {} declares as a property; send it once, as the property",
                        place(&at),
                        Value::from(*k),
                        place(&self.ipath)
                    );
                    self.problem(at, msg);
                    return;
                }
                let members: Vec<(String, Value)> = entries.into_iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
                let n = members.len();
                obj.remove_field(&extra);
                obj.extend(members);
                let msg = format!(
                    "{} held {} of {} as {{key, value}} entries; they were put into it",
                    place(&at),
                    counted(n, "other member"),
                    place(&self.ipath)
                );
                self.report.note("map-from-entries", &self.ipath.clone(), msg);
            }
            _ => {}
        }
    }

    /// Whether one of `codes` was noted at `at` since the walk reached it:
    /// the notes from there on are at `at` or below, so the scan back stops
    /// at the first one elsewhere (linear over many places, not quadratic).
    fn noted_here(&self, at: &str, codes: &[&str]) -> bool {
        let under = |p: &str| p == at || p.strip_prefix(at).is_some_and(|rest| rest.starts_with('/'));
        self.report.diagnostics.iter().rev().take_while(|d| under(&d.pointer)).any(|d| d.pointer == at && codes.contains(&d.code))
    }

    /// What the model must fix: noted in the report, an error for `prepare`
    /// (once, though restore and repair both see it: `prior` holds what the
    /// restore before this repair found).
    fn problem(&mut self, at: Pointer, message: String) {
        let pointer = at.to_string();
        if self.prior.contains(&pointer) || self.noted_here(&pointer, &["duplicate-key"]) {
            return;
        }
        self.report.note("duplicate-key", &at, message.clone());
        self.problems.push(ArgError { pointer, keyword: "uniqueKeys".into(), schema_pointer: self.spath.to_string(), message });
    }
}

#[cfg(test)]
mod tests {
    use super::super::{fix, prepare_with, restore_with, Normalized, Original, RestoreOptions};
    use super::Encoded;
    use crate::report::Report;
    use crate::targets;
    use crate::json;
    use crate::doc::Value;

    const BOTH: Encoded = Encoded { maps: true, any: true, tuples: true };

    fn codes(r: &Report) -> Vec<&str> {
        r.diagnostics.iter().map(|d| d.code).collect()
    }

    /// `fix`'s restore walk with `encoded` forced, whatever the target does.
    fn restore(args: Value, schema: &Value, encoded: Encoded) -> (Value, Report) {
        let doc = Original::new(schema, 256).unwrap();
        let mode = fix::Mode::Restore { empty_strings: false, widened: Default::default(), encoded };
        let (mut args, mut report) = (args, Report::default());
        fix::run(&mut args, &doc, mode, &mut report).unwrap();
        (args, report)
    }

    fn repair(args: Value, schema: &Value) -> (Value, Report) {
        let doc = Original::new(schema, 256).unwrap();
        let (mut args, mut report) = (args, Report::default());
        fix::run(&mut args, &doc, fix::Mode::Repair, &mut report).unwrap();
        (args, report)
    }

    /// The fixtures of tests/arguments that hold encoded arguments, run with
    /// their encodings forced: they hold before the target encodes too
    /// (tests/arguments.rs runs them end to end once it does).
    #[test]
    fn encoded_fixtures_hold_with_the_encodings_forced() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/arguments");
        let mut ran = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let f: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let Some(needed) = f["encoded"].as_array() else { continue };
            let name = path.display();
            let has = |c: &str| needed.contains(&json!(c));
            let target = targets::get(f["target"].as_str().unwrap()).unwrap();
            let opts: RestoreOptions = crate::doc::from_value(f.get("options").cloned().unwrap_or(Value::Null)).unwrap_or_default();
            let schema = &f["schema"];
            let doc = Original::new(schema, 256).unwrap();
            let mut did = Normalized::of(schema, target, &opts).unwrap();
            did.encoded = Encoded { maps: has("mapsAsEntries"), any: has("anyValuesAsJson"), tuples: has("tuplesAsObjects") };
            let expect = &f["expect"];
            let (args, report, messages, ok) = match f["call"].as_str().unwrap() {
                "restore" => {
                    let out = restore_with(&f["args"], &doc, target, &opts, did).unwrap().0;
                    (out.args, out.report, None, None)
                }
                "prepare" => {
                    let out = prepare_with(&f["args"], &doc, target, &opts, did).unwrap();
                    let messages: Vec<String> = out.errors.iter().map(|e| e.message.clone()).collect();
                    (out.args, out.report, Some(messages), Some(out.ok))
                }
                other => panic!("{name}: an encoded fixture restores or prepares, not {other}"),
            };
            if let Some(want) = expect.get("args") {
                assert_eq!(&args, want, "{name}");
            }
            if let Some(want) = expect.get("codes") {
                assert_eq!(json!(codes(&report)), *want, "{name}");
            }
            if let Some(want) = expect.get("messages") {
                assert_eq!(json!(messages), *want, "{name}");
            }
            if let Some(want) = expect.get("ok") {
                assert_eq!(json!(ok), *want, "{name}");
            }
            if let Some(want) = expect.get("lossy") {
                assert_eq!(json!(report.lossy), *want, "{name}");
            }
            ran += 1;
        }
        assert!(ran >= 10, "expected the encoded fixtures, ran {ran}");
    }

    #[test]
    fn a_map_in_a_union_comes_back_through_its_branch() {
        let s = json!({"type": "object", "properties": {"m": {"anyOf": [
            {"type": "object", "additionalProperties": {"type": "integer"}},
            {"type": "null"}
        ]}}});
        let (args, report) = restore(json!({"m": [{"key": "a", "value": 1}]}), &s, BOTH);
        assert_eq!(args, json!({"m": {"a": 1}}));
        assert_eq!(codes(&report), ["map-from-entries"]);
        assert_eq!(report.diagnostics[0].pointer, "/m");
    }

    #[test]
    fn an_any_value_under_two_schemas_is_decoded_once() {
        let s = json!({"type": "object", "properties": {"v": {"allOf": [{}, {"description": "anything"}]}}});
        let (args, report) = restore(json!({"v": "\"[1]\""}), &s, BOTH);
        assert_eq!(args, json!({"v": "[1]"}));
        assert_eq!(codes(&report), ["any-decoded"]);
    }

    #[test]
    fn without_the_encodings_nothing_is_read_as_one() {
        let s = json!({"type": "object", "properties": {
            "m": {"type": "object", "additionalProperties": {"type": "string"}},
            "v": {},
            "x": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": true}
        }});
        let sent = json!({"m": [{"key": "a", "value": "b"}], "v": "[1]", "x": {"a": "", "additional_properties": null}});
        let (args, report) = restore(sent.clone(), &s, Encoded::default());
        assert_eq!(args, sent);
        assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    }

    #[test]
    fn only_exact_entries_under_an_open_map_below_the_root_are_read() {
        // An entry with a third member, a key that is not a string, a closed
        // object, an object with declared properties only, and the root.
        let s = json!({"type": "object", "properties": {
            "extra": {"type": "object", "additionalProperties": {"type": "string"}},
            "numeric": {"type": "object", "additionalProperties": {"type": "string"}},
            "closed": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false},
            "declared": {"type": "object", "properties": {"a": {"type": "string"}}}
        }});
        let sent = json!({
            "extra": [{"key": "a", "value": "b", "note": "c"}],
            "numeric": [{"key": 1, "value": "b"}],
            "closed": [{"key": "a", "value": "b"}],
            "declared": [{"key": "a", "value": "b"}]
        });
        let (got, rep) = restore(sent.clone(), &s, BOTH);
        assert_eq!(got, sent, "{:?}", rep.diagnostics);
        assert_eq!(repair(sent.clone(), &s).0, sent);
        let root = json!({"type": "object", "additionalProperties": {"type": "string"}});
        let sent = json!([{"key": "a", "value": "b"}]);
        assert_eq!(restore(sent.clone(), &root, BOTH).0, sent);
        // A root map's members come in the entries property beside the
        // declared ones (the root stays an object).
        let sent = json!({"additional_properties": [{"key": "a", "value": "b"}]});
        assert_eq!(restore(sent, &root, BOTH).0, json!({"a": "b"}));
        assert_eq!(restore(json!({"additional_properties": null}), &root, BOTH).0, json!({}));
    }

    #[test]
    fn a_duplicate_key_is_noted_and_the_entries_left_as_sent() {
        let s = json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}});
        let sent = json!({"m": [{"key": "a", "value": "x"}, {"key": "a", "value": "y"}]});
        let doc = Original::new(&s, 256).unwrap();
        let mode = fix::Mode::Restore { empty_strings: false, widened: Default::default(), encoded: BOTH };
        let (mut args, mut report) = (sent.clone(), Report::default());
        let problems = fix::run(&mut args, &doc, mode, &mut report).unwrap();
        assert_eq!(args, sent);
        assert_eq!(codes(&report), ["duplicate-key"]);
        assert!(!report.lossy);
        assert_eq!(problems.len(), 1);
        assert_eq!((problems[0].pointer.as_str(), problems[0].keyword.as_str()), ("/m", "uniqueKeys"));
        assert_eq!(problems[0].schema_pointer, "/properties/m");
    }

    #[test]
    fn a_problem_takes_the_place_of_the_errors_at_and_under_its_pointer() {
        let e = |p: &str, k: &str| super::ArgError { pointer: p.into(), keyword: k.into(), schema_pointer: String::new(), message: String::new() };
        let mut errors = vec![e("/a", "type"), e("/m", "type"), e("/m/0", "required"), e("/mm", "type"), e("/z", "type")];
        super::super::put_problems(&mut errors, vec![e("/m", "uniqueKeys"), e("/m", "uniqueKeys"), e("/q", "uniqueKeys")]);
        let got: Vec<(&str, &str)> = errors.iter().map(|x| (x.pointer.as_str(), x.keyword.as_str())).collect();
        assert_eq!(got, [("/a", "type"), ("/m", "uniqueKeys"), ("/mm", "type"), ("/z", "type"), ("/q", "uniqueKeys")]);
    }

    #[test]
    fn the_extra_property_name_steps_aside_for_a_declared_one() {
        let s = json!({"type": "object", "properties": {"m": {"type": "object",
            "properties": {"additional_properties": {"type": "string"}},
            "additionalProperties": {"type": "integer"}}}});
        let sent = json!({"m": {"additional_properties": "declared", "_additional_properties": [{"key": "n", "value": 1}]}});
        let (args, report) = restore(sent, &s, BOTH);
        assert_eq!(args, json!({"m": {"additional_properties": "declared", "n": 1}}));
        assert_eq!(codes(&report), ["map-from-entries"]);
    }
}
