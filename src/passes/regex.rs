//! Patterns in forms grammar backends enforce. llama.cpp's converter needs
//! anchored patterns (`Pattern must start with '^' and end with '$'`,
//! containers/kubernetes-mcp-server#758) and has no shorthand classes, so `\d`
//! would not mean a digit (issue: "turns a \d pattern into any string").
//! Both rewrites keep the pattern's meaning exactly.
use crate::lookup::Fields;
use crate::error::Result;
use crate::context::Cx;
use crate::doc::{Map, Value};
use crate::keywords::kw;

/// Shorthand classes → explicit classes, outside and inside `[...]`; and
/// `\/`, a slash escaped for nothing (JavaScript's regex literals need it,
/// a pattern string does not), → `/`: llama.cpp's converter refuses it
/// ("unsupported escape in character class: \/") and then accepts any string.
pub fn expand_classes(p: &str) -> Option<String> {
    let mut out = String::with_capacity(p.len() + 8);
    let mut chars = p.chars().peekable();
    let mut in_class = false;
    let mut changed = false;
    while let Some(c) = chars.next() {
        if c == '\\' {
            let Some(&n) = chars.peek() else {
                out.push(c);
                break;
            };
            chars.next();
            let (outside, inside) = match n {
                'd' => ("[0-9]", Some("0-9")),
                'D' => ("[^0-9]", None),
                'w' => ("[A-Za-z0-9_]", Some("A-Za-z0-9_")),
                'W' => ("[^A-Za-z0-9_]", None),
                's' => ("[ \\t\\n\\r]", Some(" \\t\\n\\r")),
                'S' => ("[^ \\t\\n\\r]", None),
                '/' => ("/", Some("/")),
                _ => {
                    out.push('\\');
                    out.push(n);
                    continue;
                }
            };
            match (in_class, inside) {
                (false, _) => out.push_str(outside),
                (true, Some(members)) => out.push_str(members),
                // A negated shorthand inside a class has no class-member spelling.
                (true, None) => return None,
            }
            changed = true;
            continue;
        }
        match c {
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            _ => {}
        }
        out.push(c);
    }
    changed.then_some(out)
}

/// A JSON Schema pattern matches anywhere in the string; an anchored grammar
/// must spell that out: `P` → `^.*(P).*$` (only the missing side is widened).
pub fn anchor(p: &str) -> Option<String> {
    let starts = p.starts_with('^');
    let ends = p.ends_with('$') && !p.ends_with("\\$");
    if starts && ends {
        return None;
    }
    let inner = p.strip_prefix('^').unwrap_or(p);
    let inner = if ends { &inner[..inner.len() - 1] } else { inner };
    Some(format!("^{}({}){}$", if starts { "" } else { ".*" }, inner, if ends { "" } else { ".*" }))
}

/// `^A$|^B$` → `^(?:A|B)$`, the same language: a pattern whose every top-level
/// alternative is anchored at both ends (Zod 4's base64: `^$|^(?:...)$`).
/// llama.cpp's converter refuses an anchor inside a pattern ("anchor inside
/// the pattern), accepting any string"), and xgrammar ignores it.
pub fn merge_anchored_alternatives(p: &str) -> Option<String> {
    let b = p.as_bytes();
    let (mut depth, mut in_class, mut i, mut start) = (0usize, false, 0usize, 0usize);
    let mut alternatives: Vec<&str> = Vec::new();
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'[' if !in_class => in_class = true,
            b']' if in_class => in_class = false,
            b'(' if !in_class => depth += 1,
            b')' if !in_class => depth = depth.checked_sub(1)?,
            b'|' if !in_class && depth == 0 => {
                alternatives.push(&p[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    alternatives.push(&p[start..]);
    // `^...$`, the `$` not escaped (an even run of backslashes before it).
    let anchored = |a: &str| {
        let Some(body) = a.strip_prefix('^').and_then(|a| a.strip_suffix('$')) else { return false };
        (body.len() - body.trim_end_matches('\\').len()) % 2 == 0
    };
    if alternatives.len() < 2 || !alternatives.iter().all(|a| anchored(a)) {
        return None;
    }
    let inner: Vec<&str> = alternatives.iter().map(|a| &a[1..a.len() - 1]).collect();
    Some(format!("^(?:{})$", inner.join("|")))
}

/// `merge_anchored_alternatives` on a node's `pattern`.
pub fn anchored_alternatives(node: &mut Map, cx: &mut Cx) -> Result<()> {
    let Some(Value::String(p)) = node.field(kw::PATTERN) else { return Ok(()) };
    if let Some(merged) = merge_anchored_alternatives(p) {
        node.insert(kw::PATTERN.into(), Value::String(merged));
        cx.count("patternsRewritten");
    }
    Ok(())
}

/// Applies the rewrites the target needs to `pattern` (and to `patternProperties` keys).
pub fn grammar_patterns(node: &mut Map, cx: &mut Cx) -> Result<()> {
    let Some(Value::String(p)) = node.field(kw::PATTERN) else { return Ok(()) };
    let mut p = p.clone();
    let mut changed = false;
    match expand_classes(&p) {
        Some(x) => {
            p = x;
            changed = true;
        }
        None if p.contains("\\D") || p.contains("\\W") || p.contains("\\S") => {
            cx.lossy("pattern-unenforced", "a negated shorthand class inside [...] cannot be written for this backend");
        }
        None => {}
    }
    if let Some(x) = anchor(&p) {
        p = x;
        changed = true;
    }
    if changed {
        node.insert(kw::PATTERN.into(), Value::String(p));
        cx.count("patternsRewritten");
    }
    Ok(())
}

/// Does `p` use lookaround or a backreference, which linear-time engines
/// (OpenAI's strict grammar, xgrammar, llguidance) cannot run? Read as a
/// regex, not as text: inside `[...]` the characters are literals (`a[(?=)]`
/// has no lookaround: issue 22), and an escaped character is never syntax.
/// ECMA-262 reads `[]` and `[^]` as whole classes, PCRE-family engines read a
/// leading `]` as a literal; a feature found under either reading is one the
/// provider's engine may see, so both are tried.
pub fn needs_backtracking(p: &str) -> bool {
    scan_for_backtracking(p, false) || scan_for_backtracking(p, true)
}

fn scan_for_backtracking(p: &str, leading_bracket_literal: bool) -> bool {
    let mut chars = p.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                // `\1`..`\9`: a backreference (inside a class an octal escape
                // in legacy ECMA-262, an error elsewhere: refused either way);
                // `\k<name>`: a named one.
                Some('1'..='9') => return true,
                Some('k') if !in_class && chars.peek() == Some(&'<') => return true,
                _ => {}
            },
            '[' if !in_class => {
                in_class = true;
                if chars.peek() == Some(&'^') {
                    chars.next();
                }
                if leading_bracket_literal && chars.peek() == Some(&']') {
                    chars.next();
                }
            }
            ']' if in_class => in_class = false,
            '(' if !in_class && chars.peek() == Some(&'?') => {
                chars.next();
                match chars.next() {
                    Some('=' | '!') => return true,
                    Some('<') if matches!(chars.peek(), Some('=' | '!')) => return true,
                    _ => {}
                }
            }
            _ => {}
        }
    }
    false
}

/// Unicode property classes (`\p{L}`) are not supported by xgrammar ("Unicode
/// character class escape sequence is not supported yet") nor by llama.cpp's
/// converter; such a pattern is removed and spilled.
pub fn no_unicode_classes(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if node.field(kw::PATTERN).and_then(Value::as_str).is_some_and(|p| p.contains("\\p{") || p.contains("\\P{")) {
        super::spill::strip(node, &["pattern".into()], cx);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_expand_in_and_out_of_brackets() {
        assert_eq!(expand_classes(r"^\d{5}$").unwrap(), "^[0-9]{5}$");
        assert_eq!(expand_classes(r"[\w.-]+").unwrap(), "[A-Za-z0-9_.-]+");
        assert_eq!(expand_classes(r"a\.b"), None);
        assert_eq!(expand_classes(r"[\D]"), None);
        // A slash escaped for nothing, in a class and outside it; an escaped backslash before one stays.
        assert_eq!(expand_classes(r"^[a-z\-\/]+\/\d$").unwrap(), r"^[a-z\-/]+/[0-9]$");
        assert_eq!(expand_classes(r"a\\/b"), None);
    }

    #[test]
    fn anchored_alternatives_become_one_anchored_group() {
        let m = merge_anchored_alternatives;
        assert_eq!(m(r"^$|^(?:[a-z]{4})*$").unwrap(), r"^(?:|(?:[a-z]{4})*)$");
        assert_eq!(m(r"^a$|^b|c$"), None);
        assert_eq!(m(r"^a$"), None);
        // Alternatives inside a group or a class are not top-level.
        assert_eq!(m(r"^(a$|^b)$"), None);
        assert_eq!(m(r"^[|]$|^b$").unwrap(), r"^(?:[|]|b)$");
        // An escaped dollar ends no alternative; an escaped backslash before one does.
        assert_eq!(m(r"^a\$|^b$"), None);
        assert_eq!(m(r"^a\\$|^b$").unwrap(), r"^(?:a\\|b)$");
        // An escaped bar splits nothing.
        assert_eq!(m(r"^a$|^b\|c$").unwrap(), r"^(?:a|b\|c)$");
    }

    #[test]
    fn lookaround_is_read_outside_classes_only() {
        let yes = [
            r"(?=a)b", r"a(?!b)", r"(?<=a)b", r"(?<!a)b", r"(a)\1", r"(?<n>a)\k<n>", r"[a]\2", r"[]](?=a)", r"[^](?=a)]",
            // Under ECMA-262, `[]` and `[^]` end where they begin.
            r"[](?=)]", r"[^](?!)]",
        ];
        for p in yes {
            assert!(needs_backtracking(p), "{p}");
        }
        let no = [r"a[(?=)]", r"a[\](?=)]", r"[]a]", r"[^]a](b)", r"\(?=a\)", r"\\1", r"(?<name>a)", r"(?:a)", r"\d{5}", r"[\d(?<=x)]"];
        for p in no {
            assert!(!needs_backtracking(p), "{p}");
        }
    }

    #[test]
    fn anchoring_keeps_the_meaning() {
        assert_eq!(anchor("^a$"), None);
        assert_eq!(anchor("a|b").unwrap(), "^.*(a|b).*$");
        assert_eq!(anchor("^ab").unwrap(), "^(ab).*$");
        assert_eq!(anchor(r"a\$").unwrap(), r"^.*(a\$).*$");
    }
}
