//! The phone's locale: which language a string is shown in, which way text runs, and how dates
//! read. Strings are looked up by key in per-language tables (Android's `values-xx/strings.xml`),
//! falling back to English as Android falls back to `values/`.

use chrono::{Datelike, NaiveDate};

/// The language part of a BCP 47 tag (`ko` of `ko-KR`, `zh` of `zh-Hans-CN`).
pub fn language(locale: &str) -> &str {
    locale.split(['-', '_']).next().unwrap_or("")
}

/// Whether the locale's script runs right to left (Arabic, Urdu, Persian, Hebrew), so layouts
/// mirror.
pub fn is_rtl(locale: &str) -> bool {
    matches!(language(locale), "ar" | "ur" | "fa" | "he" | "iw")
}

/// One translatable string: the key and its text per language (English first).
type Table = &'static [(&'static str, &'static [(&'static str, &'static str)])];

/// System UI and launcher strings.
const STRINGS: Table = &[
    (
        "apps_list",
        &[
            ("en", "Apps list"),
            ("es", "Lista de apps"),
            ("fr", "Liste des applications"),
            ("de", "App-Liste"),
            ("pt", "Lista de apps"),
            ("ru", "Список приложений"),
            ("zh", "应用列表"),
            ("ja", "アプリリスト"),
            ("ko", "앱 목록"),
            ("hi", "ऐप्लिकेशन सूची"),
            ("ar", "قائمة التطبيقات"),
            ("ur", "ایپس کی فہرست"),
            ("ak", "Apps list"),
        ],
    ),
    (
        "search",
        &[
            ("en", "Search"),
            ("es", "Buscar"),
            ("fr", "Rechercher"),
            ("de", "Suchen"),
            ("pt", "Pesquisar"),
            ("ru", "Поиск"),
            ("zh", "搜索"),
            ("ja", "検索"),
            ("ko", "검색"),
            ("hi", "खोजें"),
            ("ar", "بحث"),
            ("ur", "تلاش کریں"),
        ],
    ),
    (
        "search_apps",
        &[
            ("en", "Search apps"),
            ("es", "Buscar apps"),
            ("fr", "Rechercher des applications"),
            ("de", "Apps suchen"),
            ("pt", "Pesquisar apps"),
            ("ru", "Поиск приложений"),
            ("zh", "搜索应用"),
            ("ja", "アプリを検索"),
            ("ko", "앱 검색"),
            ("hi", "ऐप्लिकेशन खोजें"),
            ("ar", "البحث في التطبيقات"),
            ("ur", "ایپس تلاش کریں"),
        ],
    ),
];

/// The string `key` in the locale's language (English when untranslated; `?` for an unknown key,
/// so a missing entry shows instead of vanishing).
pub fn text(locale: &str, key: &str) -> &'static str {
    lookup(STRINGS, locale, key).unwrap_or("?")
}

fn lookup(table: Table, locale: &str, key: &str) -> Option<&'static str> {
    let lang = language(locale);
    let (_, entries) = table.iter().find(|(k, _)| *k == key)?;
    entries
        .iter()
        .find(|(l, _)| *l == lang)
        .or_else(|| entries.first())
        .map(|(_, t)| *t)
}

const WEEKDAYS_EN: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const MONTHS_EN: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// The launcher's date line ("Mon, Jun 3" in en-US), in the locale's pattern.
pub fn format_date_short(date: NaiveDate, locale: &str) -> String {
    let wd = date.weekday().num_days_from_monday() as usize;
    let (m, d) = (date.month(), date.day());
    match language(locale) {
        "ko" => format!(
            "{m}월 {d}일 ({})",
            ["월", "화", "수", "목", "금", "토", "일"][wd]
        ),
        "ja" => format!(
            "{m}月{d}日({})",
            ["月", "火", "水", "木", "金", "土", "日"][wd]
        ),
        "zh" => format!(
            "{m}月{d}日{}",
            ["周一", "周二", "周三", "周四", "周五", "周六", "周日"][wd]
        ),
        _ => format!("{}, {} {d}", WEEKDAYS_EN[wd], MONTHS_EN[m as usize - 1]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rtl_and_lookup_fall_back_to_english() {
        assert!(is_rtl("ar-EG") && is_rtl("ur-PK") && !is_rtl("ko-KR"));
        assert_eq!(text("ko-KR", "search"), "검색");
        assert_eq!(text("ak-GH", "search"), "Search");
        let d = NaiveDate::from_ymd_opt(2024, 6, 3).expect("date");
        assert_eq!(format_date_short(d, "en-US"), "Mon, Jun 3");
        assert_eq!(format_date_short(d, "ko-KR"), "6월 3일 (월)");
    }
}
