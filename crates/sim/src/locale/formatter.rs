//! `String.format(locale, …)` for resource strings: Java Formatter's `%[index$][flags][width]
//! [.precision]conversion` for the conversions resources use (`s`, `d`, `f`, `%`, `n`). As in Java,
//! `%d` and `%f` write the locale's digits and separators (Arabic-Indic in ar-EG), `%s` writes the
//! argument as it is.

use std::fmt::Display;

use super::numbers;

/// `template` with its placeholders replaced by `args`. A placeholder naming a missing argument
/// stays as written, so a wrong call shows instead of vanishing.
pub fn java_format(template: &str, locale: &str, args: &[&dyn Display]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    let mut sequential = 0;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        let spec = &rest[at + 1..];
        let Some(conv_at) = spec.find(|c: char| c.is_ascii_alphabetic() || c == '%') else {
            out.push_str(&rest[at..]);
            return out;
        };
        let (head, conv) = (
            &spec[..conv_at],
            spec[conv_at..].chars().next().unwrap_or('%'),
        );
        let whole = &rest[at..at + 1 + conv_at + 1];
        rest = &spec[conv_at + 1..];
        match conv {
            '%' => {
                out.push('%');
                continue;
            }
            'n' => {
                out.push('\n');
                continue;
            }
            _ => {}
        }
        let (index, flags_width) = match head.split_once('$') {
            Some((i, fw)) => (i.parse::<usize>().unwrap_or(0), fw),
            None => {
                sequential += 1;
                (sequential, head)
            }
        };
        let Some(arg) = index.checked_sub(1).and_then(|i| args.get(i)) else {
            out.push_str(whole);
            continue;
        };
        let flags: String = flags_width
            .chars()
            .take_while(|c| matches!(c, '-' | '0' | ',' | '+' | ' ' | '#'))
            .collect();
        let (width, precision) = {
            let wp = &flags_width[flags.len()..];
            let (w, p) = wp.split_once('.').map_or((wp, None), |(w, p)| (w, Some(p)));
            (
                w.parse::<usize>().unwrap_or(0),
                p.and_then(|p| p.parse::<usize>().ok()),
            )
        };
        let text = arg.to_string();
        let body = match conv {
            'd' => match text.parse::<i64>() {
                Ok(n) if flags.contains(',') => numbers::format_integer(n, locale),
                Ok(n) if flags.contains('0') && width > 0 => {
                    let sign = if n < 0 { "-" } else { "" };
                    let digits = format!("{:0w$}", n.unsigned_abs(), w = width - sign.len());
                    numbers::localize_digits(&format!("{sign}{digits}"), locale)
                }
                Ok(n) => numbers::localize_digits(&n.to_string(), locale),
                Err(_) => text,
            },
            'f' => match text.parse::<f64>() {
                Ok(x) if flags.contains(',') => {
                    numbers::format_decimal(x, precision.unwrap_or(6), locale)
                }
                Ok(x) => {
                    let s = numbers::symbols(locale);
                    let plain = format!("{:.*}", precision.unwrap_or(6), x);
                    numbers::localize_digits(&plain.replacen('.', s.decimal, 1), locale)
                }
                Err(_) => text,
            },
            's' | 'S' => {
                let t = match precision {
                    Some(p) => text.chars().take(p).collect(),
                    None => text,
                };
                if conv == 'S' {
                    t.to_uppercase()
                } else {
                    t
                }
            }
            _ => {
                out.push_str(whole);
                continue;
            }
        };
        let pad = width.saturating_sub(body.chars().count());
        if flags.contains('-') {
            out.push_str(&body);
            out.extend(std::iter::repeat_n(' ', pad));
        } else {
            out.extend(std::iter::repeat_n(' ', pad));
            out.push_str(&body);
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::java_format;

    #[test]
    fn placeholders_as_java_fills_them() {
        let f = |t: &str, l: &str, a: &[&dyn std::fmt::Display]| java_format(t, l, a);
        assert_eq!(
            f("%1$s in %2$d min", "en-US", &[&"Alarm", &5]),
            "Alarm in 5 min"
        );
        assert_eq!(f("%2$s, %1$s", "en-US", &[&"a", &"b"]), "b, a");
        assert_eq!(f("%s and %s", "en-US", &[&"a", &"b"]), "a and b");
        assert_eq!(f("%02d:%02d", "en-US", &[&5, &7]), "05:07");
        assert_eq!(f("%02d:%02d", "ar-EG", &[&5, &7]), "٠٥:٠٧");
        assert_eq!(f("%1$d%%", "ar-EG", &[&50]), "٥٠%");
        assert_eq!(f("%1$.1f", "de-DE", &[&2.26]), "2,3");
        assert_eq!(f("%,d", "de-DE", &[&1234]), "1.234");
        assert_eq!(f("%3$s", "en-US", &[&"a"]), "%3$s");
        assert_eq!(f("50%", "en-US", &[]), "50%");
        assert_eq!(f("%-4s|", "en-US", &[&"ab"]), "ab  |");
    }
}
