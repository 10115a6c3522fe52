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
