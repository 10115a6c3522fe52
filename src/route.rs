//! Choosing a target from what a gateway knows about a call: the provider, the
//! model id and the API. The same model can need different rules behind
//! different transports (Claude through Cloud Code Assist takes the Gemini
//! proto path; Gemini through OpenRouter still needs Gemini's rules).

/// What a call site knows; every field is optional.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Route {
    pub provider: Option<String>,
    pub model: Option<String>,
    pub api: Option<String>,
    /// The call asks for grammar-constrained (strict) tools.
    pub strict: bool,
}

impl Route {
    /// The names `from_json` reads, as callers spell them.
    pub const NAMES: [&'static str; 4] = ["provider", "model", "api", "strict"];

    /// A route from its JSON object (`crate::settings`), as serde's derive
    /// reads it; blank text is the empty route.
    pub fn from_json(text: &str) -> Result<Route, crate::error::Error> {
        use crate::settings::{flag, maybe_text, unknown};
        let mut r = Route::default();
        for (key, v) in &crate::settings::object(text, "the route")? {
            let name = key.as_str();
            match name {
                "provider" => r.provider = maybe_text(name, v)?,
                "model" => r.model = maybe_text(name, v)?,
                "api" => r.api = maybe_text(name, v)?,
                "strict" => r.strict = flag(name, v)?,
                _ => return Err(unknown(name, &Self::NAMES)),
            }
        }
        Ok(r)
    }
}

/// The target id for `route`. Unknown providers get `openai` (the
/// OpenAI-compatible shape rules), the common denominator of compatible APIs.
pub fn target_for(route: &Route) -> &'static str {
    let lower = |s: &Option<String>| s.as_deref().unwrap_or("").to_ascii_lowercase();
    let (provider, model, api) = (lower(&route.provider), lower(&route.model), lower(&route.api));
    let model_name = model.rsplit('/').next().unwrap_or(&model).to_string();
    let has = |hay: &str, needles: &[&str]| needles.iter().any(|n| hay.contains(n));
    let claude = model_name.starts_with("claude");
    let gemini = model_name.starts_with("gemini") || model_name.starts_with("gemma");

    if has(&provider, &["cloud-code-assist", "cloudcode", "antigravity", "gemini-cli", "cca"]) {
        return if claude { "cca" } else { "google" };
    }
    if has(&provider, &["bedrock"]) {
        return if claude && route.strict { "anthropic-strict" } else { "bedrock" };
    }
    if has(&provider, &["openrouter"]) {
        return if gemini { "google" } else { "openrouter" };
    }
    // Fireworks serves other families (Kimi, Llama, Qwen) behind its own
    // schema compiler, so the transport decides before the model does.
    if has(&provider, &["fireworks"]) {
        return "fireworks";
    }
    // Gemini's OpenAI-compatible endpoint (`.../v1beta/openai/`): named by the
    // API, by a provider (or base URL) that says both, or by an OpenAI client
    // pointed at a Gemini model.
    let openai_compatible = has(&api, &["openai", "completions"]) || has(&provider, &["openai"]);
    if has(&provider, &["vertex", "google", "gemini"]) || (provider.is_empty() && gemini) {
        // A call that sends `parametersJsonSchema` says so by its API name.
        return if claude {
            "anthropic"
        } else if openai_compatible {
            "gemini-openai"
        } else if has(&api, &["parametersjsonschema", "json-schema"]) {
            "google-json"
        } else {
            "google"
        };
    }
    if gemini && has(&provider, &["openai"]) {
        return "gemini-openai";
    }
    if has(&provider, &["anthropic"]) || (provider.is_empty() && claude) {
        return if route.strict { "anthropic-strict" } else { "anthropic" };
    }
    if has(&provider, &["xai", "grok"]) || model_name.starts_with("grok") {
        return "xai";
    }
    if has(&provider, &["moonshot", "kimi"]) || model_name.starts_with("kimi") || model_name.starts_with("moonshot") {
        return "moonshot";
    }
    if has(&provider, &["deepseek"]) {
        return if route.strict { "deepseek-strict" } else { "openai" };
    }
    if has(&provider, &["mistral"]) {
        return "mistral";
    }
    if has(&provider, &["groq"]) {
        return "groq";
    }
    if has(&provider, &["ollama"]) {
        return "ollama";
    }
    if has(&provider, &["llama.cpp", "llamacpp", "llama-server", "lmstudio", "lm-studio"]) {
        return "llamacpp";
    }
    if has(&provider, &["vllm", "sglang", "xgrammar"]) {
        return "xgrammar";
    }
    if has(&provider, &["llguidance", "guidance"]) {
        return "llguidance";
    }
    if has(&provider, &["mcp"]) {
        return "mcp";
    }
    if has(&api, &["responses"]) {
        return if route.strict { "openai-strict" } else { "openai-responses" };
    }
    if route.strict {
        return "openai-strict";
    }
    "openai"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(provider: &str, model: &str, api: &str, strict: bool) -> &'static str {
        let o = |s: &str| (!s.is_empty()).then(|| s.to_string());
        target_for(&Route { provider: o(provider), model: o(model), api: o(api), strict })
    }

    #[test]
    fn routes_follow_the_transport() {
        assert_eq!(r("google-gemini-cli", "claude-sonnet-4-5", "", false), "cca");
        assert_eq!(r("antigravity", "gemini-2.5-pro", "", false), "google");
        assert_eq!(r("openrouter", "google/gemini-2.5-flash", "", false), "google");
        assert_eq!(r("openrouter", "moonshotai/kimi-k2", "", false), "openrouter");
        assert_eq!(r("", "gemini-2.5-flash", "", false), "google");
        assert_eq!(r("anthropic", "claude-opus-4-5", "", true), "anthropic-strict");
        assert_eq!(r("amazon-bedrock", "anthropic.claude-sonnet-4-5", "", false), "bedrock");
        assert_eq!(r("openai", "gpt-5", "responses", false), "openai-responses");
        assert_eq!(r("openai", "gpt-5", "chat", true), "openai-strict");
        assert_eq!(r("xai", "grok-4", "", false), "xai");
        assert_eq!(r("ollama", "qwen3", "", false), "ollama");
        assert_eq!(r("some-proxy", "mystery", "", false), "openai");
    }

    #[test]
    fn fireworks_and_gemini_openai_compatible_routes() {
        assert_eq!(r("fireworks", "accounts/fireworks/models/kimi-k2p5", "", false), "fireworks");
        assert_eq!(r("fireworks-ai", "accounts/fireworks/models/llama-v3p1-70b-instruct", "", true), "fireworks");
        assert_eq!(r("google", "gemini-2.5-flash", "openai-completions", false), "gemini-openai");
        assert_eq!(r("https://generativelanguage.googleapis.com/v1beta/openai/", "gemini-2.5-flash", "", false), "gemini-openai");
        assert_eq!(r("openai", "gemini-2.5-flash", "", false), "gemini-openai");
        assert_eq!(r("google", "gemini-2.5-flash", "google-generative-ai", false), "google");
        assert_eq!(r("google", "gemini-2.5-flash", "parametersJsonSchema", false), "google-json");
        assert_eq!(r("vertex", "gemini-2.5-pro", "json-schema", false), "google-json");
        assert_eq!(r("google", "claude-sonnet-4-5", "openai-completions", false), "anthropic");
        assert_eq!(r("openai", "gpt-5", "", false), "openai");
    }
}
