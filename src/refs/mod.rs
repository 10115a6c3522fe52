//! `$ref` resolution, inlining, cycle detection and budgets.
//!
//! Resolution covers everything that stays inside the document: `#`, any
//! `#/json/pointer` (into `$defs`, `definitions` or anywhere else), `$anchor`
//! names, and `$id`-qualified URIs of embedded resources. Inlining merges the
//! ref site's siblings over the resolved target (siblings win, as the OpenAI
//! SDK's strictifier does), except that an assertion both write differently is
//! conjoined (`intersect::conjoin`) or, where that is not exact, reported.
//! Recursion is kept as `$ref` + root `$defs` where the target accepts it and
//! cut after `maxRecursion` expansions where it does not. Otherwise this module
//! never rewrites keywords other than `$ref` and its bookkeeping.
pub(crate) mod index;
mod policy;

use crate::lookup::Fields;
use crate::draft::Moves;
use crate::error::{Error, Result};
use crate::keywords::{self, Keyword, Slot};
use crate::pointer::Pointer;
use crate::context::Cx;
use index::Index;
pub use policy::Policy;
use crate::doc::{Key, Map, Value};
use crate::hash::{HashMap, HashSet};
use crate::keywords::kw;

/// Most nested ref expansions on one path (a `$ref` chain recurses in place).
const MAX_REF_CHAIN: usize = 128;

/// Does this schema node hold a `$ref` (or `$dynamicRef`) the expander would follow?
pub(crate) fn follows(node: &Map) -> bool {
    node.field(kw::REF).or_else(|| node.field(kw::DYNAMIC_REF)).is_some_and(Value::is_string)
}

/// Drops the root definitions no reference can reach, before anything reads
/// them; returns how many. Schemas generated from an API description often
/// carry every shared definition in every tool (a Notion MCP tool: 2.3 KB of
/// `$defs`, most tools using a few entries or none), and the upgrade, the
/// never-prune, the ref index and the target's rules walked all of it, only
/// for the output to drop it.
///
/// Only where reachability is plain: one container (`$defs` or
/// `definitions`), every `$ref` a string `#`, `#/$defs/NAME...` or
/// `#/definitions/NAME...` into it (NAME without `~` or `%`), and nothing
/// that could move a reference's base or target (`$id`, a string `id`,
/// anchors, dynamic or recursive refs). Any other shape leaves the document
/// whole, for the index to resolve as before. The scan reads every object
/// key, instance data in `default` or `examples` included: a `$ref` there
/// only keeps more.
pub fn drop_unreachable_definitions(doc: &mut Value) -> usize {
    keep_reached(doc, None)
}

/// A schema's JSON text to its value with `drop_unreachable_definitions`
/// done, without building what it drops: the entries no reference reaches
/// are checked as JSON, never made values. Errors are `doc::parse_value`'s,
/// word for word. The caller bounds the depth.
pub fn parse_reached(text: &str) -> Result<Value> {
    parse_reached_within(text, usize::MAX).map(|read| read.expect("no depth cap"))
}

/// `parse_reached` that gives up, with `None`, at a container nested deeper
/// than `cap`, having built nothing deeper.
pub fn parse_reached_within(text: &str, cap: usize) -> Result<Option<Value>> {
    let Some((mut doc, deferred)) = crate::doc::parse_value_deferring_within(text, cap)? else { return Ok(None) };
    let settled = deferred.containers().enumerate().all(|(k, at)| settle_container(&mut doc, &deferred, text, k, at, true));
    if !settled {
        // A repeated key: the text is read whole, as it always was.
        let mut doc = crate::doc::parse_value(text)?;
        keep_reached(&mut doc, None);
        return Ok(Some(doc));
    }
    Ok(Some(doc))
}

/// The unread definitions of a tool list read by
/// `Doc::parse_capturing_deferring` (at the `slots` `tools::shape` names),
/// settled in `list`, the captured array: at the slot a tool's schema is
/// read from (`slot_of`), only those a reference reaches are read and the
/// others dropped, as the run would drop them; at any other slot, all are
/// read, and so are those of a schema they would take past `max_depth` (whose
/// run refuses it, as it refused the schema read whole). `false` when the
/// list no longer holds a container where the text had it (a repeated key):
/// the caller reads the text again whole.
pub(crate) fn settle_deferred(
    list: &mut Value,
    deferred: &crate::doc::Deferred,
    text: &str,
    max_depth: usize,
    slot_of: &dyn Fn(&Value) -> Option<&'static [&'static str]>,
) -> bool {
    deferred.containers().enumerate().all(|(k, at)| {
        let Some(tool) = list.as_array_mut().and_then(|items| items.get_mut(at.tool)) else { return false };
        // The schema is the item's level (1 below the array) plus its slot's keys.
        let within = at.depth.saturating_sub(1 + at.slot.len()) < max_depth;
        let chosen = within && slot_of(tool).is_some_and(|slot| slot == at.slot);
        let Some(schema) = at.slot.iter().try_fold(tool, |v, key| v.get_mut(*key)) else { return false };
        settle_container(schema, deferred, text, k, at, chosen)
    })
}

/// The `k`th deferred container (`at`), in `schema`: with `drop`, only the
/// entries a reference reaches are read and the others dropped
/// (`keep_reached`), else every entry is read. `false` when `schema` no
/// longer holds it as the text had it (a repeated key).
fn settle_container(schema: &mut Value, deferred: &crate::doc::Deferred, text: &str, k: usize, at: crate::doc::Container, drop: bool) -> bool {
    let container = container_keyword(at.row);
    if !entries(schema, container).is_some_and(|defs| defs.len() == at.entries) {
        return false;
    }
    let mut fill = |i| deferred.take(text, k, i);
    if drop && container_of(schema).is_some_and(|c| c.row == at.row) {
        keep_reached(schema, Some(&mut fill));
    } else if let Some(defs) = entries_mut(schema, container) {
        for (i, entry) in defs.values_mut().enumerate() {
            *entry = fill(i);
        }
    }
    true
}

/// `drop_unreachable_definitions`; with `fill`, the container's entries are
/// placeholders and `fill(i)` reads the `i`th: those reached are read before
/// they are scanned, and every one is when reachability is not plain.
fn keep_reached(doc: &mut Value, mut fill: Option<&mut dyn FnMut(usize) -> Value>) -> usize {
    let Some(container) = container_of(doc) else {
        debug_assert!(fill.is_none(), "deferred entries in a document without one definitions object");
        return 0;
    };
    let n = entries(doc, container).map_or(0, Map::len);
    let mut reached = vec![false; n];
    let mut filled = vec![false; n];
    let mut work = Vec::new();
    let mut plain = scan(doc, container, None, &mut reached, &mut work).is_some();
    while plain {
        let Some(at) = work.pop() else { break };
        if let Some(fill) = fill.as_mut() {
            if let Some(entry) = entries_mut(doc, container).and_then(|defs| defs.get_index_mut(at)) {
                *entry = fill(at);
                filled[at] = true;
            }
        }
        plain = scan(doc, container, Some(at), &mut reached, &mut work).is_some();
    }
    let Some(defs) = entries_mut(doc, container) else { return 0 };
    if !plain {
        if let Some(fill) = fill {
            for (at, done) in filled.iter().enumerate() {
                if let (false, Some(entry)) = (*done, defs.get_index_mut(at)) {
                    *entry = fill(at);
                }
            }
        }
        return 0;
    }
    let dropped = reached.iter().filter(|r| !**r).count();
    if dropped > 0 {
        let mut keep = reached.into_iter();
        defs.retain(|_, _| keep.next().unwrap_or(true));
    }
    dropped
}

/// The root's one definitions object's keyword (`$defs` or `definitions`).
fn container_of(doc: &Value) -> Option<&'static Keyword> {
    let root = doc.as_object()?;
    match (root.field(kw::DEFS), root.field(kw::DEFINITIONS)) {
        (Some(Value::Object(_)), None) => Some(kw::DEFS),
        (None, Some(Value::Object(_))) => Some(kw::DEFINITIONS),
        _ => None,
    }
}

/// The definitions keyword at `row` of the table (a deferring parse names its
/// container by row).
fn container_keyword(row: u8) -> &'static Keyword {
    if row == kw::DEFS.row {
        kw::DEFS
    } else {
        kw::DEFINITIONS
    }
}

fn entries<'v>(doc: &'v Value, container: &Keyword) -> Option<&'v Map> {
    doc.as_object()?.field(container)?.as_object()
}

fn entries_mut<'v>(doc: &'v mut Value, container: &Keyword) -> Option<&'v mut Map> {
    doc.as_object_mut()?.field_mut(container)?.as_object_mut()
}

/// Marks the definitions that `$ref`s in the root (all but the container,
/// `from` = `None`) or in the entry `from` name, queueing each one newly
/// reached. `None` when reachability is not plain there.
fn scan(doc: &Value, container: &Keyword, from: Option<usize>, reached: &mut [bool], work: &mut Vec<usize>) -> Option<()> {
    let root = doc.as_object()?;
    let defs = entries(doc, container)?;
    let prefix = if container.row == kw::DEFS.row { "#/$defs/" } else { "#/definitions/" };
    let moves_base = [kw::ID.row, kw::ANCHOR.row, kw::DYNAMIC_ANCHOR.row, kw::DYNAMIC_REF.row];
    let mut stack: Vec<&Value> = Vec::new();
    let mut members: Vec<(&Key, &Value)> = match from {
        None => root.iter().filter(|(k, _)| !k.is_row(container.row)).collect(),
        Some(at) => {
            stack.push(defs.get_index(at)?.1);
            Vec::new()
        }
    };
    loop {
        for (key, child) in members.drain(..) {
            match key.keyword() {
                Some(k) if k.row == kw::REF.row => {
                    let Value::String(reference) = child else { return None };
                    if reference == "#" || reference.is_empty() {
                        continue;
                    }
                    let name = reference.strip_prefix(prefix)?;
                    let name = name.split_once('/').map_or(name, |(first, _)| first);
                    if name.contains(['~', '%']) {
                        return None;
                    }
                    if let Some(at) = defs.index_of(name).filter(|at| !reached[*at]) {
                        reached[at] = true;
                        work.push(at);
                    }
                }
                Some(k) if moves_base.contains(&k.row) => return None,
                None if matches!(key.as_str(), "$recursiveRef" | "$recursiveAnchor") || (key.as_str() == "id" && child.is_string()) => return None,
                _ => stack.push(child),
            }
        }
        match stack.pop() {
            None => return Some(()),
            Some(Value::Array(items)) => stack.extend(items),
            Some(Value::Object(node)) => members.extend(node.iter()),
            Some(_) => {}
        }
    }
}

/// What `Expander::children` drops from every node it copies, done in place
/// (for a document without refs, which `inline` would copy unchanged otherwise).
pub(crate) fn strip_resolution_keys(value: &mut Value) {
    let Value::Object(node) = value else { return };
    if crate::values::holds_resolution(node) {
        node.retain(|k, _| !keywords::is_resolution(k));
    }
    for (key, child) in node.iter_mut() {
        match (keywords::slot(key), child) {
            (Slot::Schema, child) => strip_resolution_keys(child),
            (Slot::SchemaArray, Value::Array(items)) => items.iter_mut().for_each(strip_resolution_keys),
            (Slot::SchemaMap, Value::Object(entries)) => entries.values_mut().for_each(strip_resolution_keys),
            _ => {}
        }
    }
}

/// Inlines every resolvable `$ref` of `doc` (already upgraded to 2020-12).
pub fn inline(doc: &Value, moves: &Moves, policy: &Policy, cx: &mut Cx) -> Result<Value> {
    let index = Index::build(doc);
    let (cyclic, barren) = index.cycles(doc, moves);
    let cyclic = if policy.recursion { cyclic } else { Default::default() };
    let mut ex = Expander {
        barren,
        root_alias: None,
        cyclic,
        doc,
        index,
        moves,
        policy: *policy,
        regions: vec![(Pointer::root(), Pointer::root())],
        src: Pointer::root(),
        emitted: 0,
        over_budget: false,
        defs: Vec::new(),
        def_names: HashMap::default(),
        overlay_names: HashMap::default(),
        overlays: HashMap::default(),
        taken: HashSet::default(),
    };
    let mut out = ex.node(doc, cx)?;
    // Definitions kept for recursion are expanded once each, with their own
    // pointer as the first region so their self-references stay references.
    let mut i = 0;
    let mut bodies = Map::new();
    while i < ex.defs.len() {
        let (target, name) = ex.defs[i].clone();
        i += 1;
        if doc.at(&target).is_none() {
            continue;
        }
        let source = upgraded_target(doc, &target, cx)?;
        ex.regions = vec![(target.clone(), target.clone())];
        ex.src = target;
        cx.enter("$defs")?;
        cx.enter(name.as_str())?;
        let mut body = ex.node(&source, cx)?;
        if let (Some(site), Value::Object(base)) = (ex.overlays.remove(&name), &mut body) {
            body = overlay(std::mem::take(base), site, cx);
        }
        cx.leave();
        cx.leave();
        bodies.insert(name.into(), body);
    }
    if !bodies.is_empty() {
        if let Value::Object(root) = &mut out {
            root.insert(kw::DEFS.into(), Value::Object(bodies));
        }
    }
    Ok(out)
}

/// What the expander does with a `$ref` (other than the document root's).
#[derive(PartialEq)]
enum Site {
    /// A loop that crosses no property or item (`a` → `b` → `a`, `S = allOf[S]`)
    /// describes no finite shape: kept, it is left recursion for a grammar and
    /// an endless loop for a validator. It is cut.
    Cut,
    /// Targets that express `$ref` keep it (openai-python does the same): the
    /// output stays as small as the input, and a ref bomb stays defused. Only a
    /// ref with siblings is inlined, since `$ref` siblings are rejected; backends
    /// that mishandle nested refs (`inline_refs`) keep only recursion.
    Keep,
    /// Expanded in place (up to the budgets).
    Inline,
}

fn site(
    policy: &Policy,
    node: &Map,
    to: &Pointer,
    cyclic: &HashSet<Pointer>,
    barren: &HashSet<Pointer>,
    root_branch: bool,
) -> Site {
    let has_siblings = node
        .keys()
        .any(|k| k != "$ref" && k != "$dynamicRef" && !keywords::is_resolution(k));
    // A recursive target is kept, except where its siblings would stand beside
    // the `$ref` on a target that refuses that (`lone_refs`): the site is
    // inlined once, and a nested site becomes a reference to an overlay.
    let cyclic_kept = cyclic.contains(to) && !(has_siblings && policy.lone_refs);
    if barren.contains(to) {
        Site::Cut
    } else if policy.recursion && (cyclic_kept || !(has_siblings || root_branch || policy.inline_refs)) {
        Site::Keep
    } else {
        Site::Inline
    }
}

/// Would normalizing `out` (an output of the whole pipeline) again change a
/// `$ref`? The expander decides which refs to keep from the ref graph of its
/// input, before the target's rules run, and those rules can delete the edge
/// that made a definition recursive: llama.cpp keeps no `prefixItems`, so a
/// definition that reached itself only through a tuple is no longer recursive
/// once they are stripped. A second run would then inline what the first kept;
/// the pipeline runs again instead (`lib.rs`), so one call gives the fixed point.
pub fn settled(out: &Value, policy: &Policy) -> bool {
    if !holds_refs(out) {
        return true;
    }
    // The index's walk finds every ref site, each read again by its pointer.
    let index = Index::build(out);
    let moves = Moves::default();
    let (cyclic, barren) = index.cycles(out, &moves);
    let cyclic = if policy.recursion {
        cyclic
    } else {
        Default::default()
    };
    index.sites().iter().all(|(path, r)| {
        // The expander always takes a root `$ref` in (the root is the
        // definition); left by a rule (a merged single-entry `allOf`), it
        // would be inlined by the next run.
        if path.is_empty() {
            return false;
        }
        let (Some(Value::Object(m)), Some((to, _))) = (out.at(path), index.target(r, path, out, &moves)) else {
            return false;
        };
        let root_branch =
            path.len() == 2 && matches!(path.raw_segments(0).next(), Some("anyOf" | "oneOf" | "allOf"));
        site(policy, m, &to, &cyclic, &barren, root_branch) == Site::Keep
    })
}

/// Whether any node of `doc` has a ref the expander would follow (`follows`):
/// a walk that keeps no pointer, cheaper than the index's, and the whole
/// answer for the outputs that inlined every ref.
fn holds_refs(doc: &Value) -> bool {
    let mut any = false;
    crate::walk::nodes(doc, &mut |node| {
        any |= node.as_object().is_some_and(follows);
    });
    any
}

/// The `$ref` targets of `doc` (an output, refs kept) that are reached from
/// inside a `oneOf` branch or a `not`, directly or through another such
/// target. A rule that narrows a node inside one of them narrows every
/// branch that refers to it: inside `oneOf` or `not`, accepting less can make
/// the whole accept more, so `Cx::under_exclusion` counts these as excluded
/// too (the definition's own pointer, `/$defs/B/...`, is under neither).
pub(crate) fn excluded_targets(doc: &Value) -> Vec<String> {
    if !holds_refs(doc) {
        return Vec::new();
    }
    // The index's walk finds the ref sites.
    let index = Index::build(doc);
    let moves = Moves::default();
    // (site, target), both rendered; and the targets of the sites under an exclusion.
    let mut edges: Vec<(String, String)> = Vec::with_capacity(index.sites().len());
    let mut frontier: Vec<String> = Vec::new();
    for (at, r) in index.sites() {
        if let Some((to, _)) = index.target(r, at, doc, &moves) {
            if crate::walk::under_exclusion(at.raw_segments(0)) {
                frontier.push(to.to_string());
            }
            edges.push((at.to_string(), to.to_string()));
        }
    }
    // Breadth first from those; a target, once excluded, excludes the targets
    // of every site inside it. Sorted, the sites inside a target are one run:
    // its own pointer, then those that continue it with `/` (which sorts right
    // before `0`), so each target taken costs a binary search and its run.
    crate::sort::sort(&mut edges);
    let mut excluded: HashSet<String> = HashSet::default();
    frontier.retain(|t| excluded.insert(t.clone()));
    while let Some(t) = frontier.pop() {
        let after = format!("{t}0");
        let start = edges.partition_point(|(at, _)| at.as_str() < t.as_str());
        let end = edges.partition_point(|(at, _)| at.as_str() < after.as_str());
        for (at, to) in &edges[start..end] {
            if crate::pointer::within(at, &t) && excluded.insert(to.clone()) {
                frontier.push(to.clone());
            }
        }
    }
    excluded.into_iter().collect()
}

struct Expander<'d> {
    /// The definition the document root is a `$ref` to: it is expanded in place
    /// and its self-references become `#`.
    root_alias: Option<Pointer>,
    /// Targets on a ref cycle: kept as references where the target allows it, so
    /// the output is as small as the input and normalizing it again is stable.
    cyclic: HashSet<Pointer>,
    /// Targets on a cycle that crosses no property or item.
    barren: HashSet<Pointer>,
    doc: &'d Value,
    index: Index,
    moves: &'d Moves,
    /// What the target allows of refs.
    policy: Policy,
    /// Jump targets being expanded, each with the source pointer where it was left.
    regions: Vec<(Pointer, Pointer)>,
    /// The source pointer of the node being expanded.
    src: Pointer,
    /// Nodes produced inside ref expansions so far (the budget counts these).
    emitted: usize,
    over_budget: bool,
    /// Definitions kept as `$ref` targets: source pointer → `$defs` name.
    defs: Vec<(Pointer, String)>,
    def_names: HashMap<Pointer, String>,
    /// `lone_refs`: a kept ref's siblings merged into a definition of their
    /// own, keyed by the target and the siblings' JSON text; the siblings are
    /// laid over the body once it is expanded (`overlays`, by `$defs` name).
    overlay_names: HashMap<(Pointer, String), String>,
    overlays: HashMap<String, Map>,
    /// Every name of `def_names` and `overlay_names`: what `fresh_name` must
    /// avoid, looked up rather than searched for (a search made a schema of
    /// many kept definitions quadratic).
    taken: HashSet<String>,
}

impl<'d> Expander<'d> {
    fn node(&mut self, value: &Value, cx: &mut Cx) -> Result<Value> {
        if self.regions.len() > 1 {
            self.emitted += 1;
        }
        let Value::Object(node) = value else { return Ok(value.clone()) };
        let reference = node.field(kw::REF).or_else(|| node.field(kw::DYNAMIC_REF)).and_then(Value::as_str);
        match reference {
            Some(r) => self.reference(node, r, cx),
            None => self.children(node, &[], cx),
        }
    }

    /// Copies a node, expanding its subschemas, minus resolution-only keywords
    /// and `skip`.
    fn children(&mut self, node: &Map, skip: &[&str], cx: &mut Cx) -> Result<Value> {
        let mut out = Map::with_capacity(node.len());
        for (key, value) in node {
            if keywords::is_resolution(key) || skip.contains(&key.as_str()) {
                continue;
            }
            let copied = match (keywords::slot(key), value) {
                (Slot::Schema, _) => self.child(key, value, cx)?,
                (Slot::SchemaArray, Value::Array(items)) => {
                    cx.enter_keyword(key)?;
                    self.src.push_keyword(key);
                    let mut list = Vec::with_capacity(items.len());
                    for (i, item) in items.iter().enumerate() {
                        list.push(self.child(&i.to_string(), item, cx)?);
                    }
                    self.src.pop();
                    cx.leave();
                    Value::Array(list)
                }
                (Slot::SchemaMap, Value::Object(entries)) => {
                    cx.enter_keyword(key)?;
                    self.src.push_keyword(key);
                    let mut map = Map::with_capacity(entries.len());
                    for (name, entry) in entries {
                        map.insert(name.clone(), self.child(name, entry, cx)?);
                    }
                    self.src.pop();
                    cx.leave();
                    Value::Object(map)
                }
                _ => value.clone(),
            };
            out.insert(key.clone(), copied);
        }
        Ok(Value::Object(out))
    }

    fn child(&mut self, seg: &str, value: &Value, cx: &mut Cx) -> Result<Value> {
        cx.enter(seg)?;
        self.src.push(seg);
        let out = self.node(value, cx);
        self.src.pop();
        cx.leave();
        out
    }

    fn reference(&mut self, node: &Map, reference: &str, cx: &mut Cx) -> Result<Value> {
        let target = self.index.target(reference, &self.src, self.doc, self.moves).map(|(t, repaired)| {
            if repaired {
                cx.count("refsRepaired");
                cx.report.note(
                    "ref-repaired",
                    &cx.path.to_pointer(),
                    format!("$ref {reference:?} does not resolve as written; it was read as \"#{t}\""),
                );
            }
            t
        });
        let Some(target) = target else {
            if cx.opts.strict_unresolved_refs {
                return Err(Error::UnresolvedRef { pointer: cx.path.to_pointer(), reference: reference.to_string() });
            }
            cx.count("refsUnresolved");
            cx.lossy_with("unresolved-ref", || format!("$ref {reference:?} does not resolve inside the document; it was replaced by {{}}"));
            return self.siblings(node, Map::new(), cx);
        };
        let at_root = cx.path.is_empty() && self.regions.len() == 1;
        // Branches of a root union are merged into the root object later
        // (`shapes::root_object`), so they must be there to merge.
        let root_branch = self.regions.len() == 1
            && cx.path.len() == 2
            && matches!(cx.path.raw_segments(0).next().as_deref(), Some("anyOf" | "oneOf" | "allOf"));
        if at_root {
            // The root is the definition itself; its self-references become `#`.
            if self.cyclic.contains(&target) && self.policy.root_refs {
                self.root_alias = Some(target.clone());
            }
        } else {
            match site(
                &self.policy,
                node,
                &target,
                &self.cyclic,
                &self.barren,
                root_branch,
            ) {
                Site::Cut => {
                    cx.count("cyclesCut");
                    cx.lossy(
                        "recursion-cut",
                        format!("$ref {reference:?} loops back without crossing a property or item; it was cut"),
                    );
                    return self.placeholder(node, &target, "recursive", cx);
                }
                Site::Keep => {
                    if self.cyclic.contains(&target) {
                        cx.count("cyclesPreserved");
                    } else {
                        cx.count("refsKept");
                    }
                    return self.keep(node, target, cx);
                }
                Site::Inline => {}
            }
        }
        let expansions = self.expansions(&target);
        if expansions >= cx.opts.max_recursion.max(1) || (expansions > 0 && self.policy.recursion) {
            return self.cycle(node, reference, target, cx);
        }
        let budget = self.policy.size_budget;
        if self.emitted > budget {
            // Targets that keep refs never get here for sibling-free refs; targets
            // that inline (or cannot express refs) coarsen the deepest inline, as
            // seed 001 does, so a second run finds nothing left to expand.
            let keep = self.policy.recursion && !self.policy.inline_refs;
            if !self.over_budget {
                self.over_budget = true;
                if !keep {
                    cx.lossy(
                        "ref-budget-exceeded",
                        format!("inlining $refs produced more than {budget} nodes (sizeBudget); further refs are cut"),
                    );
                }
            }
            if keep {
                return self.keep(node, target, cx);
            }
            cx.count("sizeCoarsenings");
            return self.placeholder(node, &target, "size budget", cx);
        }
        let depth_cap = self.policy.max_inline_depth;
        if self.regions.len() > depth_cap {
            cx.count("maxInlineDepthReached");
            cx.lossy(
                "inline-depth-reached",
                format!("$refs nest more than {depth_cap} expansions deep (maxInlineDepth); this one was coarsened"),
            );
            return self.placeholder(node, &target, "deep", cx);
        }
        if self.regions.len() > MAX_REF_CHAIN {
            // A chain of refs to refs recurses without descending into the tree;
            // past this many jumps it is cut like a cycle.
            cx.count("sizeCoarsenings");
            cx.lossy_with("ref-chain-cut", || format!("more than {MAX_REF_CHAIN} nested $ref expansions; the chain was cut here"));
            return self.placeholder(node, &target, "deep", cx);
        }
        cx.count("refsInlined");
        let saved = std::mem::replace(&mut self.src, target.clone());
        self.regions.push((target.clone(), Pointer::root()));
        let resolved = upgraded_target(self.doc, &target, cx)?;
        let expanded = self.node(&resolved, cx);
        self.regions.pop();
        self.src = saved;
        let Value::Object(base) = expanded? else { unreachable!("targets are objects") };
        self.conjoin_siblings(node, base, cx)
    }

    /// How many times `target` is being expanded on the current path.
    fn expansions(&mut self, target: &Pointer) -> usize {
        let last = self.regions.len() - 1;
        self.regions[last].1 = self.src.clone();
        self.regions.iter().filter(|(start, end)| target.starts_with(start) && end.starts_with(target)).count()
    }

    fn cycle(&mut self, node: &Map, reference: &str, target: Pointer, cx: &mut Cx) -> Result<Value> {
        if self.policy.recursion {
            cx.count("cyclesPreserved");
            return self.keep(node, target, cx);
        }
        cx.count("cyclesCut");
        cx.lossy(
            "recursion-cut",
            format!("recursive $ref {reference:?} was expanded {} time(s), then cut", cx.opts.max_recursion.max(1)),
        );
        self.placeholder(node, &target, "recursive", cx)
    }

    /// Keeps `$ref` to a root `$defs` entry (or `#` for the root itself).
    fn keep(&mut self, node: &Map, target: Pointer, cx: &mut Cx) -> Result<Value> {
        if self.policy.lone_refs && node.keys().any(|k| k != "$ref" && k != "$dynamicRef") {
            let Value::Object(site) = self.siblings(node, Map::new(), cx)? else { unreachable!("siblings builds an object") };
            if !site.is_empty() {
                let name = self.overlay_name(&target, site);
                cx.count("refOverlays");
                let reference = format!("#/$defs/{}", crate::pointer::escape(&name));
                return Ok(Value::Object(Map::from_iter([("$ref".to_string(), Value::String(reference))])));
            }
        }
        let root_refs = self.policy.root_refs;
        let reference = if root_refs && (target.is_empty() || self.root_alias.as_ref() == Some(&target)) {
            "#".to_string()
        } else {
            format!("#/$defs/{}", crate::pointer::escape(&self.def_name(&target)))
        };
        let mut base = Map::new();
        base.insert(kw::REF.into(), Value::String(reference));
        self.siblings(node, base, cx)
    }

    fn def_name(&mut self, target: &Pointer) -> String {
        if let Some(name) = self.def_names.get(target) {
            return name.clone();
        }
        let name = self.fresh_name(target, true);
        self.taken.insert(name.clone());
        self.def_names.insert(target.clone(), name.clone());
        self.defs.push((target.clone(), name.clone()));
        name
    }

    /// The `$defs` entry for `target` with the ref site's (expanded) siblings
    /// `site` laid over it: one entry per distinct target and siblings, so a
    /// sibling-carrying self-reference refers to its own overlay and the
    /// recursion stays finite.
    fn overlay_name(&mut self, target: &Pointer, site: Map) -> String {
        let key = (target.clone(), crate::doc::json_text(&Value::Object(site.clone())));
        if let Some(name) = self.overlay_names.get(&key) {
            return name.clone();
        }
        // Never the bare name: that stays the definition's own.
        let name = self.fresh_name(target, false);
        self.taken.insert(name.clone());
        self.overlay_names.insert(key, name.clone());
        self.overlays.insert(name.clone(), site);
        self.defs.push((target.clone(), name.clone()));
        name
    }

    /// A `$defs` name for `target` no other kept definition or overlay has:
    /// its last segment (when `bare`), then `_2`, `_3`, ...
    fn fresh_name(&self, target: &Pointer, bare: bool) -> String {
        let stem: String = target
            .segments()
            .last()
            .map(|s| s.chars().map(|c| if c.is_ascii_alphanumeric() || "_.-".contains(c) { c } else { '_' }).collect())
            .unwrap_or_default();
        let stem = if target.is_empty() { "root".to_string() } else if stem.is_empty() { "def".to_string() } else { stem };
        let (mut name, mut n) = (stem.clone(), 1);
        while (n == 1 && !bare) || self.taken.contains(&name) {
            n += 1;
            name = format!("{stem}_{n}");
        }
        name
    }

    /// What stands where a ref is cut: the target's type and description, so the
    /// node stays typed for targets that reject typeless schemas.
    fn placeholder(&mut self, node: &Map, target: &Pointer, why: &str, cx: &mut Cx) -> Result<Value> {
        let mut base = Map::new();
        if let Some(Value::Object(def)) = self.doc.at(target) {
            if let Some(t) = def.field(kw::TYPE) {
                base.insert(kw::TYPE.into(), t.clone());
            }
            let name = target.segments().last().cloned().unwrap_or_else(|| "root".into());
            let text = match def.field(kw::DESCRIPTION).and_then(Value::as_str) {
                Some(d) => format!("{d} ({why} {name}, not expanded further)"),
                None => format!("({why} {name}, not expanded further)"),
            };
            base.insert(kw::DESCRIPTION.into(), Value::String(text));
        }
        self.siblings(node, base, cx)
    }

    /// `siblings` for an inlined target. A `$ref` beside assertions is their
    /// conjunction (2020-12): where a sibling assertion differs from the
    /// target's, the two are conjoined when that is exact; otherwise the
    /// siblings win and the overlay is reported, since it accepts what the
    /// target rejects (`{"type": "object", "$ref": <a string>}` accepts objects).
    fn conjoin_siblings(&mut self, node: &Map, base: Map, cx: &mut Cx) -> Result<Value> {
        let Value::Object(site) = self.siblings(node, Map::new(), cx)? else { unreachable!("siblings builds an object") };
        Ok(overlay(base, site, cx))
    }

    /// Overlays the ref site's other keywords on `base` (siblings win); they are
    /// expanded in the ref site's own context.
    fn siblings(&mut self, node: &Map, mut base: Map, cx: &mut Cx) -> Result<Value> {
        let Value::Object(expanded) = self.children(node, &["$ref", "$dynamicRef"], cx)? else {
            unreachable!("children builds an object")
        };
        for (k, v) in expanded {
            base.insert(k, v);
        }
        Ok(Value::Object(base))
    }
}

/// `site` (a ref site's expanded siblings) over `base` (the expanded target):
/// assertions both write differently are conjoined when that is exact;
/// otherwise the siblings win and the overlay is reported.
fn overlay(base: Map, site: Map, cx: &mut Cx) -> Value {
    let conflicts: Vec<&Key> =
        site.iter().filter(|(k, v)| !keywords::is_annotation(k) && base.get(*k).is_some_and(|b| b != *v)).map(|(k, _)| k).collect();
    if !conflicts.is_empty() {
        if let Some(mut both) = crate::intersect::conjoin(&base, &site) {
            for (k, v) in site.iter().filter(|(k, _)| keywords::is_annotation(k)) {
                both.insert(k.clone(), v.clone());
            }
            return Value::Object(both);
        }
        let names: Vec<&str> = conflicts.iter().map(|k| k.as_str()).collect();
        cx.lossy(
            "all-of-overlaid",
            format!("the $ref target and the keywords beside it conflict ({}); the keywords beside it win", names.join(", ")),
        );
    }
    let mut out = base;
    for (k, v) in site {
        out.insert(k, v);
    }
    Value::Object(out)
}

/// The schema at `target`. One in a place no keyword walks (an unknown key) was
/// never upgraded with the rest of the document; a copy of it is, now.
fn upgraded_target<'d>(doc: &'d Value, target: &Pointer, cx: &mut Cx) -> Result<std::borrow::Cow<'d, Value>> {
    let found = doc.at(target).expect("resolved before");
    if schema_position(target) {
        return Ok(std::borrow::Cow::Borrowed(found));
    }
    let mut copy = found.clone();
    crate::draft::upgrade(&mut copy, cx)?;
    Ok(std::borrow::Cow::Owned(copy))
}

/// Is `p` a place the keyword table makes a schema (so the draft upgrade saw it)?
fn schema_position(p: &Pointer) -> bool {
    #[derive(PartialEq)]
    enum At {
        Schema,
        Members,
        Data,
    }
    let mut at = At::Schema;
    for seg in p.segments() {
        at = match at {
            At::Schema => match keywords::slot(&seg) {
                Slot::Schema => At::Schema,
                Slot::SchemaArray | Slot::SchemaMap => At::Members,
                Slot::Data => At::Data,
            },
            At::Members => At::Schema,
            At::Data => return false,
        };
    }
    at == At::Schema
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn kept(mut doc: Value) -> (usize, Vec<String>) {
        let dropped = drop_unreachable_definitions(&mut doc);
        let root = doc.as_object().unwrap();
        let defs = root.field(kw::DEFS).or_else(|| root.field(kw::DEFINITIONS)).and_then(Value::as_object);
        (dropped, defs.map(|d| d.keys().map(|k| k.as_str().to_string()).collect()).unwrap_or_default())
    }

    #[test]
    fn definitions_no_reference_reaches_are_dropped_in_order() {
        let doc = json!({
            "$ref": "#/$defs/a",
            "properties": {"x": {"items": {"$ref": "#/definitions/ignored-prefix"}}},
            "$defs": {"z": {"$ref": "#/$defs/y"}, "a": {"$ref": "#/$defs/b/properties/c"}, "y": {}, "b": {"properties": {"c": {}}}, "c": {"$ref": "#"}}
        });
        // `#/definitions/...` names no entry of `$defs`: the scan gives up, keeping all.
        assert_eq!(kept(doc.clone()).0, 0);
        let mut doc = doc;
        doc["properties"]["x"]["items"]["$ref"] = json!("#");
        assert_eq!(kept(doc), (3, vec!["a".to_string(), "b".to_string()]));
        let draft7 = json!({"properties": {"p": {"$ref": "#/definitions/used"}}, "definitions": {"unused": {}, "used": {"$ref": "#/definitions/also"}, "also": {}}});
        assert_eq!(kept(draft7), (1, vec!["used".to_string(), "also".to_string()]));
        // A `$ref` in instance data keeps what it names: the scan reads every key.
        let data = json!({"default": {"$ref": "#/$defs/d"}, "$defs": {"d": {}, "e": {}}});
        assert_eq!(kept(data), (1, vec!["d".to_string()]));
    }

    #[test]
    fn anything_that_could_move_a_reference_keeps_every_definition() {
        for (key, value) in [
            ("$id", json!("https://example.com/s")),
            ("id", json!("https://example.com/s")),
            ("$anchor", json!("here")),
            ("$dynamicAnchor", json!("here")),
            ("$dynamicRef", json!("#here")),
            ("$recursiveRef", json!("#")),
            ("$recursiveAnchor", json!(true)),
            ("$ref", json!("#/properties/q")),
            ("$ref", json!("#/$defs/a~1b")),
            ("$ref", json!("#/$defs/a%20b")),
            ("$ref", json!("other.json#/$defs/u")),
            ("$ref", json!(5)),
        ] {
            let mut node = Map::new();
            node.insert(key.into(), value);
            let doc = json!({"properties": {"q": Value::Object(node)}, "$defs": {"u": {}, "v": {}}});
            assert_eq!(kept(doc), (0, vec!["u".to_string(), "v".to_string()]), "{key}");
        }
        // Both containers, or one that is not an object: left whole.
        assert_eq!(kept(json!({"$defs": {"u": {}}, "definitions": {"v": {}}})).0, 0);
        assert_eq!(kept(json!({"$defs": [{}]})).0, 0);
        // A property named `id` (a schema, not a string) moves nothing.
        assert_eq!(kept(json!({"properties": {"id": {"type": "string"}}, "$defs": {"u": {}}})), (1, vec![]));
    }
}
