//! `pattern` and `patternProperties` matching. JSON Schema patterns are
//! ECMA-262 regular expressions; `regex-lite` runs the part of that syntax
//! tool schemas use (classes, quantifiers, groups, anchors) in linear time,
//! in wasm and natively alike. A pattern it cannot compile (lookaround,
//! backreferences, `\p{…}`) checks nothing (`None`), the way a provider that
//! drops it would; the report of the normalization names those patterns.
/// Compiled once per call; a schema holds few distinct patterns, so a list
/// is all the lookup needs.
#[derive(Default)]
pub struct Patterns {
    compiled: Vec<(String, Option<engine::Regex>)>,
}

impl Patterns {
    /// Whether `text` contains a match of `pattern` (patterns are not anchored).
    pub fn is_match(&mut self, pattern: &str, text: &str) -> Option<bool> {
        let at = match self.compiled.iter().position(|(p, _)| p == pattern) {
            Some(at) => at,
            None => {
                self.compiled.push((pattern.to_string(), engine::compile(pattern)));
                self.compiled.len() - 1
            }
        };
        let re = self.compiled[at].1.as_ref()?;
        Some(engine::find(re, text))
    }
}

mod engine {
    pub type Regex = regex_lite::Regex;

    /// Linear-time matching: the schema is untrusted input too, and a
    /// backtracking engine would let a pattern like `(a+)+$` hang the call.
    pub fn compile(pattern: &str) -> Option<Regex> {
        regex_lite::RegexBuilder::new(pattern)
            .size_limit(1 << 20)
            .build()
            .ok()
    }

    pub fn find(re: &Regex, text: &str) -> bool {
        re.is_match(text)
    }
}
