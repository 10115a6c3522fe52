//! What `$ref` handling needs to know of a target, and nothing more: the
//! pipeline builds it from the target's capabilities and the call's options
//! (`Target::ref_policy`), so this layer never reads a target.

/// How refs are resolved for one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// `$ref` + `$defs` can stay in the output: recursion is kept as a
    /// reference (otherwise cut after `maxRecursion` expansions), and so is a
    /// sibling-free ref unless `inline_refs`.
    pub recursion: bool,
    /// Inline every non-cyclic `$ref`, even where refs can stay (backends that
    /// mishandle nested refs: llama.cpp#8073, Ollama).
    pub inline_refs: bool,
    /// `"$ref": "#"` (the root) is understood; otherwise root recursion goes
    /// through a `$defs` entry (llama.cpp: "unsupported $ref #").
    pub root_refs: bool,
    /// A kept `$ref` never has sibling keywords; a site with siblings refers
    /// to a `$defs` entry with them merged in (MoonshotAI/kimi-cli#2061).
    pub lone_refs: bool,
    /// Nodes `$ref` inlining may produce (`sizeBudget`).
    pub size_budget: usize,
    /// Nested `$ref` expansions on one path (`maxInlineDepth`).
    pub max_inline_depth: usize,
}
