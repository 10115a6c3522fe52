//! `additionalProperties` on a target that takes it only as `false`
//! (`Caps::additional_false_only`). WebMCP's input schema subset lists
//! `additionalProperties: false` and nothing else for it; any other value fails
//! the registration's meta-validation with a `TypeError`
//! (webmachinelearning/webmcp#289, web-platform-tests/wpt#62426).
use crate::error::Result;
use crate::lookup::Fields;
use crate::context::Cx;
use crate::doc::{Map, Value};
use crate::keywords::kw;

/// Removes an `additionalProperties` that is not `false`: `true` and `{}` are
/// what an object without it allows, so removing them is exact; a schema for
/// the extra members is reported (lossy), since they are no longer checked.
pub fn additional_false_only(node: &mut Map, cx: &mut Cx) -> Result<()> {
    let exact = match node.field(kw::ADDITIONAL_PROPERTIES) {
        None | Some(Value::Bool(false)) => return Ok(()),
        Some(Value::Bool(true)) => true,
        Some(Value::Object(m)) => m.is_empty(),
        Some(_) => false,
    };
    node.remove_field(kw::ADDITIONAL_PROPERTIES);
    cx.count("keywordsStripped");
    if !exact {
        cx.enter("additionalProperties")?;
        cx.lossy(
            "keyword-dropped",
            format!("{} accepts additionalProperties only as false; the schema for other members was removed, so their values are no longer checked", cx.target.id),
        );
        cx.leave();
    }
    Ok(())
}

/// On a wire where an object without `additionalProperties` is closed (xAI:
/// "additionalProperties defaults to false and must be set to true
/// explicitly", providers.md footnote 15), a free-form object (JSON Schema:
/// any members) says so with `additionalProperties: true`; left as written,
/// the tool could never receive its members. Not the root, whose lack of
/// properties declares a tool without parameters.
pub fn free_form_open(node: &mut Map, cx: &mut Cx) -> Result<()> {
    // `true` reads as `{}` after the draft upgrade: written back as `true`,
    // the form the provider documents, so normalizing again changes nothing.
    if let Some(Value::Object(any)) = node.field(kw::ADDITIONAL_PROPERTIES) {
        if any.is_empty() {
            node.insert(kw::ADDITIONAL_PROPERTIES.into(), Value::Bool(true));
        }
        return Ok(());
    }
    // Only a node that is an object alone: a type list holding `object` may
    // be a scalar root that `root-object` wraps after this rule, below the
    // root only when normalized again.
    let object_only = super::types_of(node) == ["object"];
    if object_only && super::facts::is_free_form(node, cx) && !super::facts::branch_of_combinator(cx) {
        node.insert(kw::ADDITIONAL_PROPERTIES.into(), Value::Bool(true));
        cx.count("freeFormObjectsOpened");
        let id = cx.target.id;
        cx.note("free-form-object-open", || {
            format!("{id} reads an object without additionalProperties as closed; this free-form object says additionalProperties: true")
        });
    }
    Ok(())
}
