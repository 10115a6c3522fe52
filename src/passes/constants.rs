//! `const` and literal unions.
use crate::lookup::Fields;
use super::json_text;
use crate::values::value_has_type;
use crate::error::Result;
use crate::context::Cx;
use crate::doc::{Map, Value};
use crate::keywords::kw;

/// `const: X` → `enum: [X]`. Gemini's Schema proto has no `const` field (F16, F20:
/// `Unknown name "const" ... Cannot find field.`); the OpenAI strict contract
/// (seed 003 §1.2) asks for the same spelling.
pub fn const_to_enum(node: &mut Map, cx: &mut Cx) -> Result<()> {
    let Some(c) = node.remove_field(kw::CONST) else { return Ok(()) };
    let values = match node.field(kw::ENUM) {
        Some(Value::Array(e)) if !e.contains(&c) => {
            cx.lossy("unsatisfiable-const", "const is not among the enum values; the const was kept");
            vec![c]
        }
        _ => vec![c],
    };
    node.insert(kw::ENUM.into(), Value::Array(values));
    cx.count("constToEnum");
    Ok(())
}

/// An `anyOf`/`oneOf` whose branches are all literals (`enum`/`const` and
/// annotations only) becomes one `enum`: Zod `z.literal` unions and TypeBox
/// `Type.Union([Type.Literal(..)])` emit these, and Gemini and Cloud Code Assist
/// reject `const` branches (earendil-works/pi#2255).
pub fn literal_unions(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if node.has(kw::ENUM) {
        return Ok(());
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = node.field(key) else { continue };
        if branches.is_empty() {
            continue;
        }
        let mut values: Vec<Value> = Vec::new();
        let mut seen = crate::hash::HashSet::default();
        let mut types: Vec<String> = Vec::new();
        // The branches' one description, if every branch has the same one;
        // else each described branch's values with its description, one line
        // each, so that the model still reads what each value means.
        let mut shared: Option<Option<&String>> = None;
        let mut lines: Vec<String> = Vec::new();
        for b in branches {
            let Value::Object(b) = b else { return Ok(()) };
            let literal = b.keys().all(|k| matches!(k.as_str(), "enum" | "const" | "type" | "title" | "description"));
            let members = match (b.field(kw::ENUM), b.field(kw::CONST)) {
                (Some(Value::Array(e)), None) => e.clone(),
                (None, Some(c)) => vec![c.clone()],
                _ => return Ok(()),
            };
            if !literal {
                return Ok(());
            }
            if let Some(Value::String(t)) = b.field(kw::TYPE) {
                if !types.contains(t) {
                    types.push(t.clone());
                }
            }
            let own = match b.field(kw::DESCRIPTION) {
                Some(Value::String(d)) => Some(d),
                _ => None,
            };
            shared = match shared {
                None => Some(own),
                Some(first) if first != own => Some(None),
                same => same,
            };
            if let Some(d) = own {
                let named: Vec<String> = members.iter().map(|m| m.as_str().map_or_else(|| json_text(m), str::to_owned)).collect();
                lines.push(format!("{}: {d}", named.join(", ")));
            }
            // A literal outside its branch's or the node's type is no value of the
            // union (`{type: object, anyOf: [{const: "x"}]}` accepts nothing).
            let typed = |m: &Value, t: Option<&Value>| match t {
                Some(Value::String(t)) => value_has_type(m, t),
                Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).any(|t| value_has_type(m, t)),
                _ => true,
            };
            for m in members {
                let nullable = m.is_null() && node.field(kw::NULLABLE) == Some(&Value::Bool(true));
                if typed(&m, b.field(kw::TYPE)) && (nullable || typed(&m, node.field(kw::TYPE))) && seen.insert(json_text(&m)) {
                    values.push(m);
                }
            }
        }
        if values.is_empty() {
            return Ok(());
        }
        let description = match shared.flatten() {
            Some(one) => (!node.has(kw::DESCRIPTION)).then(|| one.clone()),
            None if !lines.is_empty() => Some(lines.join("\n")),
            None => None,
        };
        node.remove_field(key);
        if !node.has(kw::TYPE) && types.len() == 1 {
            node.insert(kw::TYPE.into(), Value::String(types.remove(0)));
        } else if !node.has(kw::TYPE) && types.len() > 1 {
            node.insert(kw::TYPE.into(), Value::Array(types.into_iter().map(Value::String).collect()));
        }
        if let Some(d) = description {
            super::append_description(node, &d, "\n\n");
        }
        node.insert(kw::ENUM.into(), Value::Array(values));
        cx.count("literalUnionsToEnum");
        break;
    }
    Ok(())
}
