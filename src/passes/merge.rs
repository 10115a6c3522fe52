//! Merging schemas: what rules need around the conjunction (`intersect::conjoin`)
//! of `allOf` branches, and the union of object branches that targets without
//! combinators need.
use crate::lookup::Fields;
use super::types_of;
use crate::context::Cx;
use crate::doc::{Key, Map, Value};
use crate::keywords::kw;

/// Records that the target's rules closed `node` (it was open as written).
pub fn mark_closed(node: &Map, cx: &mut Cx) {
    cx.closed.insert(fingerprint(node));
}

/// A normalized subschema as the input wrote it, for merging: without the
/// `additionalProperties: false` the target's rules added, in it and in the
/// members `conjoin` merges recursively. Closing every object is the strict
/// targets' narrowing: the open objects as written are merged, and the rules
/// then close the result. (An object closed as written whose normalized form
/// is identical to one the target closed, as far as `fingerprint` reads, is
/// read as open too.)
pub fn as_written(entry: &Map, cx: &Cx) -> Map {
    as_written_with(entry, reads_as_open(entry, cx), cx)
}

/// `as_written` with the node's own reading given: decided on the node whole,
/// before members were lifted out of it (which changes its fingerprint).
pub fn as_written_with(entry: &Map, reopen: bool, cx: &Cx) -> Map {
    let mut m = entry.clone();
    if cx.closed.is_empty() {
        return m;
    }
    if reopen {
        m.remove_field(kw::ADDITIONAL_PROPERTIES);
    }
    reopen_members(&mut m, cx);
    m
}

/// Did the target's rules close `node` (so that merging reads it as open)?
pub fn reads_as_open(node: &Map, cx: &Cx) -> bool {
    !cx.closed.is_empty()
        && node.field(kw::ADDITIONAL_PROPERTIES) == Some(&Value::Bool(false))
        && cx.closed.contains(&fingerprint(node))
}

/// `as_written` in place, for a member already copied.
pub fn reopen(node: &mut Map, cx: &Cx) {
    if cx.closed.is_empty() {
        return;
    }
    if reads_as_open(node, cx) {
        node.remove_field(kw::ADDITIONAL_PROPERTIES);
    }
    reopen_members(node, cx);
}

fn reopen_members(m: &mut Map, cx: &Cx) {
    if let Some(Value::Object(props)) = m.field_mut(kw::PROPERTIES) {
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
    properties: Vec<Key>,
    items: bool,
    additional: bool,
}

/// Members moved out of one side of a merge (`SharedMembers::lift`), each
/// leaving `null` in its place.
#[derive(Default)]
pub struct Lifted {
    properties: Vec<(Key, Value)>,
    items: Option<Value>,
    additional: Option<Value>,
}

impl SharedMembers {
    /// Every member of `node`, as if each were shared: for rerunning the rules
    /// over all of them (a merge that read every member as written).
    pub fn every(node: &Map) -> Self {
        let mut properties: Vec<Key> = match node.field(kw::PROPERTIES) {
            Some(Value::Object(props)) => props.keys().cloned().collect(),
            _ => Vec::new(),
        };
        crate::sort::sort(&mut properties);
        SharedMembers { properties, items: true, additional: true }
    }

    #[inline(never)]
    pub fn of(sides: &[&Map]) -> Self {
        let twice = |key: &str| sides.iter().filter(|m| m.field(key).is_some_and(Value::is_object)).count() > 1;
        let mut seen: crate::hash::HashMap<&str, usize> = crate::hash::HashMap::default();
        for side in sides {
            if let Some(Value::Object(props)) = side.field(kw::PROPERTIES) {
                for name in props.keys() {
                    *seen.entry(name.as_str()).or_insert(0) += 1;
                }
            }
        }
        let mut properties: Vec<Key> = seen.into_iter().filter(|(_, n)| *n > 1).map(|(k, _)| Key::from(k)).collect();
        crate::sort::sort(&mut properties);
        SharedMembers { properties, items: twice("items"), additional: twice("additionalProperties") }
    }

    /// Moves the members of `side` no other side declares out of it. Only
    /// non-empty objects: `null` in their place reads the same to `conjoin`
    /// (an empty one constrains nothing, and copies as cheaply).
    pub fn lift(&self, side: &mut Map) -> Lifted {
        let take = |v: &mut Value| match v {
            Value::Object(m) if !m.is_empty() => Some(std::mem::take(v)),
            _ => None,
        };
        let mut out = Lifted::default();
        if let Some(Value::Object(props)) = side.field_mut(kw::PROPERTIES) {
            for (name, v) in props.iter_mut() {
                if self.properties.binary_search(name).is_err() {
                    if let Some(v) = take(v) {
                        out.properties.push((name.clone(), v));
                    }
                }
            }
        }
        if !self.items {
            out.items = side.field_mut(kw::ITEMS).and_then(take);
        }
        if !self.additional {
            out.additional = side.field_mut(kw::ADDITIONAL_PROPERTIES).and_then(take);
        }
        out
    }

    /// Runs `rules` over each shared member of the merged `node`, children first.
    pub fn rerun<'t>(&self, node: &mut Map, cx: &mut Cx<'t>, rules: &mut crate::context::Visit<'_, 't>) -> crate::error::Result<()> {
        if let Some(Value::Object(props)) = node.field_mut(kw::PROPERTIES) {
            // In the node's order, as a walk would meet them.
            for (name, member) in props.iter_mut() {
                if self.properties.binary_search(name).is_ok() {
                    cx.enter("properties")?;
                    cx.enter(name.as_str())?;
                    crate::context::post_order(member, cx, rules)?;
                    cx.leave();
                    cx.leave();
                }
            }
        }
        for (key, shared) in [("items", self.items), ("additionalProperties", self.additional)] {
            if let (true, Some(member)) = (shared, node.field_mut(key)) {
                cx.enter(key)?;
                crate::context::post_order(member, cx, rules)?;
                cx.leave();
            }
        }
        Ok(())
    }
}

impl Lifted {
    /// Puts the members back into `m` wherever their `null` is (a merge copies
    /// it; an overlay may have replaced it). With `cx`, as written (`reopen`).
    pub fn restore(self, m: &mut Map, cx: Option<&Cx>) {
        let put = |slot: Option<&mut Value>, mut v: Value| {
            if let Some(slot) = slot.filter(|s| s.is_null()) {
                if let (Some(cx), Value::Object(o)) = (cx, &mut v) {
                    reopen(o, cx);
                }
                *slot = v;
            }
        };
        if !self.properties.is_empty() {
            if let Some(Value::Object(props)) = m.field_mut(kw::PROPERTIES) {
                for (name, v) in self.properties {
                    put(props.get_mut(&name), v);
                }
            }
        }
        if let Some(v) = self.items {
            put(m.field_mut(kw::ITEMS), v);
        }
        if let Some(v) = self.additional {
            put(m.field_mut(kw::ADDITIONAL_PROPERTIES), v);
        }
    }
}

/// A structural hash of a schema node (key order included, as in the output),
/// read to `FINGERPRINT_DEPTH` JSON levels; below that only each container's
/// size counts. Every object the strict rules close is fingerprinted, so hashing
/// whole subtrees made nesting quadratic (127 levels cost 7× what google's
/// rules do); bounded, each value is hashed by at most that many ancestors.
///
/// Keys and numbers are hashed as what tells them apart, not as text: a
/// keyword by its row (a keyword's name is never held as text), a number by
/// its kind and bits (as serde_json writes them, two numbers read the same
/// exactly when both are equal, so `0.0` and `-0.0` still differ).
fn fingerprint(node: &Map) -> u64 {
    use std::hash::{Hash, Hasher};
    fn key(k: &Key, h: &mut impl Hasher) {
        match k.keyword() {
            Some(word) => (0u8, word.row).hash(h),
            None => (1u8, k.as_str()).hash(h),
        }
    }
    fn feed(v: &Value, depth: usize, h: &mut impl Hasher) {
        match v {
            Value::Null => 0u8.hash(h),
            Value::Bool(b) => (1u8, b).hash(h),
            Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => (2u8, u).hash(h),
                (None, Some(i), _) => (6u8, i).hash(h),
                (None, None, f) => (7u8, f.unwrap_or(0.0).to_bits()).hash(h),
            },
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
                        key(k, h);
                        feed(x, depth + 1, h);
                    }
                }
            }
        }
    }
    let mut h = crate::hash::fixed_hasher();
    (5u8, node.len()).hash(&mut h);
    for (k, x) in node {
        key(k, &mut h);
        feed(x, 1, &mut h);
    }
    h.finish()
}

/// How deep `fingerprint` reads: six JSON levels are three levels of nested
/// object schemas (`properties` → name → schema).
const FINGERPRINT_DEPTH: usize = 6;

/// Is this branch an object schema (or a typeless object fragment)?
pub fn is_object_like(v: &Value) -> bool {
    v.as_object().is_some_and(object_like)
}

/// `is_object_like` of an object schema.
pub fn object_like(m: &Map) -> bool {
    let types = types_of(m);
    if !types.is_empty() {
        return types.iter().all(|t| *t == "object" || *t == "null") && types.has("object");
    }
    m.has(kw::PROPERTIES) || m.has(kw::REQUIRED) || m.has(kw::ADDITIONAL_PROPERTIES)
}

/// One object accepting (at least) every branch: properties united (a name in
/// several branches keeps the first branch's schema unless all agree), required
/// narrowed to the names every branch requires. Widening: reported by callers.
/// The branches' subschemas move into it: a union of nested unions (a
/// nullable object per level) copied every level below it at every level.
pub fn unite_objects(branches: Vec<Map>) -> Map {
    let mut props = Map::new();
    let mut required: Option<Vec<Value>> = None;
    let mut closed = true;
    let mut open = false;
    // A branch that requires a property no value can satisfy accepts nothing.
    let satisfiable = |b: &Map| {
        let props = b.field(kw::PROPERTIES).and_then(Value::as_object);
        !b.field(kw::REQUIRED).and_then(Value::as_array).is_some_and(|r| {
            r.iter().filter_map(Value::as_str).any(|n| props.and_then(|p| p.get(n)).is_some_and(super::is_never))
        })
    };
    // The string values of each united enum so far (`unite_values`).
    let mut strings: crate::hash::HashMap<Key, crate::hash::HashSet<String>> = Default::default();
    for mut b in branches.into_iter().filter(|b| satisfiable(b)) {
        if let Some(Value::Object(p)) = b.remove_field(kw::PROPERTIES) {
            for (name, s) in p.into_iter().filter(|(_, s)| !super::is_never(s)) {
                match props.get_mut(&name) {
                    None => {
                        props.insert(name, s);
                    }
                    Some(existing) if *existing == s => {}
                    Some(existing) => unite_values(existing, &s, strings.entry(name).or_default()),
                }
            }
        }
        let r: Vec<Value> = match b.remove_field(kw::REQUIRED) {
            Some(Value::Array(r)) => r,
            _ => Vec::new(),
        };
        required = Some(match required {
            None => r,
            Some(prev) => prev.into_iter().filter(|x| r.contains(x)).collect(),
        });
        closed &= b.field(kw::ADDITIONAL_PROPERTIES) == Some(&Value::Bool(false));
        open |= b.field(kw::ADDITIONAL_PROPERTIES).is_some_and(|a| a != &Value::Bool(false));
    }
    let mut out = Map::new();
    out.insert(kw::TYPE.into(), Value::String("object".into()));
    out.insert(kw::PROPERTIES.into(), Value::Object(props));
    if let Some(r) = required.filter(|r| !r.is_empty()) {
        out.insert(kw::REQUIRED.into(), Value::Array(r));
    }
    if closed {
        out.insert(kw::ADDITIONAL_PROPERTIES.into(), Value::Bool(false));
    } else if open {
        // A branch that takes any key makes the union take any key (written `{}`,
        // the form the dialect upgrade gives `true`).
        out.insert(kw::ADDITIONAL_PROPERTIES.into(), Value::Object(Map::new()));
    }
    out
}

/// Two schemas for one property: equal, or literals (`enum`/`const`) of one
/// type united into one `enum`. This keeps the discriminator of a merged union
/// (OpenClaw's single tool with an `action` enum: seed 004, "enum restoration").
/// `a` takes `b`'s values in place; anything else leaves it as it is. In
/// place, and a string found new by `strings` (the string values `a`'s enum
/// holds, filled on first use): a union of n branches built its
/// discriminator's enum again, copied, for every branch, and compared each
/// value with all before it (quadratic: 0.5 billion instructions for 1,000
/// branches).
fn unite_values(a: &mut Value, b: &Value, strings: &mut crate::hash::HashSet<String>) {
    let (Value::Object(x), Value::Object(y)) = (a, b) else { return };
    let theirs: Vec<&Value> = match (y.field(kw::ENUM), y.field(kw::CONST)) {
        (Some(Value::Array(e)), None) => e.iter().collect(),
        (None, Some(c)) => vec![c],
        _ => return,
    };
    let had_enum = match (x.field(kw::ENUM), x.field(kw::CONST)) {
        (Some(Value::Array(_)), None) => true,
        (None, Some(_)) => false,
        _ => return,
    };
    if x.field(kw::TYPE) != y.field(kw::TYPE) && x.field(kw::TYPE).is_some() && y.field(kw::TYPE).is_some() {
        return;
    }
    // The enum keeps its place among the keys (written back below, after a
    // `type` the node may get); a `const` becomes an enum after them.
    let mut values = match x.field_mut(kw::ENUM) {
        Some(Value::Array(e)) => std::mem::take(e),
        _ => x.remove_field(kw::CONST).into_iter().collect(),
    };
    if strings.is_empty() {
        strings.extend(values.iter().filter_map(Value::as_str).map(str::to_owned));
    }
    for v in theirs {
        let new = match v {
            Value::String(t) => strings.insert(t.clone()),
            _ => !values.contains(v),
        };
        if new {
            values.push(v.clone());
        }
    }
    if x.field(kw::TYPE).is_none() {
        if let Some(t) = y.field(kw::TYPE).cloned().or_else(|| crate::values::common_type(&values).map(|t| Value::String(t.into()))) {
            x.insert(kw::TYPE.into(), t);
        }
    }
    if had_enum {
        if let Some(Value::Array(e)) = x.field_mut(kw::ENUM) {
            *e = values;
        }
    } else {
        x.insert(kw::ENUM.into(), Value::Array(values));
    }
}

/// Folds a collapsed union's result into the node that held the union: the
/// node's own properties, required names and annotations stay; the branch adds
/// what the node lacks (`properties` beside `anyOf` are conjunctive).
pub fn overlay_branch(node: &mut Map, branch: Map) {
    for (k, v) in branch {
        match (k.as_str(), node.field_mut(&k), v) {
            ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => {
                for (name, s) in theirs {
                    mine.entry(name).or_insert(s);
                }
            }
            ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
                for r in theirs {
                    if !mine.contains(&r) {
                        mine.push(r);
                    }
                }
            }
            (_, Some(_), _) => {}
            (_, None, v) => {
                node.insert(k, v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn nest(levels: usize, leaf: &str) -> Map {
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

    #[test]
    fn fingerprint_tells_numbers_apart_as_their_text_does() {
        let of = |text: &str| fingerprint(crate::doc::parse_value(&format!(r#"{{"minimum":{text}}}"#)).unwrap().as_object().unwrap());
        let texts = ["0", "0.0", "-0.0", "1", "1.0", "-1", "-1.0", "18446744073709551615", "-9223372036854775808", "1e300", "0.5"];
        for (i, a) in texts.iter().enumerate() {
            for b in &texts[i + 1..] {
                assert_ne!(of(a), of(b), "{a} and {b}");
            }
            assert_eq!(of(a), of(a));
        }
        // A keyword and a property of another name hash apart; the same names alike.
        let keys = |text: &str| fingerprint(crate::doc::parse_value(text).unwrap().as_object().unwrap());
        assert_ne!(keys(r#"{"type":1}"#), keys(r#"{"typ":1}"#));
        assert_eq!(keys(r#"{"type":1,"x":{"y":2}}"#), keys(r#"{"type":1,"x":{"y":2}}"#));
    }
}
