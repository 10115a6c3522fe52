//! Diagnostics and counters returned with every normalization.
use crate::pointer::Pointer;
use crate::hash::IndexMap;
use serde::Serialize;

/// One change or finding, at a JSON pointer into the *input* schema's shape.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    /// Stable kebab-case code (see README's table).
    pub code: &'static str,
    pub pointer: String,
    pub message: String,
    /// True when the output accepts or describes something other than the input did.
    pub lossy: bool,
}

crate::doc::write_json_struct!(Diagnostic { always code: "code", always pointer: "pointer", always message: "message", always lossy: "lossy" });

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Report {
    pub diagnostics: Vec<Diagnostic>,
    /// How many times each rewrite happened (camelCase names), including non-lossy ones.
    pub counters: IndexMap<&'static str, u64>,
    /// True when any diagnostic is lossy.
    pub lossy: bool,
}

crate::doc::write_json_struct!(Report { always diagnostics: "diagnostics", always counters: "counters", always lossy: "lossy" });

impl Report {
    pub fn lossy(&mut self, code: &'static str, pointer: &Pointer, message: impl Into<String>) {
        self.push(code, pointer, message.into(), true);
    }

    pub fn note(&mut self, code: &'static str, pointer: &Pointer, message: impl Into<String>) {
        self.push(code, pointer, message.into(), false);
    }

    /// Forgets what was reported at `pointer` and below it: a subschema the
    /// target then drops whole takes with it what the rules said inside it
    /// (a pattern "moved into" a description that is never sent). The drop
    /// itself is reported, lossy. The rules run children first, so what they
    /// said under `node` (the dropping node) is the end of the list: it is
    /// read back from the end only as far as that goes, and a schema with a
    /// dropped subschema in each of many nodes costs no scan of the whole list
    /// each (what the upgrade said there, before the rules, stays).
    pub fn forget_below(&mut self, pointer: &Pointer, node: &Pointer) {
        use crate::pointer::within;
        let tail = self.diagnostics.iter().rev().take_while(|d| within(&d.pointer, node.as_str())).count();
        let mut rest = self.diagnostics.split_off(self.diagnostics.len() - tail);
        rest.retain(|d| !within(&d.pointer, pointer.as_str()));
        self.diagnostics.append(&mut rest);
    }

    fn push(&mut self, code: &'static str, pointer: &Pointer, message: String, lossy: bool) {
        self.lossy |= lossy;
        self.diagnostics.push(Diagnostic { code, pointer: pointer.to_string(), message, lossy });
    }

    pub fn count(&mut self, counter: &'static str) {
        *self.counters.entry(counter).or_insert(0) += 1;
    }

    pub fn has(&self, code: &str) -> bool {
        self.diagnostics.iter().any(|d| d.code == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `forget_below` takes the pointer and what is under it, not a sibling
    /// whose name it starts (`/properties/not` is not under `/properties/no`).
    #[test]
    fn forget_below_takes_the_subtree_only() {
        let p = |s: &str| Pointer::parse_fragment(s).unwrap();
        let mut r = Report::default();
        for at in ["/properties/no", "/properties/no/pattern", "/properties/no/items/x", "/properties/not", "/properties"] {
            r.lossy("keyword-spilled", &p(at), "m");
        }
        r.forget_below(&p("/properties/no"), &p(""));
        let left: Vec<&str> = r.diagnostics.iter().map(|d| d.pointer.as_str()).collect();
        assert_eq!(left, ["/properties/not", "/properties"]);
        assert!(r.lossy);
        // Read back from the end only while under the dropping node: what
        // came before its subtree (the upgrade's word on it) stays.
        let mut r = Report::default();
        for at in ["/properties/a/not/x", "/properties/b", "/properties/a/not", "/properties/a/not/y"] {
            r.lossy("keyword-spilled", &p(at), "m");
        }
        r.forget_below(&p("/properties/a/not"), &p("/properties/a"));
        let left: Vec<&str> = r.diagnostics.iter().map(|d| d.pointer.as_str()).collect();
        assert_eq!(left, ["/properties/a/not/x", "/properties/b"]);
    }
}
