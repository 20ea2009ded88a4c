//! Wildcards: `fnmatch(3)` patterns (`*`, `?`, `[…]` with ranges and `!`/`^`, `\` escapes) for
//! `find -name`, and mksh's pathname expansion of unquoted words (`rm -r /data/data/PKG/*`).

use crate::framework::Framework;

use super::fs;

/// Whether `name` matches `pattern` as `fnmatch(pattern, name, 0)` does (a leading dot needs no
/// explicit match here; pathname expansion checks that itself).
pub fn fnmatch(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    matches(&p, &n)
}

fn matches(p: &[char], n: &[char]) -> bool {
    // Iterative with one backtrack point for the last `*`, so time stays O(len(p) * len(n)).
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        let step = match p.get(pi) {
            Some('*') => {
                star = Some((pi, ni));
                pi += 1;
                continue;
            }
            Some('?') => Some(1),
            Some('[') => match class(&p[pi..], n[ni]) {
                Some((true, used)) => Some(used),
                Some((false, _)) => None,
                // An unclosed `[` is an ordinary character.
                None => (n[ni] == '[').then_some(1),
            },
            Some('\\') if pi + 1 < p.len() => (p[pi + 1] == n[ni]).then_some(2),
            Some(&c) => (c == n[ni]).then_some(1),
            None => None,
        };
        match step {
            Some(used) => {
                pi += used;
                ni += 1;
            }
            None => match star {
                Some((sp, sn)) => {
                    pi = sp + 1;
                    ni = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// A bracket expression at the start of `p` against `c`: whether it matched and how many pattern
/// characters it used; `None` when it is not closed.
fn class(p: &[char], c: char) -> Option<(bool, usize)> {
    let mut i = 1;
    let negate = matches!(p.get(i), Some('!' | '^'));
    if negate {
        i += 1;
    }
    let mut hit = false;
    let mut first = true;
    while i < p.len() {
        let lo = p[i];
        if lo == ']' && !first {
            return Some((hit != negate, i + 1));
        }
        first = false;
        if p.get(i + 1) == Some(&'-') && p.get(i + 2).is_some_and(|&hi| hi != ']') {
            hit |= lo <= c && c <= p[i + 2];
            i += 3;
        } else {
            hit |= lo == c;
            i += 1;
        }
    }
    None
}

/// Whether a word has wildcards that are not escaped (`pattern` is in [`escape`]d form).
pub fn has_wildcards(pattern: &str) -> bool {
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '*' | '?' | '[' => return true,
            _ => {}
        }
    }
    false
}

/// Escapes quoted text so that its wildcard characters match only themselves.
pub fn escape(text: &str, out: &mut String) {
    for c in text.chars() {
        if matches!(c, '*' | '?' | '[' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
}

fn unescape(pattern: &str) -> String {
    let mut out = String::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    out
}

/// mksh's pathname expansion: the sorted paths `pattern` matches on the phone, spelled as the
/// pattern spells its directories; empty when nothing matches (the caller keeps the word).
/// Names starting with `.` match only a pattern component that starts with `.`.
pub fn expand(fw: &Framework, pattern: &str) -> Vec<String> {
    let absolute = pattern.starts_with('/');
    let mut paths = vec![if absolute {
        "/".to_string()
    } else {
        String::new()
    }];
    let components: Vec<&str> = pattern.split('/').filter(|c| !c.is_empty()).collect();
    for (i, component) in components.iter().enumerate() {
        let last = i + 1 == components.len();
        let mut next = Vec::new();
        for base in &paths {
            let join = |name: &str| format!("{base}{name}{}", if last { "" } else { "/" });
            if !has_wildcards(component) {
                next.push(join(&unescape(component)));
                continue;
            }
            let dir = if base.is_empty() { "/" } else { base.as_str() };
            let Some(host) = fs::resolve(fw, dir) else {
                continue;
            };
            let Ok(entries) = std::fs::read_dir(host) else {
                continue;
            };
            let mut names: Vec<String> = entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| !n.starts_with('.') || component.starts_with('.'))
                .filter(|n| fnmatch(component, n))
                .collect();
            names.sort();
            next.extend(names.iter().map(|n| join(n)));
        }
        paths = next;
    }
    // Components without wildcards were taken on trust; keep only paths that exist.
    paths.retain(|p| fs::resolve(fw, p).is_some_and(|h| std::fs::symlink_metadata(h).is_ok()));
    paths
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnmatch_as_libc() {
        for (p, n) in [
            ("*.txt", "a.txt"),
            ("*", ""),
            ("a?c", "abc"),
            ("[a-c]x", "bx"),
            ("[!a]x", "bx"),
            ("[]]", "]"),
            ("\\*", "*"),
            ("*a*b", "xxaxxb"),
            ("[", "["),
        ] {
            assert!(fnmatch(p, n), "{p} {n}");
        }
        for (p, n) in [
            ("*.txt", "a.txd"),
            ("a?c", "ac"),
            ("[!a]x", "ax"),
            ("\\*", "a"),
        ] {
            assert!(!fnmatch(p, n), "{p} {n}");
        }
    }

    #[test]
    fn escaped_words_have_no_wildcards() {
        let mut s = String::new();
        escape("a*b?[c]", &mut s);
        assert!(!has_wildcards(&s));
        assert!(fnmatch(&s, "a*b?[c]"));
        assert!(has_wildcards("/sdcard/*"));
    }
}
