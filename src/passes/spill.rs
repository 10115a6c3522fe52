//! Stripping what a target does not accept, and the spill: human-meaningful
//! stripped keywords are appended to `description`, so the model still reads
//! "a 5-digit code" when the wire cannot carry `pattern`. The format follows the
//! contract (seed 003 §2.1) and the Anthropic SDK's `transform_schema`:
//! `{pattern: "^a$", minimum: 0}` after a blank line.
use crate::lookup::Fields;
use super::{append_description, json_text};
use crate::error::Result;
use crate::keywords;
use crate::options::SpillFormat;
use crate::context::Cx;
use crate::doc::{Key, Map, Value};
use crate::keywords::kw;

/// Removes every keyword the target does not keep; spills the human-meaningful
/// ones. Every removal of an assertion is reported as lossy.
pub fn strip_unsupported(node: &mut Map, cx: &mut Cx) -> Result<()> {
    let caps = cx.target.caps;
    // A free-form object (`{"type": "object"}` as a parameter) takes any
    // members. A target that writes every object with `properties` and has
    // no `additionalProperties` (Gemini's Schema) sends it as an object with
    // none, which models fill with nothing: said, not silent (issue 22).
    if caps.object_properties
        && !caps.keeps(kw::ADDITIONAL_PROPERTIES)
        && super::facts::is_free_form(node, cx)
        && !super::facts::branch_of_combinator(cx)
    {
        let id = cx.target.id;
        cx.lossy_with("free-form-object-unexpressed", || {
            format!("an object without properties or additionalProperties takes any members; {id} cannot say so, and sends it with no properties")
        });
    }
    // Nearly every node: its keys are keywords the call keeps whatever
    // their value, so the search below would find nothing to strip.
    if node.keys_are_bits() && node.keyword_bits() & !cx.plainly_kept == 0 {
        return Ok(());
    }
    let extra = &cx.opts.strip_keywords;
    // Kept keywords whose value the target cannot hold on this node (Gemini:
    // a format its type does not list, a bound on another type, a count no
    // int64 holds) are spilled as if not kept.
    let types = super::types_of(node);
    let mut drop: Vec<Key> = node
        .iter()
        .filter(|(k, v)| !cx.keeps(k) || extra.iter().any(|e| e.as_str() == k.as_str()) || caps.refuses_value(k, v, &types).is_some())
        .map(|(k, _)| k.clone())
        .collect();
    if let Some(Value::String(f)) = node.field(kw::FORMAT) {
        if !caps.takes_format(f) && !drop.iter().any(|k| k == "format") {
            drop.push("format".into());
        }
    }
    strip(node, &drop, cx);
    Ok(())
}

/// Removes `keys` from `node`, spilling and reporting each.
pub fn strip(node: &mut Map, keys: &[Key], cx: &mut Cx) {
    strip_because(node, keys, None, cx);
}

/// `strip`, the report saying `why` ("ignored by llamacpp beside pattern")
/// where it would say "not accepted by" the target.
pub fn strip_because(node: &mut Map, keys: &[Key], why: Option<&str>, cx: &mut Cx) {
    if keys.is_empty() {
        return;
    }
    let mut spilled = Vec::new();
    for key in keys {
        let Some(value) = node.remove_field(key) else { continue };
        cx.count("keywordsStripped");
        if spills(cx) && keywords::spillable(key) {
            spilled.push((key.clone(), value));
            continue;
        }
        match keywords::get(key).map(|k| k.kind) {
            // Identifiers, dialect, comments and annotations change no instance's validity.
            Some(keywords::Kind::Core | keywords::Kind::Meta | keywords::Kind::Annotation) => {}
            Some(keywords::Kind::Extension) | None if key.starts_with("x-") || key == "propertyOrdering" => {}
            _ => {
                // A subschema (not `true`/`false`) was normalized before its
                // node: what its rules reported goes with it.
                if !value.is_boolean() && keywords::slot(key) != keywords::Slot::Data {
                    let here = cx.path.to_pointer();
                    let below = here.child(key.as_str());
                    cx.report.forget_below(&below, &here);
                }
                cx.enter(key.as_str()).ok();
                let id = cx.target.id;
                match why {
                    Some(why) => cx.lossy_with("keyword-dropped", || format!("{key} {why}; it was removed")),
                    None => cx.lossy_with("keyword-dropped", || format!("{key} is not accepted by {id}; it was removed")),
                }
                cx.leave();
            }
        }
    }
    stand_in_patterns(node, &mut spilled, cx);
    if spilled.is_empty() {
        return;
    }
    let names = || spilled.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>().join(", ");
    let id = cx.target.id;
    match why {
        Some(why) => cx.lossy_with("keyword-spilled", || format!("{} {why}; moved into description", names())),
        None => cx.lossy_with("keyword-spilled", || format!("{} not accepted by {id}; moved into description", names())),
    }
    let text = render(&spilled, cx.opts.spill);
    append_description(node, &text, separator(cx));
}

/// What comes between a description and the spill after it.
pub fn separator(cx: &Cx) -> &'static str {
    if cx.opts.spill == SpillFormat::Paren {
        " "
    } else {
        "\n\n"
    }
}

/// Whether the target reads what it cannot keep in `description`, and the call lets it.
pub fn spills(cx: &Cx) -> bool {
    cx.target.caps.spill && cx.opts.spill != SpillFormat::None && !cx.opts.strip_keywords.iter().any(|k| k == "description")
}

/// Longest `pattern` spilled beside a `format`. Generators write a regex
/// stand-in for each format they emit (Zod 4: 93 to 380 characters for
/// `duration`, `email`, `ipv4`, `uuid`, `date`, `date-time`, `ipv6`); pasted
/// into `description` it is noise the model reads on every call (issue 21,
/// a Gemini spill of a 256-character date-time regex), where the format says
/// the same in a few words. A refinement written by hand is short, and spilled.
const MAX_PATTERN_BESIDE_FORMAT: usize = 64;

/// Takes a long `pattern` out of `spilled` when the node has a `format`
/// (kept, or spilled with it), reporting it as dropped.
fn stand_in_patterns(node: &Map, spilled: &mut Vec<(Key, Value)>, cx: &mut Cx) {
    let format = node.field(kw::FORMAT).or_else(|| spilled.iter().find(|(k, _)| k == "format").map(|(_, v)| v));
    let Some(Value::String(format)) = format.cloned() else { return };
    let Some(at) = spilled.iter().position(|(k, v)| k == "pattern" && v.as_str().is_some_and(|p| p.chars().count() > MAX_PATTERN_BESIDE_FORMAT))
    else {
        return;
    };
    let (_, pattern) = spilled.remove(at);
    let length = pattern.as_str().map_or(0, |p| p.chars().count());
    cx.enter("pattern").ok();
    cx.lossy(
        "keyword-dropped",
        format!("pattern (a {length}-character regex) is not accepted by {}; it was removed, not spilled, since format {format:?} beside it says what it checks", cx.target.id),
    );
    cx.leave();
}

/// Renders spilled keywords in the chosen format.
pub fn render(entries: &[(Key, Value)], format: SpillFormat) -> String {
    match format {
        SpillFormat::Paren => entries
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("({k}: {s})"),
                _ => format!("({k}: {})", json_text(v)),
            })
            .collect::<Vec<_>>()
            .join(" "),
        _ => {
            let body: Vec<String> = entries.iter().map(|(k, v)| format!("{k}: {}", json_text(v))).collect();
            format!("{{{}}}", body.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn spill_format_matches_the_contract() {
        let e = vec![("pattern".into(), json!("^a$")), ("minimum".into(), json!(0))];
        assert_eq!(render(&e, SpillFormat::Spill), r#"{pattern: "^a$", minimum: 0}"#);
        assert_eq!(render(&e, SpillFormat::Paren), "(pattern: ^a$) (minimum: 0)");
    }
}
