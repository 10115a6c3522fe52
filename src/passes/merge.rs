//! Merging schemas: the conjunction of `allOf` branches, and the union of object
//! branches that targets without combinators need.
use crate::lookup::Fields;
use super::{json_text, types_of};
use crate::keywords::{self, is_annotation, Bound};
use crate::walk::Cx;
use crate::doc::{Map, Value};
use crate::hash::HashSet;

/// The schema accepting exactly what both `a` and `b` accept, when that can be
/// written without a combinator; `None` when they conflict in a way this cannot
/// express (different patterns, two `anyOf`s, disjoint types).
pub fn conjoin(a: &Map<String, Value>, b: &Map<String, Value>) -> Option<Map<String, Value>> {
    // Keyword by keyword is exact only where each side's applicators see the same
    // members: a name one side declares falls under the other side's
    // `additionalProperties` (and `patternProperties`), and a position in one
    // side's `prefixItems` under the other side's `items`. Merged, those would
    // escape the other side's rule (two closed objects with different
    // properties accept only `{}` together, not both property sets).
    // A `$ref` kept as a reference is opaque here: beside another side's
    // assertions it would become a `$ref` with siblings, merged later with the
    // target already normalized (and, for strict targets, already closed).
    let asserts = |m: &Map<String, Value>| m.keys().any(|k| k != "$ref" && k != "$defs" && !is_annotation(k));
    if (a.has("$ref") && a.field("$ref") != b.field("$ref") && asserts(b))
        || (b.has("$ref") && a.field("$ref") != b.field("$ref") && asserts(a))
        || !covers(a, b)
        || !covers(b, a)
        || (a.field("prefixItems") != b.field("prefixItems") && (constrains(a, "items") || constrains(b, "items")))
    {
        return None;
    }
    let mut out = a.clone();
    for (key, bv) in b {
        let Some(av) = out.field(key) else {
            out.insert(key.clone(), bv.clone());
            continue;
        };
        if av == bv {
            continue;
        }
        let merged = match key.as_str() {
            k if is_annotation(k) => av.clone(),
            "type" => intersect_types(av, bv)?,
            "properties" => {
                let (Value::Object(pa), Value::Object(pb)) = (av, bv) else { return None };
                let mut props = pa.clone();
                for (name, sb) in pb {
                    let merged = match props.get(name) {
                        Some(Value::Object(sa)) => {
                            let Value::Object(sb) = sb else { return None };
                            Value::Object(conjoin(sa, sb)?)
                        }
                        Some(_) => return None,
                        None => sb.clone(),
                    };
                    props.insert(name.clone(), merged);
                }
                Value::Object(props)
            }
            "required" => {
                let (Value::Array(ra), Value::Array(rb)) = (av, bv) else { return None };
                let mut list = ra.clone();
                for r in rb {
                    if !list.contains(r) {
                        list.push(r.clone());
                    }
                }
                Value::Array(list)
            }
            "enum" => {
                let (Value::Array(ea), Value::Array(eb)) = (av, bv) else { return None };
                let keep: HashSet<String> = eb.iter().map(json_text).collect();
                let both: Vec<Value> = ea.iter().filter(|v| keep.contains(&json_text(v))).cloned().collect();
                if both.is_empty() {
                    return None;
                }
                Value::Array(both)
            }
            k if keywords::bound(k) == Some(Bound::Lower) => larger(av, bv)?,
            k if keywords::bound(k) == Some(Bound::Upper) => smaller(av, bv)?,
            "additionalProperties" | "items" => match (av, bv) {
                (Value::Bool(false), _) | (_, Value::Bool(false)) => Value::Bool(false),
                (Value::Object(x), Value::Object(y)) => Value::Object(conjoin(x, y)?),
                _ => return None,
            },
            _ => return None,
        };
        out.insert(key.clone(), merged);
    }
    // OpenAPI's `nullable: true` widens (absent, null is not accepted): the
    // conjunction accepts null only where both sides do.
    if out.field("nullable") == Some(&Value::Bool(true)) && (a.field("nullable") != b.field("nullable")) {
        out.remove_field("nullable");
    }
    Some(out)
}

/// Records that the target's rules closed `node` (it was open as written).
pub fn mark_closed(node: &Map<String, Value>, cx: &mut Cx) {
    cx.closed.insert(fingerprint(node));
}

/// A normalized subschema as the input wrote it, for merging: without the
/// `additionalProperties: false` the target's rules added, in it and in the
/// members `conjoin` merges recursively. Closing every object is the strict
/// targets' narrowing: the open objects as written are merged, and the rules
/// then close the result. (An object closed as written whose normalized form
/// is identical to one the target closed, as far as `fingerprint` reads, is
/// read as open too.)
pub fn as_written(entry: &Map<String, Value>, cx: &Cx) -> Map<String, Value> {
    as_written_with(entry, reads_as_open(entry, cx), cx)
}

/// `as_written` with the node's own reading given: decided on the node whole,
/// before members were lifted out of it (which changes its fingerprint).
pub fn as_written_with(entry: &Map<String, Value>, reopen: bool, cx: &Cx) -> Map<String, Value> {
    let mut m = entry.clone();
    if cx.closed.is_empty() {
        return m;
    }
    if reopen {
        m.remove_field("additionalProperties");
    }
    reopen_members(&mut m, cx);
    m
}

/// Did the target's rules close `node` (so that merging reads it as open)?
pub fn reads_as_open(node: &Map<String, Value>, cx: &Cx) -> bool {
    !cx.closed.is_empty()
        && node.field("additionalProperties") == Some(&Value::Bool(false))
        && cx.closed.contains(&fingerprint(node))
}

/// `as_written` in place, for a member already copied.
pub fn reopen(node: &mut Map<String, Value>, cx: &Cx) {
    if cx.closed.is_empty() {
        return;
    }
    if reads_as_open(node, cx) {
        node.remove_field("additionalProperties");
    }
    reopen_members(node, cx);
}

fn reopen_members(m: &mut Map<String, Value>, cx: &Cx) {
    if let Some(Value::Object(props)) = m.field_mut("properties") {
        for p in props.values_mut() {
            if let Value::Object(s) = p {
                reopen(s, cx);
            }
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(Value::Object(s)) = m.field_mut(key) {
            reopen(s, cx);
        }
    }
}

/// The members that more than one side of a merge declares, which `conjoin`
/// merges into new subschemas: property names, `items`,
/// `additionalProperties`.
#[derive(Default)]
pub struct SharedMembers {
    properties: Vec<String>,
    items: bool,
    additional: bool,
}

/// Members moved out of one side of a merge (`SharedMembers::lift`), each
/// leaving `null` in its place.
#[derive(Default)]
pub struct Lifted {
    properties: Vec<(String, Value)>,
    items: Option<Value>,
    additional: Option<Value>,
}

impl SharedMembers {
    /// Every member of `node`, as if each were shared: for rerunning the rules
    /// over all of them (a merge that read every member as written).
    pub fn every(node: &Map<String, Value>) -> Self {
        let mut properties: Vec<String> = match node.field("properties") {
            Some(Value::Object(props)) => props.keys().cloned().collect(),
            _ => Vec::new(),
        };
        crate::sort::sort(&mut properties);
        SharedMembers { properties, items: true, additional: true }
    }

    pub fn of<'a>(sides: impl Iterator<Item = &'a Map<String, Value>> + Clone) -> Self {
        let twice = |key: &str| sides.clone().filter(|m| m.field(key).is_some_and(Value::is_object)).count() > 1;
        let mut seen: crate::hash::HashMap<&str, usize> = crate::hash::HashMap::default();
        for side in sides.clone() {
            if let Some(Value::Object(props)) = side.field("properties") {
                for name in props.keys() {
                    *seen.entry(name.as_str()).or_insert(0) += 1;
                }
            }
        }
        let mut properties: Vec<String> = seen.into_iter().filter(|(_, n)| *n > 1).map(|(k, _)| k.to_string()).collect();
        crate::sort::sort(&mut properties);
        SharedMembers { properties, items: twice("items"), additional: twice("additionalProperties") }
    }

    /// Moves the members of `side` no other side declares out of it. Only
    /// non-empty objects: `null` in their place reads the same to `conjoin`
    /// (an empty one constrains nothing, and copies as cheaply).
    pub fn lift(&self, side: &mut Map<String, Value>) -> Lifted {
        let take = |v: &mut Value| match v {
            Value::Object(m) if !m.is_empty() => Some(std::mem::take(v)),
            _ => None,
        };
        let mut out = Lifted::default();
        if let Some(Value::Object(props)) = side.field_mut("properties") {
            for (name, v) in props.iter_mut() {
                if self.properties.binary_search(name).is_err() {
                    if let Some(v) = take(v) {
                        out.properties.push((name.clone(), v));
                    }
                }
            }
        }
        if !self.items {
            out.items = side.field_mut("items").and_then(take);
        }
        if !self.additional {
            out.additional = side.field_mut("additionalProperties").and_then(take);
        }
        out
    }

    /// Runs `rules` over each shared member of the merged `node`, children first.
    pub fn rerun<'t>(&self, node: &mut Map<String, Value>, cx: &mut Cx<'t>, rules: &mut crate::walk::Visit<'_, 't>) -> crate::Result<()> {
        if let Some(Value::Object(props)) = node.field_mut("properties") {
            // In the node's order, as a walk would meet them.
            for (name, member) in props.iter_mut() {
                if self.properties.binary_search(name).is_ok() {
                    cx.enter("properties")?;
                    cx.enter(name.as_str())?;
                    crate::walk::post_order(member, cx, rules)?;
                    cx.leave();
                    cx.leave();
                }
            }
        }
        for (key, shared) in [("items", self.items), ("additionalProperties", self.additional)] {
            if let (true, Some(member)) = (shared, node.field_mut(key)) {
                cx.enter(key)?;
                crate::walk::post_order(member, cx, rules)?;
                cx.leave();
            }
        }
        Ok(())
    }
}

impl Lifted {
    /// Puts the members back into `m` wherever their `null` is (a merge copies
    /// it; an overlay may have replaced it). With `cx`, as written (`reopen`).
    pub fn restore(self, m: &mut Map<String, Value>, cx: Option<&Cx>) {
        let put = |slot: Option<&mut Value>, mut v: Value| {
            if let Some(slot) = slot.filter(|s| s.is_null()) {
                if let (Some(cx), Value::Object(o)) = (cx, &mut v) {
                    reopen(o, cx);
                }
                *slot = v;
            }
        };
        if !self.properties.is_empty() {
            if let Some(Value::Object(props)) = m.field_mut("properties") {
                for (name, v) in self.properties {
                    put(props.get_mut(&name), v);
                }
            }
        }
        if let Some(v) = self.items {
            put(m.field_mut("items"), v);
        }
        if let Some(v) = self.additional {
            put(m.field_mut("additionalProperties"), v);
        }
    }
}

/// A structural hash of a schema node (key order included, as in the output),
/// read to `FINGERPRINT_DEPTH` JSON levels; below that only each container's
/// size counts. Every object the strict rules close is fingerprinted, so hashing
/// whole subtrees made nesting quadratic (127 levels cost 7× what google's
/// rules do); bounded, each value is hashed by at most that many ancestors.
fn fingerprint(node: &Map<String, Value>) -> u64 {
    use std::hash::{Hash, Hasher};
    fn feed(v: &Value, depth: usize, h: &mut impl Hasher) {
        match v {
            Value::Null => 0u8.hash(h),
            Value::Bool(b) => (1u8, b).hash(h),
            Value::Number(n) => (2u8, n.to_string()).hash(h),
            Value::String(s) => (3u8, s).hash(h),
            Value::Array(a) => {
                (4u8, a.len()).hash(h);
                if depth < FINGERPRINT_DEPTH {
                    a.iter().for_each(|x| feed(x, depth + 1, h));
                }
            }
            Value::Object(m) => {
                (5u8, m.len()).hash(h);
                if depth < FINGERPRINT_DEPTH {
                    for (k, x) in m {
                        k.hash(h);
                        feed(x, depth + 1, h);
                    }
                }
            }
        }
    }
    let mut h = crate::hash::fixed_hasher();
    (5u8, node.len()).hash(&mut h);
    for (k, x) in node {
        k.hash(&mut h);
        feed(x, 1, &mut h);
    }
    h.finish()
}

/// How deep `fingerprint` reads: six JSON levels are three levels of nested
/// object schemas (`properties` → name → schema).
const FINGERPRINT_DEPTH: usize = 6;

/// Does `outer` leave every property `inner` declares and `outer` does not
/// unconstrained? Such a name falls under `outer`'s `additionalProperties` and
/// `patternProperties`. (Not `unevaluatedProperties`: beside `allOf` it sees
/// every entry's properties.)
fn covers(outer: &Map<String, Value>, inner: &Map<String, Value>) -> bool {
    let (mine, theirs) = (outer.field("properties").and_then(Value::as_object), inner.field("properties").and_then(Value::as_object));
    theirs.map_or(true, |t| t.keys().all(|name| mine.is_some_and(|m| m.has(name))))
        || !["additionalProperties", "patternProperties"].iter().any(|r| constrains(outer, r))
}

/// Is `key` present with a schema other than the always-true `{}` / `true`?
fn constrains(m: &Map<String, Value>, key: &str) -> bool {
    match m.field(key) {
        None | Some(Value::Bool(true)) => false,
        Some(Value::Object(s)) => !s.is_empty(),
        Some(_) => true,
    }
}

fn intersect_types(a: &Value, b: &Value) -> Option<Value> {
    let list = |v: &Value| -> Vec<String> {
        match v {
            Value::String(s) => vec![s.clone()],
            Value::Array(xs) => xs.iter().filter_map(|x| x.as_str().map(String::from)).collect(),
            _ => Vec::new(),
        }
    };
    let (la, lb) = (list(a), list(b));
    let mut both: Vec<String> = Vec::new();
    for t in &la {
        let hit = lb.contains(t) || (t == "integer" && lb.iter().any(|x| x == "number"));
        if hit && !both.contains(t) {
            both.push(t.clone());
        }
    }
    for t in &lb {
        if t == "integer" && la.iter().any(|x| x == "number") && !both.contains(t) {
            both.push(t.clone());
        }
    }
    match both.len() {
        0 => None,
        1 => Some(Value::String(both.remove(0))),
        _ => Some(Value::Array(both.into_iter().map(Value::String).collect())),
    }
}

fn larger(a: &Value, b: &Value) -> Option<Value> {
    Some(if a.as_f64()? >= b.as_f64()? { a.clone() } else { b.clone() })
}

fn smaller(a: &Value, b: &Value) -> Option<Value> {
    Some(if a.as_f64()? <= b.as_f64()? { a.clone() } else { b.clone() })
}

/// Is this branch an object schema (or a typeless object fragment)?
pub fn is_object_like(v: &Value) -> bool {
    let Value::Object(m) = v else { return false };
    let types = types_of(m);
    if !types.is_empty() {
        return types.iter().all(|t| *t == "object" || *t == "null") && types.contains(&"object");
    }
    m.has("properties") || m.has("required") || m.has("additionalProperties")
}

/// One object accepting (at least) every branch: properties united (a name in
/// several branches keeps the first branch's schema unless all agree), required
/// narrowed to the names every branch requires. Widening: reported by callers.
pub fn unite_objects(branches: &[&Map<String, Value>]) -> Map<String, Value> {
    let mut props = Map::new();
    let mut required: Option<Vec<Value>> = None;
    let mut closed = true;
    let mut open = false;
    // A branch that requires a property no value can satisfy accepts nothing.
    let satisfiable = |b: &&&Map<String, Value>| {
        let props = b.field("properties").and_then(Value::as_object);
        !b.field("required").and_then(Value::as_array).is_some_and(|r| {
            r.iter().filter_map(Value::as_str).any(|n| props.and_then(|p| p.get(n)).is_some_and(super::is_never))
        })
    };
    for b in branches.iter().filter(satisfiable) {
        if let Some(Value::Object(p)) = b.field("properties") {
            for (name, s) in p.iter().filter(|(_, s)| !super::is_never(s)) {
                match props.get_mut(name) {
                    None => {
                        props.insert(name.clone(), s.clone());
                    }
                    Some(existing) => {
                        if let Some(u) = unite_values(existing, s) {
                            *existing = u;
                        }
                    }
                }
            }
        }
        let r: Vec<Value> = b.field("required").and_then(Value::as_array).cloned().unwrap_or_default();
        required = Some(match required {
            None => r,
            Some(prev) => prev.into_iter().filter(|x| r.contains(x)).collect(),
        });
        closed &= b.field("additionalProperties") == Some(&Value::Bool(false));
        open |= b.field("additionalProperties").is_some_and(|a| a != &Value::Bool(false));
    }
    let mut out = Map::new();
    out.insert("type".into(), Value::String("object".into()));
    out.insert("properties".into(), Value::Object(props));
    if let Some(r) = required.filter(|r| !r.is_empty()) {
        out.insert("required".into(), Value::Array(r));
    }
    if closed {
        out.insert("additionalProperties".into(), Value::Bool(false));
    } else if open {
        // A branch that takes any key makes the union take any key (written `{}`,
        // the form the dialect upgrade gives `true`).
        out.insert("additionalProperties".into(), Value::Object(Map::new()));
    }
    out
}

/// Two schemas for one property: equal, or literals (`enum`/`const`) of one
/// type united into one `enum`. This keeps the discriminator of a merged union
/// (OpenClaw's single tool with an `action` enum: seed 004, "enum restoration").
fn unite_values(a: &Value, b: &Value) -> Option<Value> {
    if a == b {
        return Some(a.clone());
    }
    let (Value::Object(x), Value::Object(y)) = (a, b) else { return None };
    let literals = |m: &Map<String, Value>| -> Option<Vec<Value>> {
        match (m.field("enum"), m.field("const")) {
            (Some(Value::Array(e)), None) => Some(e.clone()),
            (None, Some(c)) => Some(vec![c.clone()]),
            _ => None,
        }
    };
    let (ex, ey) = (literals(x)?, literals(y)?);
    if x.field("type") != y.field("type") && x.field("type").is_some() && y.field("type").is_some() {
        return None;
    }
    let mut values = ex;
    for v in ey {
        if !values.contains(&v) {
            values.push(v);
        }
    }
    let mut out = x.clone();
    out.remove_field("const");
    if out.field("type").is_none() {
        if let Some(t) = y.field("type").cloned().or_else(|| crate::keywords::common_type(&values).map(|t| Value::String(t.into()))) {
            out.insert("type".into(), t);
        }
    }
    out.insert("enum".into(), Value::Array(values));
    Some(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn nest(levels: usize, leaf: &str) -> Map<String, Value> {
        let mut node = json!({"type": leaf});
        for _ in 0..levels {
            node = json!({"type": "object", "properties": {"p": node}});
        }
        node.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn fingerprint_reads_three_object_levels_and_no_further() {
        // A difference three object levels down (six JSON levels) is seen...
        assert_ne!(fingerprint(&nest(2, "string")), fingerprint(&nest(2, "integer")));
        // ...one further down only as far as the container sizes, which match.
        assert_eq!(fingerprint(&nest(3, "string")), fingerprint(&nest(3, "integer")));
        assert_ne!(fingerprint(&nest(3, "string")), fingerprint(&nest(4, "string")));
    }
}
