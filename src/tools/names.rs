//! Tool names a provider accepts. One name outside the provider's rule fails
//! the whole request (an MCP server's `github/create_issue` on OpenAI, a name
//! starting with a digit on Gemini: kaitranntt/ccs#25), so `normalizeTools`
//! sends such a tool under a name the rule accepts, and the round trip finds
//! the original tool again from the name the model called.
//!
//! The provider name depends only on the list's names and the rule: the same
//! list gives the same names on every call and platform, which is what lets
//! `prepareToolCall` find the tool without any state kept between the calls.
use crate::profile::NameRule;
use crate::hash::HashSet;

/// FNV-1a (32 bits) of the original name, in hex: the same on every platform
/// and run, and different for names that differ only where they were cut.
fn fingerprint(name: &str) -> String {
    let mut h: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    format!("{h:08x}")
}

/// `base` cut so that `_` and `suffix` fit in `max` characters, then both.
/// `base` is ASCII (from `sanitized`), so any byte is a character boundary.
fn with_suffix(base: &str, suffix: &str, max: usize) -> String {
    let keep = max.saturating_sub(suffix.len() + 1).min(base.len());
    format!("{}_{suffix}", &base[..keep])
}

/// `name` in the rule's alphabet: each character it refuses becomes `_`, a
/// `_` goes in front when the first must be a letter, and a name past `max`
/// keeps its start and ends with its fingerprint (namespaced MCP names share
/// long prefixes, so the cut alone would merge them).
fn sanitized(name: &str, rule: &NameRule) -> String {
    let mut out: String = name.chars().map(|c| if rule.allows(c) { c } else { '_' }).collect();
    if out.is_empty() {
        out.push_str("tool");
    }
    if rule.letter_first && !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    if out.len() > rule.max {
        out = with_suffix(&out, &fingerprint(name), rule.max);
    }
    out
}

/// The provider's name for each tool, in list order: `Some` where the rule
/// refuses the original name, `None` where it is kept. Names the rule accepts
/// are never changed and are claimed first, so a rewritten name never takes
/// one; a rewritten name that meets a name already claimed gets its
/// original's fingerprint, then a counter, until it is unique.
pub fn rewrite(names: &[Option<&str>], rule: &NameRule) -> Vec<Option<String>> {
    let mut taken: HashSet<String> = names.iter().flatten().filter(|n| rule.accepts(n)).map(|n| n.to_string()).collect();
    // Where each name's candidates stopped last: the ones before are taken
    // (nothing is ever freed), so a name met again goes on from there. Trying
    // them all again for every copy of one name was quadratic in the copies.
    let mut tried: crate::hash::HashMap<&str, usize> = Default::default();
    names
        .iter()
        .map(|name| {
            let name = (*name)?;
            if rule.accepts(name) {
                return None;
            }
            let base = sanitized(name, rule);
            let mut tries = tried.get(name).copied().unwrap_or(1);
            let candidate = |tries: usize| match tries {
                1 => base.clone(),
                2 => with_suffix(&base, &fingerprint(name), rule.max),
                _ => with_suffix(&base, &format!("{}_{tries}", fingerprint(name)), rule.max),
            };
            let mut next = candidate(tries);
            while taken.contains(&next) {
                tries += 1;
                next = candidate(tries);
            }
            tried.insert(name, tries);
            taken.insert(next.clone());
            Some(next)
        })
        .collect()
}

/// Which tool a model called: the index of the tool whose provider name is
/// `called`, else of the first whose original name is.
pub fn find(names: &[Option<&str>], rule: Option<&NameRule>, called: &str) -> Option<usize> {
    rule.and_then(|rule| rewrite(names, rule).iter().position(|p| p.as_deref() == Some(called)))
        .or_else(|| names.iter().position(|n| *n == Some(called)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::targets::get;

    fn rule(target: &str) -> NameRule {
        get(target).and_then(|t| t.caps.tool_names).expect("a name rule")
    }

    #[test]
    fn refused_names_become_valid_unique_and_stable() {
        let long = "mcp__a_very_long_server_namespace__and_an_even_longer_tool_name_that_goes_on";
        let names = [Some("github/create_issue"), Some("github_create_issue"), Some("github.create_issue"), Some(long), Some("1st"), Some("")];
        for target in ["openai", "anthropic", "bedrock", "google"] {
            let rule = rule(target);
            let out = rewrite(&names, &rule);
            let sent: Vec<&str> = names.iter().zip(&out).map(|(n, p)| p.as_deref().unwrap_or(n.unwrap())).collect();
            for name in &sent {
                assert!(rule.accepts(name), "{target}: {name:?}");
            }
            assert_eq!(sent.iter().collect::<HashSet<_>>().len(), sent.len(), "{target}: {sent:?}");
            assert_eq!(out[1], None, "a valid name is kept");
            assert_eq!(out, rewrite(&names, &rule), "deterministic");
        }
        let openai = rewrite(&names, &rule("openai"));
        // The slash goes; the plain form is taken by the valid name, so the fingerprint tells them apart.
        assert!(openai[0].as_deref().unwrap().starts_with("github_create_issue_"));
        assert_eq!(rewrite(&[Some("a/b")], &rule("openai")), [Some("a_b".to_string())]);
        // Gemini keeps dots and wants a letter or `_` first.
        let google = rewrite(&names, &rule("google"));
        assert_eq!(google[2], None);
        assert_eq!(google[4].as_deref(), Some("_1st"));
    }

    /// Copies of one refused name (and a name its rewrite would take) get
    /// the base, then the fingerprint, then numbered fingerprints, in order,
    /// all distinct: what trying every candidate again for each copy gave.
    #[test]
    fn copies_of_a_refused_name_take_the_next_candidates() {
        let rule = rule("openai");
        let names = [Some("a.b"), Some("a.b"), Some("a_b"), Some("a.b"), Some("a.b")];
        let out = rewrite(&names, &rule);
        let fp = fingerprint("a.b");
        let want = [Some("a_b_".to_string() + &fp), Some(format!("a_b_{fp}_3")), None, Some(format!("a_b_{fp}_4")), Some(format!("a_b_{fp}_5"))];
        assert_eq!(out, want);
    }

    #[test]
    fn the_called_name_finds_the_original() {
        let names = [Some("github/create_issue"), Some("ok"), None];
        let rule = rule("openai");
        assert_eq!(find(&names, Some(&rule), "github_create_issue"), Some(0));
        assert_eq!(find(&names, Some(&rule), "github/create_issue"), Some(0));
        assert_eq!(find(&names, Some(&rule), "ok"), Some(1));
        assert_eq!(find(&names, Some(&rule), "nope"), None);
        assert_eq!(find(&names, None, "github_create_issue"), None);
    }
}
