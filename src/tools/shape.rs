//! Where a tool list keeps its tools, and a tool its schema and its name, in
//! every provider shape read here; and what a tool looks like, so one passed
//! where a schema belongs is refused instead of read as a schema.
use crate::error::Error;
use crate::keywords::{self, Kind};
use crate::pointer::Pointer;
use crate::doc::Value;

/// Where each tool shape keeps its schema, and where its strict flag goes:
/// OpenAI Chat (`function.parameters`), Responses and Gemini (`parameters`),
/// Anthropic (`input_schema`), MCP (`inputSchema`), Gemini JSON (`parametersJsonSchema`).
pub(crate) type Slot = (&'static [&'static str], Option<&'static [&'static str]>);
pub(crate) const SLOTS: &[Slot] = &[
    (&["function", "parameters"], Some(&["function", "strict"])),
    (&["parameters"], Some(&["strict"])),
    (&["input_schema"], Some(&["strict"])),
    (&["inputSchema"], None),
    (&["parametersJsonSchema"], None),
];

/// The paths of `SLOTS`, for the parse that leaves a slot's unused
/// definitions unread (`Doc::parse_capturing_deferring`).
pub(crate) const SLOT_PATHS: &[&[&str]] = &{
    let mut paths: [&[&str]; SLOTS.len()] = [&[]; SLOTS.len()];
    let mut i = 0;
    while i < SLOTS.len() {
        paths[i] = SLOTS[i].0;
        i += 1;
    }
    paths
};

/// A tool without any schema (an OpenAI function without parameters) is left as it is.
pub(crate) fn schema_slot(tool: &Value) -> Option<Slot> {
    SLOTS.iter().copied().find(|(path, _)| get_path(tool, path).is_some())
}

pub(crate) fn get_path<'v>(v: &'v Value, path: &[&str]) -> Option<&'v Value> {
    path.iter().try_fold(v, |cur, k| cur.get(*k))
}

pub(crate) fn get_path_mut<'v>(v: &'v mut Value, path: &[&str]) -> Option<&'v mut Value> {
    path.iter().try_fold(v, |cur, k| cur.get_mut(*k))
}

/// `v` copied, with `Value::Null` in place of what is at `path` (a tool
/// without its schema: the caller puts the normalized one there).
pub(crate) fn clone_without(v: &Value, path: &[&str]) -> Value {
    match (v, path.split_first()) {
        (Value::Object(m), Some((first, rest))) => Value::Object(
            m.iter()
                .map(|(k, v)| (k.clone(), if k != first { v.clone() } else if rest.is_empty() { Value::Null } else { clone_without(v, rest) }))
                .collect(),
        ),
        _ => v.clone(),
    }
}

/// `v` (at pointer `at`) copied with null in place of the values at
/// `pointers` (escaped, as `Pointer` writes them): a tool list's wrapper
/// around its tools, which the normalized tools then replace. Copying the
/// tools too, schemas and all, only to drop them, was a whole copy of the input.
pub(crate) fn clone_around(v: &Value, at: &mut String, pointers: &[String]) -> Value {
    if pointers.len() > SCAN_UP_TO {
        let mut sorted: Vec<&str> = pointers.iter().map(String::as_str).collect();
        crate::sort::sort(&mut sorted);
        return copy_around_sorted(v, at, &sorted);
    }
    if pointers.iter().any(|p| p == at) {
        return Value::Null;
    }
    let above = |p: &String| p.len() > at.len() && p.starts_with(at.as_str()) && p.as_bytes()[at.len()] == b'/';
    if !pointers.iter().any(above) {
        return v.clone();
    }
    rebuilt(v, at, |c, at| clone_around(c, at, pointers))
}

/// `v` with each child replaced by `copy` of it (given the child's pointer).
fn rebuilt(v: &Value, at: &mut String, copy: impl Fn(&Value, &mut String) -> Value) -> Value {
    let len = at.len();
    let child = |at: &mut String, segment: &str, c: &Value| {
        at.push('/');
        at.push_str(&crate::pointer::escape(segment));
        let out = copy(c, at);
        at.truncate(len);
        out
    };
    match v {
        Value::Object(m) => Value::Object(m.iter().map(|(k, c)| (k.clone(), child(at, k.as_str(), c))).collect()),
        Value::Array(items) => Value::Array(items.iter().enumerate().map(|(i, c)| child(at, &i.to_string(), c)).collect()),
        _ => v.clone(),
    }
}

/// Up to this many pointers (a list of as many tools) each node scans them
/// all; past it they are sorted once and searched, where the scan at every
/// node was quadratic in the tools.
const SCAN_UP_TO: usize = 32;

/// `clone_around` past `SCAN_UP_TO`, the pointers sorted: the pointers below
/// a node start with its own and `/`, a run of the sorted list.
fn copy_around_sorted(v: &Value, at: &mut String, sorted: &[&str]) -> Value {
    if sorted.binary_search(&at.as_str()).is_ok() {
        return Value::Null;
    }
    let len = at.len();
    at.push('/');
    let below = sorted.get(sorted.partition_point(|p| *p < at.as_str())).is_some_and(|p| p.starts_with(at.as_str()));
    at.truncate(len);
    if !below {
        return v.clone();
    }
    rebuilt(v, at, |c, at| copy_around_sorted(c, at, sorted))
}

pub(crate) fn set_path(v: &mut Value, path: &[&str], new: Value) {
    let (last, parents) = path.split_last().expect("non-empty path");
    let mut cur = v;
    for k in parents {
        cur = &mut cur[*k];
    }
    cur[*last] = new;
}

/// Where a tool keeps its name: `function.name` for OpenAI Chat tools, `name`
/// for every other shape.
pub(crate) fn name_path(tool: &Value) -> &'static [&'static str] {
    if tool.get("function").is_some_and(Value::is_object) {
        &["function", "name"]
    } else {
        &["name"]
    }
}

pub(crate) fn tool_name(tool: &Value) -> Option<&str> {
    get_path(tool, name_path(tool)).and_then(Value::as_str)
}

/// The tools of a list: a JSON pointer into the list for each, in order, and
/// whether the list is a bare array of tools (the output is then the array of
/// output tools, with nothing to copy around it).
pub(crate) struct Places {
    pub pointers: Vec<String>,
    pub bare: bool,
}

/// Gemini's request groups its declarations: `tools: [{functionDeclarations:
/// [...]}, {googleSearch: {}}]` (https://ai.google.dev/api/caching#Tool).
const GROUP: &str = "functionDeclarations";

/// Where a list keeps its tools, in the order they are looked for: an array,
/// `{tools}`, an MCP `tools/list` result, Gemini's `{functionDeclarations}`.
pub(crate) const PLACES: &[&[&str]] = &[&[], &["tools"], &["result", "tools"], &[GROUP]];

/// Every tool of `list`: an array, `{tools}` (MCP, or Gemini's request with
/// its groups), an MCP `tools/list` result, Gemini's `{functionDeclarations}`.
/// In an array with `functionDeclarations` entries (Gemini's groups), each
/// declaration is a tool and the other entries are left as they are;
/// otherwise each element is a tool. Anything else in a tool's place cannot
/// be read, and is an error at its pointer.
pub(crate) fn places(list: &Value) -> Result<Places, Error> {
    let (array, base) = PLACES
        .iter()
        .find_map(|path| match get_path(list, path) {
            Some(Value::Array(a)) => Some((a, *path)),
            _ => None,
        })
        .ok_or_else(not_a_list)?;
    let mut at = Pointer::root();
    for key in base {
        at.push(key);
    }
    let mut pointers = Vec::with_capacity(array.len());
    // Gemini's tools array: its other entries are built-in tools (`googleSearch`,
    // `codeExecution`), not functions, and are left out of the list's tools.
    let gemini = !items_are_tools(array, base);
    let bare = base.is_empty() && !gemini;
    for (i, item) in array.iter().enumerate() {
        at.push_index(i);
        match item {
            Value::Object(m) if gemini && !m.contains_key(GROUP) => {}
            Value::Object(m) if gemini => {
                at.push(GROUP);
                let Some(Value::Array(decls)) = m.get(GROUP) else {
                    return Err(unreadable(&at, "Gemini's functionDeclarations must be an array of function declarations"));
                };
                for (j, decl) in decls.iter().enumerate() {
                    at.push_index(j);
                    if !decl.is_object() {
                        return Err(unreadable(&at, "a function declaration must be an object ({name, description, parameters})"));
                    }
                    pointers.push(at.to_string());
                    at.pop();
                }
                at.pop();
            }
            Value::Object(_) => pointers.push(at.to_string()),
            _ => return Err(unreadable(&at, "a tool must be an object (OpenAI, Responses, Anthropic, MCP or Gemini shape)")),
        }
        at.pop();
    }
    Ok(Places { pointers, bare })
}

/// Whether each element of the tools array found at `base` is a tool: not
/// in Gemini's request, whose tools array groups declarations.
pub(crate) fn items_are_tools(array: &[Value], base: &[&str]) -> bool {
    base == [GROUP] || !array.iter().any(|t| t.get(GROUP).is_some())
}

fn unreadable(at: &Pointer, what: &str) -> Error {
    Error::NotASchema { pointer: at.clone(), message: format!("cannot read the tool list at {:?}: {what}", at.to_string()) }
}

pub(crate) fn not_a_list() -> Error {
    Error::NotASchema {
        pointer: Default::default(),
        message: "expected a tool list: an array of OpenAI, Responses, Anthropic, MCP or Gemini tools (or of Gemini \
                  `{functionDeclarations}` groups), or an object with `tools`, `result.tools` or `functionDeclarations`"
            .into(),
    }
}

/// The schema slot of a tool passed where a schema is expected, as the user
/// would write it (`tool.inputSchema`), or None for anything that may be a
/// schema. Conservative: an object with `name` and a schema slot (or an OpenAI
/// `{type: "function", function: {name, ...}}`) and no keyword beside them that
/// only a schema has. Annotations (`title`, `description`) are shared by both.
pub fn tool_passed_as_schema(v: &Value) -> Option<&'static str> {
    let m = v.as_object()?;
    // Keys that are all keywords with a bit (most schemas' roots) hold no
    // `name` and no `function`, neither of which the keyword table has.
    if m.keys_are_bits() {
        debug_assert!(crate::keywords::lookup("name").is_none() && crate::keywords::lookup("function").is_none());
        return None;
    }
    let slot = if m.contains_key("name") {
        ["inputSchema", "input_schema", "parameters", "parametersJsonSchema", "function"].into_iter().find(|k| m.contains_key(*k))?
    } else {
        m.get("function").filter(|f| f.get("name").is_some())?;
        "function"
    };
    let schema_keyword = |(k, v): (&crate::doc::Key, &Value)| match k.as_str() {
        "name" | "inputSchema" | "input_schema" | "parameters" | "parametersJsonSchema" | "function" => false,
        // `type: "function"` is a tool's; no JSON Schema type has that name.
        "type" => v.as_str() != Some("function"),
        other => keywords::get(other).is_some_and(|kw| kw.kind != Kind::Annotation),
    };
    if m.iter().any(schema_keyword) {
        return None;
    }
    Some(match slot {
        "function" if m.get("function").is_some_and(|f| f.get("parameters").is_some()) => "tool.function.parameters",
        "function" => "tool.function",
        "inputSchema" => "tool.inputSchema",
        "input_schema" => "tool.input_schema",
        "parameters" => "tool.parameters",
        _ => "tool.parametersJsonSchema",
    })
}

/// The error for a tool passed where a schema belongs: read as a schema, a
/// tool gave `openai-strict` a schema with no parameters claimed strict,
/// `google` an invented `value` parameter, `openai` `name` and `inputSchema`
/// as properties, all without a word.
pub fn tool_as_schema_error(slot: &str) -> Error {
    Error::NotASchema {
        pointer: Pointer::root(),
        message: format!(
            "this is a tool definition, not a schema: pass its schema ({slot}), or pass the whole tool list to normalizeTools"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::{clone_around, places};
    use crate::json;

    /// The wrapper `clone_around` copies, with each tool put back, is the list:
    /// for every place a list keeps its tools, Gemini's groups beside built-in
    /// tools, and keys a pointer escapes.
    #[test]
    fn the_copy_around_the_tools_is_the_list_without_them() {
        let tool = |n: &str| json!({"name": n, "inputSchema": {"type": "object", "properties": {"a/b~c": {"type": "string"}}}});
        let lists = [
            json!([tool("a"), tool("b")]),
            json!({"model": "m", "tools": [tool("a"), tool("b")], "messages": [{"role": "user", "content": "hi"}]}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [tool("a")], "nextCursor": null}}),
            json!({"functionDeclarations": [tool("a"), tool("b"), tool("c")]}),
            json!({"contents": [], "tools": [{"googleSearch": {}}, {"functionDeclarations": [tool("a"), tool("b")]}, {"functionDeclarations": [tool("c")]}]}),
        ];
        for list in lists {
            let at = places(&list).expect("a tool list").pointers;
            let mut copy = clone_around(&list, &mut String::new(), &at);
            for p in &at {
                let slot = copy.pointer_mut(p).expect("the tool's place is kept");
                assert!(slot.is_null(), "{p} in {list}");
                *slot = list.pointer(p).expect("a tool").clone();
            }
            assert_eq!(copy, list);
        }
    }
}
