//! `additionalProperties` on a target that takes it only as `false`
//! (`Caps::additional_false_only`). WebMCP's input schema subset lists
//! `additionalProperties: false` and nothing else for it; any other value fails
//! the registration's meta-validation with a `TypeError`
//! (webmachinelearning/webmcp#289, web-platform-tests/wpt#62426).
use crate::error::Result;
use crate::lookup::Fields;
use crate::walk::Cx;
use serde_json::{Map, Value};

/// Removes an `additionalProperties` that is not `false`: `true` and `{}` are
/// what an object without it allows, so removing them is exact; a schema for
/// the extra members is reported (lossy), since they are no longer checked.
pub fn additional_false_only(node: &mut Map<String, Value>, cx: &mut Cx) -> Result<()> {
    let exact = match node.field("additionalProperties") {
        None | Some(Value::Bool(false)) => return Ok(()),
        Some(Value::Bool(true)) => true,
        Some(Value::Object(m)) => m.is_empty(),
        Some(_) => false,
    };
    node.remove_field("additionalProperties");
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
