//! Rule sequences that targets of several families share, and `rules!`, which
//! joins sequences and single rules into one target's list at compile time.
//! A target's list then reads as what it shares and what it adds; what it
//! skips is said beside it. Outputs depend on the order of a list, which
//! `order.rs` holds for every target.
use crate::passes::{combinators, constants, never, pass, types, Pass};

/// Joins rule sequences (each a `&[Pass]`) into one `&'static [Pass]`, in
/// order, at compile time.
macro_rules! rules {
    ($($part:expr),+ $(,)?) => {{
        const PARTS: &[&[$crate::passes::Pass]] = &[$($part),+];
        const LIST: [$crate::passes::Pass; $crate::targets::sequences::total(PARTS)] =
            $crate::targets::sequences::join(PARTS);
        &LIST
    }};
}
pub(crate) use rules;

/// How many rules the sequences hold together.
pub(crate) const fn total(parts: &[&[Pass]]) -> usize {
    let (mut i, mut n) = (0, 0);
    while i < parts.len() {
        n += parts[i].len();
        i += 1;
    }
    n
}

/// The sequences one after the other; `N` is their `total`.
pub(crate) const fn join<const N: usize>(parts: &[&[Pass]]) -> [Pass; N] {
    assert!(!parts.is_empty() && !parts[0].is_empty(), "a list starts with a rule");
    // Every slot is written below; the first rule only fills the array first.
    let mut out = [parts[0][0]; N];
    let (mut i, mut at) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[at] = parts[i][j];
            at += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(at == N, "N is the total of the sequences");
    out
}

/// `const` as a one-value `enum`, `oneOf` as `anyOf`, `allOf` merged into one
/// schema: where a wire lacks `oneOf`/`allOf` (Gemini's Schema proto, xAI,
/// WebMCP), or drops constraints inside them (xgrammar, llama.cpp), these open
/// the list, so every later rule sees plain `anyOf` unions.
pub static PLAIN_COMBINATORS: &[Pass] = &[
    pass("const-to-enum", constants::const_to_enum),
    pass("one-of-to-any-of", combinators::one_of_to_any_of),
    pass("merge-all-of", combinators::merge_all_of),
];

/// For wires that read `anyOf` but neither `oneOf` nor a `type` list
/// (Anthropic's SDK, Moonshot): `oneOf` as `anyOf`, a type list as one branch
/// per type, and a union nested in a union spliced into it.
pub static ANY_OF_UNIONS: &[Pass] = &[
    pass("one-of-to-any-of", combinators::one_of_to_any_of),
    pass("type-arrays", types::type_arrays),
    pass("splice-unions", combinators::splice_unions),
];

/// Nested unions spliced, then the keywords beside an `anyOf` copied into each
/// branch: grammar backends want unions without siblings (llama.cpp#7703), and
/// a `{required: [...]}` branch needs its parent's properties (Groq, F25).
pub static DISTRIBUTED_UNIONS: &[Pass] = &[
    pass("splice-unions", combinators::splice_unions),
    pass("distribute-siblings", combinators::distribute_siblings),
];

/// For wires without `not` (Fireworks, openclaw/openclaw#75476; WebMCP): a
/// never `items` becomes `maxItems`, any other `not` is removed and reported.
pub static WITHOUT_NOT: &[Pass] = &[pass("never-items", never::never_items), pass("drop-not", never::drop_not)];
