//! Numbers as the locale writes them: its digits, decimal and grouping separators, from CLDR's
//! number symbols and default numbering system (what ICU on Android 14 uses). CLDR gives Arabic
//! `arab` digits (٠–٩) by default; ar-AE is one of the Arabic regions whose default is `latn`;
//! Hindi and Urdu default to Latin digits (their native `deva`/`arabext` are alternatives).

/// A locale's number symbols.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Symbols {
    /// The digit zero; the other nine follow it in Unicode.
    pub zero: char,
    pub decimal: &'static str,
    pub group: &'static str,
    pub minus: &'static str,
    /// Groups of two above the first three digits (`#,##,##0`), as Indian English and Hindi write.
    pub indian_grouping: bool,
}

const LATN: Symbols = Symbols {
    zero: '0',
    decimal: ".",
    group: ",",
    minus: "-",
    indian_grouping: false,
};

/// The number symbols of a BCP 47 locale (`ar-EG`, `fr-CA`).
pub fn symbols(locale: &str) -> Symbols {
    let language = super::language(locale);
    let region = super::region(locale);
    match (language, region.as_deref()) {
        // CLDR ar_AE (and the Maghreb locales) default to latn; the rest of Arabic to arab.
        ("ar", Some("AE" | "DZ" | "EH" | "LY" | "MA" | "TN")) => Symbols {
            minus: "\u{200E}-",
            ..LATN
        },
        ("ar", _) => Symbols {
            zero: '\u{0660}',
            decimal: "\u{066B}",
            group: "\u{066C}",
            minus: "\u{061C}-",
            indian_grouping: false,
        },
        // CLDR es_US writes 1,234.5 like English.
        ("es", Some("US")) => LATN,
        ("pt", Some("PT")) => Symbols {
            decimal: ",",
            group: "\u{A0}",
            ..LATN
        },
        ("de" | "es" | "pt", _) => Symbols {
            decimal: ",",
            group: ".",
            ..LATN
        },
        ("fr", Some("CA")) => Symbols {
            decimal: ",",
            group: "\u{A0}",
            ..LATN
        },
        ("fr", _) => Symbols {
            decimal: ",",
            group: "\u{202F}",
            ..LATN
        },
        ("ru", _) => Symbols {
            decimal: ",",
            group: "\u{A0}",
            ..LATN
        },
        ("ur", _) => Symbols {
            minus: "\u{200E}-",
            ..LATN
        },
        ("hi", _) => Symbols {
            indian_grouping: true,
            ..LATN
        },
        _ => LATN,
    }
}

/// ASCII digits of `text` in the locale's digits (everything else unchanged).
pub fn localize_digits(text: &str, locale: &str) -> String {
    let zero = symbols(locale).zero;
    if zero == '0' {
        return text.to_string();
    }
    text.chars()
        .map(|c| match c.to_digit(10) {
            Some(d) if c.is_ascii_digit() => char::from_u32(zero as u32 + d).unwrap_or(c),
            _ => c,
        })
        .collect()
}

/// An integer as the locale writes it, with grouping (`1,234,567`, `1.234.567`, `12,34,567`,
/// `١٬٢٣٤`).
pub fn format_integer(n: i64, locale: &str) -> String {
    format_decimal(n as f64, 0, locale)
}

/// A number with `fraction_digits` digits after the separator, grouped, in the locale's symbols.
pub fn format_decimal(n: f64, fraction_digits: usize, locale: &str) -> String {
    let s = symbols(locale);
    let plain = format!("{:.*}", fraction_digits, n.abs());
    let (int, frac) = plain.split_once('.').unwrap_or((&plain, ""));
    let mut out = String::new();
    if n < 0.0 && plain.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
        out.push_str(s.minus);
    }
    out.push_str(&group(int, s));
    if !frac.is_empty() {
        out.push_str(s.decimal);
        out.push_str(frac);
    }
    localize_digits(&out, locale)
}

/// `int` (ASCII digits) with the locale's grouping separator.
fn group(int: &str, s: Symbols) -> String {
    let digits: Vec<char> = int.chars().collect();
    let mut out = String::new();
    for (i, c) in digits.iter().enumerate() {
        let left = digits.len() - i;
        out.push(*c);
        // Digits still to come after this one decide whether a separator follows it.
        let rest = left - 1;
        let boundary = if s.indian_grouping {
            rest >= 3 && (rest - 3) % 2 == 0
        } else {
            rest > 0 && rest % 3 == 0
        };
        if boundary {
            out.push_str(s.group);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_as_cldr_writes_them() {
        assert_eq!(format_integer(1234567, "en-US"), "1,234,567");
        assert_eq!(format_integer(1234567, "de-DE"), "1.234.567");
        assert_eq!(format_integer(1234567, "hi-IN"), "12,34,567");
        assert_eq!(format_integer(1234567, "ru-MD"), "1\u{A0}234\u{A0}567");
        assert_eq!(format_integer(1234567, "fr-CA"), "1\u{A0}234\u{A0}567");
        assert_eq!(format_integer(1234, "ar-EG"), "١٬٢٣٤");
        assert_eq!(format_integer(1234, "ar-AE"), "1,234");
        assert_eq!(format_integer(1234, "ur-PK"), "1,234");
        assert_eq!(format_decimal(-3.5, 1, "es-US"), "-3.5");
        assert_eq!(format_decimal(-3.5, 1, "es-ES"), "-3,5");
        assert_eq!(format_decimal(1234.25, 2, "pt-PT"), "1\u{A0}234,25");
        assert_eq!(format_decimal(1234.25, 2, "pt-BR"), "1.234,25");
        assert_eq!(format_integer(12, "hi-IN"), "12");
        assert_eq!(format_integer(123456, "hi-IN"), "1,23,456");
        assert_eq!(localize_digits("10:05", "ar-EG"), "١٠:٠٥");
    }
}
