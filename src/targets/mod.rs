//! Targets are data: what the wire accepts (`Caps` from `crate::profile`, also
//! read by the checker) and the ordered node rules that get a schema there,
//! written from the shared sequences of `sequences.rs`. One file per provider
//! family; a target states only what differs from its base.
pub mod anthropic;
pub mod compat;
pub mod gemini_openai;
pub mod google;
pub mod grammar;
pub mod mcp;
pub mod openai;
pub mod sequences;
pub mod webmcp;

use crate::options::Options;
use crate::passes::Pass;
use crate::context::Cx;
// The capability types live a layer below the rules; they are named here too,
// as the public API always had them.
pub use crate::profile::{Caps, Ignored, ListCeiling, NameRule, OnViolation, Profile, RequestBudget, TypeArrays, BASE};

pub struct Target {
    pub id: &'static str,
    pub description: &'static str,
    /// The provider documentation or issue the rules follow.
    pub source: &'static str,
    pub caps: Caps,
    pub passes: &'static [Pass],
    pub on_violation: OnViolation,
    /// With `OnViolation::FailOpen`: the non-strict target whose output is sent
    /// instead (`openai` for OpenAI strict, `anthropic` for Anthropic strict).
    pub relaxed: Option<&'static str>,
}

impl Target {
    /// What the rules see of this target.
    pub fn profile(&self) -> Profile<'_> {
        Profile { id: self.id, caps: &self.caps, on_violation: self.on_violation }
    }

    /// The per-call state for running this target's rules.
    pub fn cx<'t>(&'t self, opts: &'t Options) -> Cx<'t> {
        Cx::new(self.profile(), self.passes, opts)
    }

    /// What `$ref` resolution needs of this target, with the call's budgets.
    pub fn ref_policy(&self, opts: &Options) -> crate::refs::Policy {
        let caps = &self.caps;
        crate::refs::Policy {
            recursion: caps.recursion,
            inline_refs: caps.inline_refs,
            root_refs: caps.root_refs,
            lone_refs: caps.lone_refs,
            size_budget: opts.size_budget(caps),
            max_inline_depth: opts.max_inline_depth(caps),
        }
    }
}

pub static TARGETS: &[&Target] = &[
    &openai::OPENAI,
    &openai::OPENAI_STRICT,
    &openai::OPENAI_RESPONSES,
    &google::GOOGLE,
    &google::CCA,
    &mcp::MCP,
    &grammar::LLAMACPP,
    &grammar::XGRAMMAR,
    &grammar::LLGUIDANCE,
    &grammar::OLLAMA,
    &anthropic::ANTHROPIC,
    &anthropic::ANTHROPIC_STRICT,
    &anthropic::BEDROCK,
    &compat::XAI,
    &compat::MOONSHOT,
    &compat::DEEPSEEK_STRICT,
    &compat::MISTRAL,
    &compat::GROQ,
    &compat::OPENROUTER,
    &compat::FIREWORKS,
    &gemini_openai::GEMINI_OPENAI,
    &webmcp::WEBMCP,
    &google::GOOGLE_JSON,
];

pub fn get(id: &str) -> Option<&'static Target> {
    TARGETS.iter().copied().find(|t| t.id == id)
}

pub fn ids() -> Vec<&'static str> {
    TARGETS.iter().map(|t| t.id).collect()
}

/// The `unknown-target` error for `target`, listing the ids there are.
pub fn unknown(target: impl Into<String>) -> crate::error::Error {
    crate::error::Error::UnknownTarget { target: target.into(), known: ids() }
}

/// Cloud Code Assist's acceptance rules with no rewrite rules: the gate alone.
#[cfg(test)]
pub static CCA_GATE_ONLY: Target = Target { passes: &[], relaxed: None, ..google::CCA };

#[cfg(test)]
mod order;
