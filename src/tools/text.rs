//! Tool lists as JSON text in and out: what an edge proxy holds is a request
//! body, most of it messages. The body is parsed into a `Doc`; only the tools
//! array becomes a `crate::doc::Value` for `normalize_tools`, and the body is
//! written back with the normalized array spliced in. The rest of the body
//! (a conversation's messages) is copied through the document, never built
//! as values.
use super::{normalize_tools_owned, shape, Telemetry};
use crate::doc::{Captured, Doc, Kind, NodeId};
use crate::error::Error;
use crate::options::Options;
use crate::targets::Target;
use crate::doc::Value;

/// Normalizes the tools in `input` (a tool list or a request body holding
/// one, in any shape `normalize_tools` reads) for `target`, and returns the
/// same document as compact JSON text with every tool normalized: what
/// `normalize_tools` gives for the parsed input, as serde_json writes it.
/// Nesting deeper than `opts.max_depth` plus the tool wrappers is refused in
/// the tools only; the rest of the body may nest as deep as it likes.
pub fn normalize_tools_text(input: &str, target: &Target, opts: &Options) -> Result<(String, Telemetry), Error> {
    // A tool list nests one level per tool wrapper above each schema, and the
    // list sits `base.len()` levels into the body.
    let limit = opts.max_depth + 4;
    let Body { doc, array, base, captured } = parse_body(input, limit)?;
    // The whole text's nesting bounds the list's: when it is within both
    // limits (nearly every body), the list needs no walk of its own.
    let bound = doc.text_depth();
    if bound > limit || crate::json::fits_stack(bound).is_err() {
        let depth = captured.as_ref().map_or_else(|| doc.depth(array), |c| c.depth) + base.len();
        if depth > limit {
            return Err(Error::TooDeep { pointer: Default::default(), limit });
        }
        crate::json::fits_stack(depth)?;
    }
    // The list as `normalize_tools` would see it in the whole body: the same
    // keys lead to the array, so every pointer in the telemetry is the same.
    let (list, span) = match captured {
        Some(c) => {
            let span = c.span.clone();
            (settled(c, input, base, opts)?, Some(span))
        }
        None => (doc.to_value(array), None),
    };
    let wrap = |mut list: Value| {
        for key in base.iter().rev() {
            list = Value::Object([(key.to_string(), list)].into_iter().collect());
        }
        list
    };
    // The list once more, for a run that fails open: its text parsed again,
    // or the document's nodes made values again.
    let again = || -> Result<Value, Error> {
        let list = match &span {
            Some(span) => crate::json::parse(&input[span.clone()], limit)?,
            None => doc.to_value(array),
        };
        Ok(wrap(list))
    };
    let list = wrap(list);
    // A schema nests less deep than the whole text: within `maxDepth` when
    // the text is.
    let outcome = normalize_tools_owned(list, bound <= opts.max_depth, target, opts, Some(&again))?;
    let tools = base.iter().try_fold(&outcome.tools, |v, k| v.get(*k)).unwrap_or(&Value::Null);
    let mut text = String::with_capacity(input.len());
    tools.write_json(&mut text);
    let body = if base.is_empty() { text } else { doc.write_spliced(doc.root(), Some((array, &text)))? };
    let crate::tools::ToolsOutcome { tools, telemetry } = outcome;
    crate::pipeline::discard(tools);
    Ok((body, telemetry))
}

/// A captured tools array with its deferred definitions settled: on a quiet
/// run, at each tool's schema slot only those a reference reaches are read
/// (the run would drop the others first), anywhere else all are; a run with
/// telemetry reads all, since a tool's `modified` compares its output with
/// the schema as written. Read again whole where the array no longer holds
/// a definitions object where the text had it.
fn settled(c: Captured, input: &str, base: &[&str], opts: &Options) -> Result<Value, Error> {
    let Captured { mut value, deferred, span, .. } = c;
    if deferred.is_empty() {
        return Ok(value);
    }
    let tools = opts.quiet && value.as_array().is_some_and(|items| shape::items_are_tools(items, base));
    let slot_of = |tool: &Value| if tools { shape::schema_slot(tool).map(|(path, _)| path) } else { None };
    if !crate::refs::settle_deferred(&mut value, &deferred, input, opts.max_depth, &slot_of) {
        crate::pipeline::discard(value);
        value = crate::doc::parse_value(&input[span])?;
    }
    Ok(value)
}

/// The body parsed, its tools array and the keys that lead to it, and the
/// array read straight into a value when the parse could: a request body is
/// mostly its tools, and building them as document nodes only to convert
/// them into values was a fifth of a call. Any array at a place a list may
/// be is read so (`Doc::parse_capturing`), within the depth a list may have
/// and only where its values can be dropped on the stack left; when more
/// than one was (a body with both `tools` and `functionDeclarations`, a
/// repeated key), or not the one chosen, the body is parsed again as a
/// document alone, so that nothing stands in for an array still written.
fn parse_body(input: &str, limit: usize) -> Result<Body<'_>, Error> {
    if crate::json::fits_stack(limit).is_ok() {
        let (doc, mut captured) = Doc::parse_capturing_deferring(input, shape::PLACES, limit, shape::SLOT_PATHS)?;
        let (array, base) = place(&doc).ok_or_else(shape::not_a_list)?;
        match captured.pop() {
            None => return Ok(Body { doc, array, base, captured: None }),
            Some(c) if captured.is_empty() && c.node == array => return Ok(Body { doc, array, base, captured: Some(c) }),
            Some(_) => {}
        }
    }
    let doc = Doc::parse(input, usize::MAX)?;
    let (array, base) = place(&doc).ok_or_else(shape::not_a_list)?;
    Ok(Body { doc, array, base, captured: None })
}

/// A parsed body (`parse_body`).
struct Body<'s> {
    doc: Doc<'s>,
    /// The tools array's node.
    array: NodeId,
    /// The keys from the root to it.
    base: &'static [&'static str],
    /// The array as a value, where the parse read it so.
    captured: Option<Captured>,
}

/// The tools array of a document, and the keys that lead to it: the places
/// `shape::places` reads, in its order.
fn place<'d>(doc: &Doc<'d>) -> Option<(NodeId, &'static [&'static str])> {
    shape::PLACES.iter().find_map(|&path| {
        let node = path.iter().try_fold(doc.root(), |node, key| doc.get(node, key))?;
        (doc.kind(node) == Kind::Array).then_some((node, path))
    })
}
