//! Where a call's walk is (`Cx::path`): the steps it took, written out as a
//! JSON pointer only when a report, an error or a rule asks for one.
//!
//! A walk takes two steps for most subschemas (a keyword, then a member name
//! or an index) and names few of the nodes it visits. Writing every step's
//! text as it went (escaping member names, growing the pointer's buffer)
//! cost several times the walk itself: on the real MCP schemas a post-order
//! walk that did nothing at each node took about 0.70 M wasm operators a
//! pass with the pointer kept and 0.15 M without. Here a step is a small
//! value pushed on a vector; its text is made when read.
use crate::pointer::{escape, Pointer};
use std::borrow::Cow;

/// The current pointer, as a pointer set by `Cx::at_path` (or the root)
/// followed by the steps taken since.
#[derive(Default)]
pub struct Path {
    base: Pointer,
    steps: Vec<Step>,
    /// The text of every `Step::Text`, end to end, unescaped.
    texts: String,
}

#[derive(Clone, Copy)]
enum Step {
    /// A keyword of the table: static text, which needs no escaping.
    Word(&'static str),
    Index(usize),
    /// A member name of the document being walked, borrowed for as long as
    /// the walk is inside that member (`Path::push_member`).
    Member(*const u8, usize),
    /// `texts[start..end]`.
    Text(usize, usize),
}

impl Path {
    pub fn root() -> Path {
        Path::default()
    }

    /// The path at `base`, with no steps taken yet.
    pub fn at(base: Pointer) -> Path {
        Path { base, steps: Vec::new(), texts: String::new() }
    }

    /// A keyword step (a slot of the keyword table).
    #[inline]
    pub fn push_word(&mut self, word: &'static str) {
        self.steps.push(Step::Word(word));
    }

    #[inline]
    pub fn push_index(&mut self, i: usize) {
        self.steps.push(Step::Index(i));
    }

    /// A step by any text, copied.
    pub fn push(&mut self, seg: &str) {
        let start = self.texts.len();
        self.texts.push_str(seg);
        self.steps.push(Step::Text(start, self.texts.len()));
    }

    /// A step by a member name the walk borrows from the document, without
    /// copying it.
    ///
    /// # Safety
    /// `name` must stay where it is, unchanged, until this step is popped,
    /// and the step must be popped before `name`'s map is changed or dropped:
    /// the walk pushes the name of the member it is about to visit, visits
    /// it while iterating the map, and pops the step before the next member.
    #[inline]
    pub(crate) unsafe fn push_member(&mut self, name: &str) {
        self.steps.push(Step::Member(name.as_ptr(), name.len()));
    }

    pub fn pop(&mut self) {
        if let Some(Step::Text(start, _)) = self.steps.pop() {
            self.texts.truncate(start);
        }
    }

    /// How many segments the pointer has.
    #[inline]
    pub fn len(&self) -> usize {
        self.base.len() + self.steps.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty() && self.base.is_empty()
    }

    /// The pointer's segments from the `from`-th, each as the pointer writes
    /// it (escaped).
    pub fn raw_segments(&self, from: usize) -> impl Iterator<Item = Cow<'_, str>> + '_ {
        let from_base = self.base.raw_segments(from.min(self.base.len())).map(Cow::Borrowed);
        let from_steps = from.saturating_sub(self.base.len());
        from_base.chain((from_steps..self.steps.len()).map(move |i| self.step_text(i)))
    }

    /// The `i`-th step's segment, escaped.
    fn step_text(&self, i: usize) -> Cow<'_, str> {
        match self.steps[i] {
            Step::Word(word) => Cow::Borrowed(word),
            Step::Index(n) => Cow::Owned(n.to_string()),
            Step::Member(..) | Step::Text(..) => escape(self.step_str(i)),
        }
    }

    /// The unescaped text of a member or text step.
    fn step_str(&self, i: usize) -> &str {
        match self.steps[i] {
            Step::Word(word) => word,
            // SAFETY: `push_member`'s contract: the name is still in place
            // while its step is on the path.
            Step::Member(at, len) => unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(at, len)) },
            Step::Text(start, end) => &self.texts[start..end],
            Step::Index(_) => unreachable!("an index has no text of its own"),
        }
    }

    /// The pointer, written out.
    pub fn to_pointer(&self) -> Pointer {
        let mut p = self.base.clone();
        for (i, step) in self.steps.iter().enumerate() {
            match *step {
                Step::Word(word) => p.push_keyword(word),
                Step::Index(n) => p.push_index(n),
                Step::Member(..) | Step::Text(..) => p.push(self.step_str(i)),
            }
        }
        p
    }

    /// The pointer of a child of the current node by `seg`.
    pub fn child(&self, seg: impl AsRef<str>) -> Pointer {
        let mut p = self.to_pointer();
        p.push(seg);
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of step writes what the same pushes on a `Pointer` write,
    /// and reads back the same segments, at every depth, with a base.
    #[test]
    fn steps_write_what_a_pointer_writes() {
        let names = [String::from("a/b"), String::from("c~d"), String::from("plain"), String::new()];
        for base in [Pointer::root(), Pointer::parse_fragment("/$defs/x~1y").unwrap()] {
            let mut path = Path::at(base.clone());
            let mut want = base.clone();
            assert_eq!(path.to_pointer(), want);
            enum Take {
                Word(&'static str),
                Member(usize),
                Text(&'static str),
                Index(usize),
            }
            use Take::*;
            for take in [Word("properties"), Member(0), Text("items"), Word("anyOf"), Index(12), Text("x/~y"), Member(1), Text(""), Member(3)] {
                match take {
                    Word(w) => (path.push_word(w), want.push_keyword(w)),
                    // SAFETY: `names` outlives `path`.
                    Member(k) => (unsafe { path.push_member(&names[k]) }, want.push(&names[k])),
                    Text(t) => (path.push(t), want.push(t)),
                    Index(i) => (path.push_index(i), want.push_index(i)),
                };
            }
            loop {
                assert_eq!(path.to_pointer(), want, "{want}");
                assert_eq!(path.len(), want.len());
                assert_eq!(path.is_empty(), want.is_empty());
                assert_eq!(path.child("n/m"), want.child("n/m"));
                for from in 0..=want.len() + 1 {
                    let got: Vec<String> = path.raw_segments(from).map(Cow::into_owned).collect();
                    let expected: Vec<String> = want.raw_segments(from.min(want.len())).map(str::to_owned).collect();
                    assert_eq!(got, expected, "{want} from {from}");
                }
                if path.len() == base.len() {
                    break;
                }
                path.pop();
                want.pop();
            }
        }
    }
}
