//! CLDR plural categories for whole numbers (the `quantity` of `<plurals>` items), per language,
//! from CLDR's plurals.xml for the phone's locales. Only integers reach `<plurals>` here, so the
//! rules' fraction operands (v, f, t) are zero.

/// The category of `n` in the locale: `zero`, `one`, `two`, `few`, `many` or `other`.
pub fn category(locale: &str, n: i64) -> &'static str {
    let n = n.unsigned_abs();
    let (m10, m100) = (n % 10, n % 100);
    match super::language(locale) {
        "ja" | "ko" | "zh" => "other",
        // pt-PT: one when i = 1 and v = 0; Brazilian pt: i = 0..1.
        "pt" if super::region(locale).as_deref() == Some("PT") => one_if(n == 1),
        "fr" | "pt" | "hi" | "ak" => one_if(n <= 1),
        "ru" | "uk" => match (m10, m100) {
            (1, m) if m != 11 => "one",
            (2..=4, m) if !(12..=14).contains(&m) => "few",
            _ => "many",
        },
        "ar" => match (n, m100) {
            (0, _) => "zero",
            (1, _) => "one",
            (2, _) => "two",
            (_, 3..=10) => "few",
            (_, 11..=99) => "many",
            _ => "other",
        },
        _ => one_if(n == 1),
    }
}

fn one_if(one: bool) -> &'static str {
    if one {
        "one"
    } else {
        "other"
    }
}

#[cfg(test)]
mod tests {
    use super::category;

    #[test]
    fn categories_follow_cldr() {
        assert_eq!(category("en-US", 1), "one");
        assert_eq!(category("en-US", 0), "other");
        assert_eq!(category("fr-CA", 0), "one");
        assert_eq!(category("pt-BR", 0), "one");
        assert_eq!(category("pt-PT", 0), "other");
        assert_eq!(category("ru-MD", 21), "one");
        assert_eq!(category("ru-MD", 12), "many");
        assert_eq!(category("ru-MD", 23), "few");
        assert_eq!(category("ar-EG", 2), "two");
        assert_eq!(category("ar-EG", 105), "few");
        assert_eq!(category("ar-EG", 111), "many");
        assert_eq!(category("ar-EG", 100), "other");
        assert_eq!(category("ko-KR", 1), "other");
    }
}
