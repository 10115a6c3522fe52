//! What one call carries through its walks (`Cx`): the target's profile and
//! rules, the options, the report, the pointer with its depth guard, and the
//! state rules share; and the walk that applies a target's rules
//! (`post_order`), children before parents.
use crate::error::{Error, Result};
use crate::json::{stack_left, STACK_RESERVE};
use crate::keywords::{self, kw, Slot};
use crate::options::{OpenMaps, Options, StrictStage};
use crate::path::Path;
use crate::pointer::Pointer;
use crate::profile::Profile;
use crate::report::Report;
use crate::doc::{Map, Value};
use hashbrown::HashTable;
use std::hash::BuildHasher;

/// Which part of a pipeline a rule belongs to (only OpenAI strict has two).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Sanitize,
    Enforce,
}

/// A rule applied to one schema node (the rules are in `passes/`; a target's
/// ordered list of them travels in `Cx::rules`).
#[derive(Clone, Copy)]
pub struct Pass {
    pub name: &'static str,
    pub stage: Stage,
    pub run: fn(&mut Map, &mut Cx) -> Result<()>,
    /// The keywords the rule acts on, as `doc::Map`'s keyword bits: a node
    /// holding none of them is left as it is, so `passes::apply` does not
    /// call the rule there. 0: the rule may act on any node.
    pub needs: u32,
}

/// Per-call state shared by every pass: what the target expresses, its rules,
/// options, report, and where we are.
pub struct Cx<'t> {
    pub target: Profile<'t>,
    /// The target's rules in order (`passes::apply` runs them on each node).
    pub rules: &'t [Pass],
    pub opts: &'t Options,
    pub report: Report,
    pub path: Path,
    /// The nodes whose "may be null" was dropped (the parent object makes
    /// them optional instead), by their pointer's id in `places`.
    pub null_dropped: crate::hash::HashSet<u32>,
    /// Ids for the pointers `null_dropped` names, and the id of the current one.
    places: Places,
    /// For each segment of `path`, a number no other push of this call has:
    /// which of `places`' ids still describe the path (`Cx::place`). Kept
    /// only when a rule reads `null_dropped` (`OPTIONAL_NULLABLES`): on the
    /// other calls nothing is marked, and a step of a walk pays one test.
    pushes: Vec<u64>,
    next_push: u64,
    marks_nulls: bool,
    /// Fingerprints of the objects the target closed (`additionalProperties:
    /// false` added by its rules, not written in the input), so that merging
    /// them reads them as written (`passes::merge::as_written`). By content, not
    /// pointer: rules move subschemas (spliced unions, nullable wrappers).
    pub closed: crate::hash::HashSet<u64>,
    /// `$ref` targets reached from inside a `oneOf` branch or a `not`
    /// (`refs::excluded_targets`): narrowing inside them can widen the whole.
    pub excluded: Vec<String>,
    /// A subschema a rule built at the current pointer (a type array's
    /// branch, a distributed union branch) is being normalized: its pointer
    /// is its parent's, but it is not that node (`Cx::at_root`).
    pub in_branch: bool,
    /// Nodes that copying a union's sibling keywords into its branches has
    /// added so far (`passes::lone_any_of::distribution_cost`): at most
    /// `sizeBudget`, so nested unions cannot double the output per level.
    pub distributed: usize,
    /// Whether this call writes open maps as entries (`writes_entries`),
    /// asked of nearly every node: decided once, from the rules and options.
    pub encodes_maps: bool,
    /// The keywords among the table's first 32 (those with a bit in
    /// `doc::Map`) that this call keeps whatever their value: a node whose
    /// keys are all among them loses none to `strip-unsupported`. Decided
    /// once, from the target and the options (`plainly_kept`).
    pub plainly_kept: u32,
    /// How many lossy diagnostics each (code, message) has had.
    repeats: crate::hash::HashMap<(&'static str, String), usize>,
}

/// A number for each pointer a call asked about, by its escaped segments:
/// the root is `ROOT`, and a pointer's child by a segment is found from the
/// pointer's own number (`Cx::place`).
#[derive(Default)]
struct Places {
    children: HashTable<(u32, Box<str>, u32)>,
    hasher: crate::hash::State,
    /// The numbers of the current path's first segments, each with its push
    /// (`Cx::pushes`): valid while that push is still in the path.
    known: Vec<(u64, u32)>,
}

impl Places {
    const ROOT: u32 = 0;

    fn find(&self, parent: u32, seg: &str) -> Option<u32> {
        self.children.find(self.hasher.hash_one((parent, seg)), |(p, s, _)| *p == parent && **s == *seg).map(|e| e.2)
    }

    fn child(&mut self, parent: u32, seg: &str) -> u32 {
        if let Some(id) = self.find(parent, seg) {
            return id;
        }
        let id = self.children.len() as u32 + 1;
        let hasher = &self.hasher;
        self.children.insert_unique(hasher.hash_one((parent, seg)), (parent, seg.into(), id), |(p, s, _)| hasher.hash_one((*p, &**s)));
        id
    }
}

/// The rule that reads `Cx::null_dropped` (`passes::shapes::optional_nullables`).
pub const OPTIONAL_NULLABLES: &str = "optional-nullables";

/// The names of the rules that write open maps and free-form values in an
/// encoding (`passes::open_maps`), which a call looks for in its rules.
pub const MAPS_RULE: &str = "maps-as-entries";
pub const ANY_RULE: &str = "any-as-json";

/// Whether a call with `rules` and `opts` writes open maps as entries: only a
/// target whose list has the rule, with `openMaps: "entries"`, and not in a
/// stage the call skips. Asked once, by `Cx::new`.
fn writes_entries(rules: &[Pass], opts: &Options) -> bool {
    opts.open_maps == OpenMaps::Entries
        && rules.iter().any(|p| p.name == MAPS_RULE && (p.stage == Stage::Sanitize || opts.strict_stage == StrictStage::Full))
}

/// `Cx::plainly_kept` for a call with `caps` and `opts`: the keywords with a
/// bit that `Cx::keeps` keeps and whose value no check can strip
/// (`Caps::refuses_value`, the format list); none when the options strip
/// keywords of their own. Bit operations on the target's sets: a small
/// schema's whole call is a few thousand wasm operators.
pub(crate) fn plainly_kept(caps: &crate::profile::Caps, opts: &Options) -> u32 {
    if !opts.strip_keywords.is_empty() {
        return 0;
    }
    let mut kept = caps.kept_with_any_value();
    if opts.google_constraints == crate::options::GoogleConstraints::Spill {
        for k in caps.optional_constraints.iter().filter_map(|name| keywords::lookup(name)) {
            kept &= !(1 << k.row);
        }
    }
    // A format the target's list lacks is stripped too (`Caps::takes_format`).
    if caps.formats.is_some() {
        kept &= !(1 << kw::FORMAT.row);
    }
    kept as u32
}

/// Most lossy diagnostics kept with one code and message.
pub const MAX_REPEATS: usize = 64;

impl<'t> Cx<'t> {
    pub fn new(target: Profile<'t>, rules: &'t [Pass], opts: &'t Options) -> Self {
        Cx {
            plainly_kept: plainly_kept(target.caps, opts),
            target,
            rules,
            opts,
            report: Report::default(),
            path: Path::root(),
            null_dropped: Default::default(),
            places: Places::default(),
            pushes: Vec::new(),
            next_push: 0,
            marks_nulls: rules.iter().any(|p| p.name == OPTIONAL_NULLABLES),
            closed: Default::default(),
            excluded: Vec::new(),
            in_branch: false,
            distributed: 0,
            encodes_maps: writes_entries(rules, opts),
            repeats: Default::default(),
        }
    }

    /// Whether this call's output keeps `key`: the target keeps it, and no
    /// option strips it (`googleConstraints: "spill"`, seed 003 §2.1).
    pub fn keeps<N: keywords::Name + AsRef<str> + ?Sized>(&self, key: &N) -> bool {
        let caps = &self.target.caps;
        caps.keeps(key)
            && !(self.opts.google_constraints == crate::options::GoogleConstraints::Spill
                && caps.optional_constraints.contains(&key.as_ref()))
    }

    /// Steps into a child; fails with `too-deep` past `maxDepth` JSON levels.
    pub fn enter(&mut self, seg: impl AsRef<str>) -> Result<()> {
        self.path.push(seg.as_ref());
        self.pushed();
        self.check_depth()
    }

    /// `enter` for a key that names a keyword of the table (a slot's key).
    pub fn enter_keyword(&mut self, key: &crate::doc::Key) -> Result<()> {
        match keywords::Name::keyword(key) {
            Some(k) => self.path.push_word(k.name),
            None => self.path.push(key.as_str()),
        }
        self.pushed();
        self.check_depth()
    }

    /// `enter` for a keyword's static name, as the walk steps into its slot.
    #[inline]
    pub(crate) fn enter_word(&mut self, word: &'static str) -> Result<()> {
        self.path.push_word(word);
        self.pushed();
        self.check_depth()
    }

    /// `enter` for a member of a schema map, by the name the walk borrows.
    /// On an error (too deep) the step is taken back before returning.
    ///
    /// # Safety
    /// `Path::push_member`'s: `name` stays in place until the matching
    /// `leave`, which must come before the walk moves to another member or
    /// returns, an error included.
    #[inline]
    pub(crate) unsafe fn enter_member(&mut self, name: &str) -> Result<()> {
        self.path.push_member(name);
        self.pushed();
        let checked = self.check_depth();
        if checked.is_err() {
            self.leave();
        }
        checked
    }

    /// `enter` for an array index.
    pub fn enter_index(&mut self, i: usize) -> Result<()> {
        self.path.push_index(i);
        self.pushed();
        self.check_depth()
    }

    #[inline]
    fn pushed(&mut self) {
        if self.marks_nulls {
            self.pushes.push(self.next_push);
            self.next_push += 1;
        }
    }

    /// Runs `f` with the path set to `at` (a node's pointer elsewhere in the
    /// document), then puts the current one back.
    pub fn at_path<R>(&mut self, at: Pointer, f: impl FnOnce(&mut Self) -> R) -> R {
        let n = if self.marks_nulls { at.len() as u64 } else { 0 };
        let fresh: Vec<u64> = (0..n).map(|i| self.next_push + i).collect();
        self.next_push += n;
        let path = std::mem::replace(&mut self.path, Path::at(at));
        let pushes = std::mem::replace(&mut self.pushes, fresh);
        let out = f(self);
        self.path = path;
        self.pushes = pushes;
        out
    }

    /// The current pointer's id in `places`: the same for the same pointer
    /// all call long. Work for the segments pushed since the last time it was
    /// asked, not for the whole depth, as a pointer's text would take
    /// (copying and hashing it was quadratic in the depth of nested nullable
    /// objects).
    fn place(&mut self) -> u32 {
        debug_assert_eq!(self.path.len(), self.pushes.len(), "a path segment pushed outside Cx::enter");
        let known = &mut self.places.known;
        // A segment still there since its id was taken (the same push) has
        // every segment before it still there too.
        let mut k = known.len().min(self.pushes.len());
        while k > 0 && known[k - 1].0 != self.pushes[k - 1] {
            k -= 1;
        }
        known.truncate(k);
        let mut id = k.checked_sub(1).map_or(Places::ROOT, |i| known[i].1);
        for (i, seg) in self.path.raw_segments(k).enumerate() {
            id = self.places.child(id, &seg);
            self.places.known.push((self.pushes[k + i], id));
        }
        id
    }

    /// Records that the current node lost its "may be null" (`null_dropped`),
    /// when a rule of the call reads it.
    pub fn mark_null_dropped(&mut self) {
        if !self.marks_nulls {
            return;
        }
        let id = self.place();
        self.null_dropped.insert(id);
    }

    /// Whether the property `name` of the current node lost its "may be null"
    /// (`mark_null_dropped` at `<here>/properties/<name>`).
    pub fn null_dropped_below(&mut self, name: &str) -> bool {
        if !self.marks_nulls {
            return false;
        }
        let here = self.place();
        let Some(properties) = self.places.find(here, "properties") else { return false };
        self.places.find(properties, &crate::pointer::escape(name)).is_some_and(|id| self.null_dropped.contains(&id))
    }

    /// Every step of every walk asks: the test is inlined, the errors are not.
    #[inline]
    fn check_depth(&self) -> Result<()> {
        if self.path.len() > self.opts.max_depth || stack_left() < STACK_RESERVE {
            return self.too_deep();
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&self) -> Result<()> {
        if self.path.len() > self.opts.max_depth {
            return Err(Error::TooDeep { pointer: self.path.to_pointer(), limit: self.opts.max_depth });
        }
        Err(Error::StackExhausted { pointer: self.path.to_pointer(), depth: self.path.len() })
    }

    /// Takes back the step of a member visited from a path of `depth`
    /// segments (`enter_member`), with what a visit that failed part way
    /// left above it; a visit that succeeded left its own steps balanced.
    #[inline]
    pub(crate) fn left_member(&mut self, depth: usize, visit: Result<()>) -> Result<()> {
        if visit.is_err() {
            while self.path.len() > depth {
                self.leave();
            }
            return visit;
        }
        debug_assert_eq!(self.path.len(), depth + 1, "a visit left its steps unbalanced");
        self.leave();
        Ok(())
    }

    pub fn leave(&mut self) {
        self.path.pop();
        if self.marks_nulls {
            self.pushes.pop();
        }
    }

    /// A lossy change at the current pointer. Past `MAX_REPEATS` diagnostics
    /// with the same code and message (one rule meeting every inlined copy of a
    /// definition: a ref bomb made 13,000 from 2 KB of input) the rest are only
    /// counted (`diagnosticsElided`), so the report stays bounded like the schema.
    pub fn lossy(&mut self, code: &'static str, message: impl Into<String>) {
        if self.opts.quiet {
            self.report.lossy = true;
            return;
        }
        let message = message.into();
        if self.elided(code, &message) {
            self.report.lossy = true;
            return;
        }
        let path = self.path.to_pointer();
        self.report.lossy(code, &path, message);
    }

    /// `lossy` with the message written only when the report is kept: calls
    /// that drop it (`quiet`, as the functions that return only the schema
    /// ask) skip the formatting, which costs more than many rules' work.
    pub fn lossy_with(&mut self, code: &'static str, message: impl FnOnce() -> String) {
        if self.opts.quiet {
            self.report.lossy = true;
            return;
        }
        self.lossy(code, message());
    }

    /// Is the current node inside a `oneOf` branch or a `not`, by its own
    /// pointer or inside a `$ref` target that one of them refers to?
    pub fn under_exclusion(&self) -> bool {
        crate::walk::under_exclusion(self.path.raw_segments(0))
            || !self.excluded.is_empty() && {
                let here = self.path.to_pointer();
                self.excluded.iter().any(|t| crate::pointer::within(here.as_str(), t))
            }
    }

    /// Is the node the rules see the document's root itself? A branch a rule
    /// built at the root's pointer is not: the rules that reshape the root
    /// (an object root, a wrapped scalar) are for the root alone.
    pub fn at_root(&self) -> bool {
        self.path.is_empty() && !self.in_branch
    }

    pub fn count(&mut self, counter: &'static str) {
        // Nothing reads a quiet call's report: its counters would be thrown
        // away, and each costs a hashed lookup.
        if self.opts.quiet {
            return;
        }
        self.report.count(counter);
    }

    /// A rewrite that loses nothing, at the current pointer; the message is
    /// built only when the report is (not under `quiet`). Bounded as `lossy`
    /// is: every inlined copy of a definition holding a value of any type
    /// is noted (`any-as-json`), and a ref bomb makes thousands.
    pub fn note(&mut self, code: &'static str, message: impl FnOnce() -> String) {
        if self.opts.quiet {
            return;
        }
        let message = message();
        if self.elided(code, &message) {
            return;
        }
        let path = self.path.to_pointer();
        self.report.note(code, &path, message);
    }

    /// Counts one more diagnostic with `code` and `message`; past
    /// `MAX_REPEATS` of them it is only counted (`diagnosticsElided`), and
    /// the answer is true.
    fn elided(&mut self, code: &'static str, message: &str) -> bool {
        let seen = self.repeats.entry((code, message.to_owned())).or_insert(0);
        *seen += 1;
        if *seen > MAX_REPEATS {
            self.count("diagnosticsElided");
            return true;
        }
        false
    }

    /// A JavaScript-only type was mapped to its JSON form (TypeBox `Date` → date-time string).
    pub fn note_js_type(&mut self, t: &str) {
        self.count("jsTypesMapped");
        self.note("js-type-mapped", || format!("type {t:?} was mapped to its JSON form"));
    }
}

pub type Visit<'f, 't> = dyn FnMut(&mut Value, &mut Cx<'t>) -> Result<()> + 'f;

/// Calls `f` on every direct subschema of `node`, with the pointer set.
pub fn for_each_child<'t, F>(node: &mut Map, cx: &mut Cx<'t>, f: &mut F) -> Result<()>
where
    F: FnMut(&mut Value, &mut Cx<'t>) -> Result<()> + ?Sized,
{
    if crate::walk::is_leaf(node) {
        return Ok(());
    }
    for (key, value) in node.iter_mut() {
        // Only the table's keywords have subschema slots.
        let Some(word) = keywords::Name::keyword(key) else { continue };
        match word.slot {
            Slot::Data => {}
            Slot::Schema => {
                cx.enter_word(word.name)?;
                let done = f(value, cx);
                cx.leave();
                done?;
            }
            Slot::SchemaArray => {
                if let Value::Array(items) = value {
                    cx.enter_word(word.name)?;
                    let done = each_item(items, cx, f);
                    cx.leave();
                    done?;
                }
            }
            Slot::SchemaMap => {
                if let Value::Object(entries) = value {
                    cx.enter_word(word.name)?;
                    let done = each_entry(entries, cx, f);
                    cx.leave();
                    done?;
                }
            }
        }
    }
    Ok(())
}

/// Calls `f` on each subschema of an array slot, with its index entered
/// (the slot's keyword is the caller's to enter).
pub(crate) fn each_item<'t, F>(items: &mut [Value], cx: &mut Cx<'t>, f: &mut F) -> Result<()>
where
    F: FnMut(&mut Value, &mut Cx<'t>) -> Result<()> + ?Sized,
{
    for (i, item) in items.iter_mut().enumerate() {
        cx.enter_index(i)?;
        let done = f(item, cx);
        cx.leave();
        done?;
    }
    Ok(())
}

/// Calls `f` on each subschema of a map slot, with its name entered as a
/// step borrowed from `entries` (the slot's keyword is the caller's to
/// enter). The one place a walk borrows member names.
pub(crate) fn each_entry<'t, F>(entries: &mut Map, cx: &mut Cx<'t>, f: &mut F) -> Result<()>
where
    F: FnMut(&mut Value, &mut Cx<'t>) -> Result<()> + ?Sized,
{
    for (name, entry) in entries.iter_mut() {
        let depth = cx.path.len();
        // SAFETY: `name` is a key of `entries`, which `iter_mut` holds
        // borrowed, unchanged, until the loop ends; its step and any a failed
        // visit left above it are taken back (`left_member`) before the next
        // member, so no step outlives the visit of its member.
        unsafe { cx.enter_member(name.as_str())? };
        let done = f(entry, cx);
        cx.left_member(depth, done)?;
    }
    Ok(())
}

/// Visits every schema node, children before parents. Generic over the
/// visit, so a walk's own visit (the rules, the never-prune) is compiled into
/// it rather than called through a pointer at every node.
pub fn post_order<'t, F>(value: &mut Value, cx: &mut Cx<'t>, f: &mut F) -> Result<()>
where
    F: FnMut(&mut Value, &mut Cx<'t>) -> Result<()> + ?Sized,
{
    if let Value::Object(node) = value {
        for_each_child(node, cx, &mut |child, cx| post_order(child, cx, f))?;
    }
    f(value, cx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    /// A walk that fails part way, too deep inside a schema map, leaves the
    /// path where it started, with none of its member names on it, and its
    /// error points where it failed; one that succeeds visits every node
    /// with the pointer a `Pointer` would have.
    #[test]
    fn a_failed_walk_leaves_no_member_step_behind() {
        let caps = crate::profile::BASE;
        let profile = crate::profile::Profile { id: "openai", caps: &caps, on_violation: crate::profile::OnViolation::Report };
        for (limit, deep, at) in [
            // Too deep at a member name, and at a keyword below one, where
            // the failed step stays until the member's visit is taken back.
            (5, json!({"properties": {"a": {"properties": {"b/c": {"properties": {"d": {}}}}}}}), "/properties/a/properties/b~1c/properties/d"),
            (4, json!({"properties": {"a": {"items": {"items": {"items": {}}}}}}), "/properties/a/items/items/items"),
        ] {
            let opts = Options { max_depth: limit, ..Options::default() };
            let mut cx = Cx::new(profile, &[], &opts);
            let mut deep = deep;
            let err = post_order(&mut deep, &mut cx, &mut |_, _| Ok(())).unwrap_err();
            assert_eq!(err.pointer(), at);
            assert!(cx.path.is_empty(), "{} left", cx.path.to_pointer());
        }
        let opts = Options::default();
        let mut cx = Cx::new(profile, &[], &opts);
        let mut seen = Vec::new();
        let mut shallow = json!({"properties": {"a~b": {"items": {}}, "c": {"anyOf": [{}, {}]}}});
        post_order(&mut shallow, &mut cx, &mut |_, cx| {
            seen.push(cx.path.to_pointer().to_string());
            Ok(())
        })
        .unwrap();
        assert!(cx.path.is_empty());
        assert_eq!(seen, ["/properties/a~0b/items", "/properties/a~0b", "/properties/c/anyOf/0", "/properties/c/anyOf/1", "/properties/c", ""]);
    }
}
