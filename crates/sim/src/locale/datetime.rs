//! Dates and times as Android 14 prints them (ICU 72, CLDR 42): weekday and month names, the
//! skeletons the phone's apps ask for (`MMMEd` on the launcher, `yMMMd`, `yMd`, `hm`/`Hm`), the
//! day-period markers (오전, 午前, 上午, ص) and each locale's 12/24-hour default. The table holds
//! the phone's fifteen B-MoCA locales, copied from CLDR 42's `common/main/*.xml` (format
//! context, Gregorian calendar); other locales use English's. The week's first day comes from
//! CLDR's supplemental week data, by region.

use chrono::{Datelike, NaiveDate, Weekday};

/// One locale's calendar data.
struct Cldr {
    /// Abbreviated weekdays, Sunday first.
    weekdays_abbr: [&'static str; 7],
    weekdays_wide: [&'static str; 7],
    /// The one-letter forms DeskClock's repeat-day buttons show.
    weekdays_narrow: [&'static str; 7],
    months_abbr: [&'static str; 12],
    months_wide: [&'static str; 12],
    am_pm: [&'static str; 2],
    /// `MMMEd`: the launcher's "At a glance" date.
    month_day_weekday: &'static str,
    /// `MMMd`: a day of this year in lists (Messages' conversations, the call log).
    month_day: &'static str,
    /// `yMMMd`
    medium: &'static str,
    /// `yMd`
    short: &'static str,
    /// `hm` and `Hm`
    time_12: &'static str,
    time_24: &'static str,
    /// Whether the locale's own time pattern is on the 24-hour clock (`DateFormat.is24HourFormat`
    /// with `time_12_24` unset).
    default_24h: bool,
}

const EN: Cldr = Cldr {
    weekdays_abbr: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
    weekdays_wide: [
        "Sunday",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
    ],
    weekdays_narrow: ["S", "M", "T", "W", "T", "F", "S"],
    months_abbr: [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ],
    months_wide: [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ],
    am_pm: ["AM", "PM"],
    month_day_weekday: "EEE, MMM d",
    month_day: "MMM d",
    medium: "MMM d, y",
    short: "M/d/yy",
    time_12: "h:mm a",
    time_24: "HH:mm",
    default_24h: false,
};

const ES: Cldr = Cldr {
    weekdays_abbr: ["dom", "lun", "mar", "mié", "jue", "vie", "sáb"],
    weekdays_wide: [
        "domingo",
        "lunes",
        "martes",
        "miércoles",
        "jueves",
        "viernes",
        "sábado",
    ],
    weekdays_narrow: ["D", "L", "M", "X", "J", "V", "S"],
    months_abbr: [
        "ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic",
    ],
    months_wide: [
        "enero",
        "febrero",
        "marzo",
        "abril",
        "mayo",
        "junio",
        "julio",
        "agosto",
        "septiembre",
        "octubre",
        "noviembre",
        "diciembre",
    ],
    am_pm: ["a.\u{A0}m.", "p.\u{A0}m."],
    month_day_weekday: "EEE, d MMM",
    month_day: "d MMM",
    medium: "d MMM y",
    short: "d/M/yy",
    time_12: "h:mm a",
    time_24: "H:mm",
    default_24h: true,
};

const ES_US: Cldr = Cldr {
    months_abbr: [
        "ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic",
    ],
    am_pm: ["a.m.", "p.m."],
    short: "d/M/y",
    time_24: "HH:mm",
    default_24h: false,
    ..ES
};

const FR: Cldr = Cldr {
    weekdays_abbr: ["dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."],
    weekdays_wide: [
        "dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi",
    ],
    weekdays_narrow: ["D", "L", "M", "M", "J", "V", "S"],
    months_abbr: [
        "janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.",
        "déc.",
    ],
    months_wide: [
        "janvier",
        "février",
        "mars",
        "avril",
        "mai",
        "juin",
        "juillet",
        "août",
        "septembre",
        "octobre",
        "novembre",
        "décembre",
    ],
    am_pm: ["AM", "PM"],
    month_day_weekday: "EEE d MMM",
    month_day: "d MMM",
    medium: "d MMM y",
    short: "dd/MM/y",
    time_12: "h:mm a",
    time_24: "HH:mm",
    default_24h: true,
};

const FR_CA: Cldr = Cldr {
    months_abbr: [
        "janv.", "févr.", "mars", "avr.", "mai", "juin", "juill.", "août", "sept.", "oct.", "nov.",
        "déc.",
    ],
    am_pm: ["a.m.", "p.m."],
    short: "y-MM-dd",
    time_12: "h 'h' mm a",
    time_24: "HH 'h' mm",
    ..FR
};

const DE: Cldr = Cldr {
    weekdays_abbr: ["So.", "Mo.", "Di.", "Mi.", "Do.", "Fr.", "Sa."],
    weekdays_wide: [
        "Sonntag",
        "Montag",
        "Dienstag",
        "Mittwoch",
        "Donnerstag",
        "Freitag",
        "Samstag",
    ],
    weekdays_narrow: ["S", "M", "D", "M", "D", "F", "S"],
    months_abbr: [
        "Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.",
        "Dez.",
    ],
    months_wide: [
        "Januar",
        "Februar",
        "März",
        "April",
        "Mai",
        "Juni",
        "Juli",
        "August",
        "September",
        "Oktober",
        "November",
        "Dezember",
    ],
    am_pm: ["AM", "PM"],
    month_day_weekday: "EEE, d. MMM",
    month_day: "d. MMM",
    medium: "dd.MM.y",
    short: "dd.MM.yy",
    time_12: "h:mm a",
    time_24: "HH:mm",
    default_24h: true,
};

const PT: Cldr = Cldr {
    weekdays_abbr: ["dom.", "seg.", "ter.", "qua.", "qui.", "sex.", "sáb."],
    weekdays_wide: [
        "domingo",
        "segunda-feira",
        "terça-feira",
        "quarta-feira",
        "quinta-feira",
        "sexta-feira",
        "sábado",
    ],
    weekdays_narrow: ["D", "S", "T", "Q", "Q", "S", "S"],
    months_abbr: [
        "jan.", "fev.", "mar.", "abr.", "mai.", "jun.", "jul.", "ago.", "set.", "out.", "nov.",
        "dez.",
    ],
    months_wide: [
        "janeiro",
        "fevereiro",
        "março",
        "abril",
        "maio",
        "junho",
        "julho",
        "agosto",
        "setembro",
        "outubro",
        "novembro",
        "dezembro",
    ],
    am_pm: ["AM", "PM"],
    month_day_weekday: "EEE, d 'de' MMM",
    month_day: "d 'de' MMM",
    medium: "d 'de' MMM 'de' y",
    short: "dd/MM/y",
    time_12: "h:mm a",
    time_24: "HH:mm",
    default_24h: true,
};

const PT_PT: Cldr = Cldr {
    weekdays_abbr: [
        "domingo", "segunda", "terça", "quarta", "quinta", "sexta", "sábado",
    ],
    am_pm: ["da manhã", "da tarde"],
    month_day_weekday: "EEE, d/MM",
    month_day: "d/MM",
    medium: "dd/MM/y",
    short: "dd/MM/yy",
    ..PT
};

const RU: Cldr = Cldr {
    weekdays_abbr: ["вс", "пн", "вт", "ср", "чт", "пт", "сб"],
    weekdays_wide: [
        "воскресенье",
        "понедельник",
        "вторник",
        "среда",
        "четверг",
        "пятница",
        "суббота",
    ],
    weekdays_narrow: ["В", "П", "В", "С", "Ч", "П", "С"],
    // Format context: the genitive, as after a day number.
    months_abbr: [
        "янв.",
        "февр.",
        "мар.",
        "апр.",
        "мая",
        "июн.",
        "июл.",
        "авг.",
        "сент.",
        "окт.",
        "нояб.",
        "дек.",
    ],
    months_wide: [
        "января",
        "февраля",
        "марта",
        "апреля",
        "мая",
        "июня",
        "июля",
        "августа",
        "сентября",
        "октября",
        "ноября",
        "декабря",
    ],
    am_pm: ["AM", "PM"],
    month_day_weekday: "EEE, d MMM",
    month_day: "d MMM",
    medium: "d MMM y 'г'.",
    short: "dd.MM.y",
    time_12: "h:mm a",
    time_24: "HH:mm",
    default_24h: true,
};

/// Chinese and Japanese abbreviated months: the number and 月.
const NUMBERED_MONTHS: [&str; 12] = [
    "1月", "2月", "3月", "4月", "5月", "6月", "7月", "8月", "9月", "10月", "11月", "12月",
];
const KO_MONTHS: [&str; 12] = [
    "1월", "2월", "3월", "4월", "5월", "6월", "7월", "8월", "9월", "10월", "11월", "12월",
];

const ZH: Cldr = Cldr {
    weekdays_abbr: ["周日", "周一", "周二", "周三", "周四", "周五", "周六"],
    weekdays_wide: [
        "星期日",
        "星期一",
        "星期二",
        "星期三",
        "星期四",
        "星期五",
        "星期六",
    ],
    weekdays_narrow: ["日", "一", "二", "三", "四", "五", "六"],
    months_abbr: NUMBERED_MONTHS,
    months_wide: [
        "一月",
        "二月",
        "三月",
        "四月",
        "五月",
        "六月",
        "七月",
        "八月",
        "九月",
        "十月",
        "十一月",
        "十二月",
    ],
    am_pm: ["上午", "下午"],
    month_day_weekday: "M月d日EEE",
    month_day: "M月d日",
    medium: "y年M月d日",
    short: "y/M/d",
    time_12: "ah:mm",
    time_24: "HH:mm",
    default_24h: true,
};

const JA: Cldr = Cldr {
    weekdays_abbr: ["日", "月", "火", "水", "木", "金", "土"],
    weekdays_wide: [
        "日曜日",
        "月曜日",
        "火曜日",
        "水曜日",
        "木曜日",
        "金曜日",
        "土曜日",
    ],
    weekdays_narrow: ["日", "月", "火", "水", "木", "金", "土"],
    months_abbr: NUMBERED_MONTHS,
    months_wide: NUMBERED_MONTHS,
    am_pm: ["午前", "午後"],
    month_day_weekday: "M月d日(EEE)",
    month_day: "M月d日",
    medium: "y/MM/dd",
    short: "y/MM/dd",
    time_12: "aK:mm",
    time_24: "H:mm",
    default_24h: true,
};

const KO: Cldr = Cldr {
    weekdays_abbr: ["일", "월", "화", "수", "목", "금", "토"],
    weekdays_wide: [
        "일요일",
        "월요일",
        "화요일",
        "수요일",
        "목요일",
        "금요일",
        "토요일",
    ],
    weekdays_narrow: ["일", "월", "화", "수", "목", "금", "토"],
    months_abbr: KO_MONTHS,
    months_wide: KO_MONTHS,
    am_pm: ["오전", "오후"],
    month_day_weekday: "MMM d일 (EEE)",
    month_day: "MMM d일",
    medium: "y. M. d.",
    short: "yy. M. d.",
    time_12: "a h:mm",
    time_24: "HH:mm",
    default_24h: false,
};

const HI: Cldr = Cldr {
    weekdays_abbr: ["रवि", "सोम", "मंगल", "बुध", "गुरु", "शुक्र", "शनि"],
    weekdays_wide: [
        "रविवार",
        "सोमवार",
        "मंगलवार",
        "बुधवार",
        "गुरुवार",
        "शुक्रवार",
        "शनिवार",
    ],
    weekdays_narrow: ["र", "सो", "मं", "बु", "गु", "शु", "श"],
    months_abbr: [
        "जन॰",
        "फ़र॰",
        "मार्च",
        "अप्रैल",
        "मई",
        "जून",
        "जुल॰",
        "अग॰",
        "सित॰",
        "अक्तू॰",
        "नव॰",
        "दिस॰",
    ],
    months_wide: [
        "जनवरी",
        "फ़रवरी",
        "मार्च",
        "अप्रैल",
        "मई",
        "जून",
        "जुलाई",
        "अगस्त",
        "सितंबर",
        "अक्तूबर",
        "नवंबर",
        "दिसंबर",
    ],
    am_pm: ["am", "pm"],
    month_day_weekday: "EEE, d MMM",
    month_day: "d MMM",
    medium: "d MMM y",
    short: "d/M/yy",
    time_12: "h:mm a",
    time_24: "HH:mm",
    default_24h: false,
};

/// CLDR Arabic uses the full names where English abbreviates.
const AR_WEEKDAYS: [&str; 7] = [
    "الأحد",
    "الاثنين",
    "الثلاثاء",
    "الأربعاء",
    "الخميس",
    "الجمعة",
    "السبت",
];
const AR_MONTHS: [&str; 12] = [
    "يناير",
    "فبراير",
    "مارس",
    "أبريل",
    "مايو",
    "يونيو",
    "يوليو",
    "أغسطس",
    "سبتمبر",
    "أكتوبر",
    "نوفمبر",
    "ديسمبر",
];

const AR: Cldr = Cldr {
    weekdays_abbr: AR_WEEKDAYS,
    weekdays_wide: AR_WEEKDAYS,
    weekdays_narrow: ["ح", "ن", "ث", "ر", "خ", "ج", "س"],
    months_abbr: AR_MONTHS,
    months_wide: AR_MONTHS,
    am_pm: ["ص", "م"],
    month_day_weekday: "EEE، d MMM",
    month_day: "d MMM",
    medium: "dd\u{200F}/MM\u{200F}/y",
    short: "d\u{200F}/M\u{200F}/y",
    time_12: "h:mm a",
    time_24: "HH:mm",
    default_24h: false,
};

const UR_WEEKDAYS: [&str; 7] = ["اتوار", "پیر", "منگل", "بدھ", "جمعرات", "جمعہ", "ہفتہ"];
const UR_MONTHS: [&str; 12] = [
    "جنوری",
    "فروری",
    "مارچ",
    "اپریل",
    "مئی",
    "جون",
    "جولائی",
    "اگست",
    "ستمبر",
    "اکتوبر",
    "نومبر",
    "دسمبر",
];

const UR: Cldr = Cldr {
    weekdays_abbr: UR_WEEKDAYS,
    weekdays_wide: UR_WEEKDAYS,
    weekdays_narrow: ["S", "M", "T", "W", "T", "F", "S"],
    months_abbr: UR_MONTHS,
    months_wide: UR_MONTHS,
    am_pm: ["AM", "PM"],
    month_day_weekday: "EEE، d MMM",
    month_day: "d MMM",
    medium: "d MMM، y",
    short: "d/M/yy",
    time_12: "h:mm a",
    time_24: "HH:mm",
    default_24h: false,
};

const AK: Cldr = Cldr {
    weekdays_abbr: ["Kwe", "Dwo", "Ben", "Wuk", "Yaw", "Fia", "Mem"],
    weekdays_wide: [
        "Kwesida", "Dwowda", "Benada", "Wukuda", "Yawda", "Fida", "Memeneda",
    ],
    weekdays_narrow: ["K", "D", "B", "W", "Y", "F", "M"],
    months_abbr: [
        "S-Ɔ", "K-Ɔ", "E-Ɔ", "E-O", "E-K", "O-A", "A-K", "D-Ɔ", "F-Ɛ", "Ɔ-A", "Ɔ-O", "M-Ɔ",
    ],
    months_wide: [
        "Sanda-Ɔpɛpɔn",
        "Kwakwar-Ɔgyefuo",
        "Ebɔw-Ɔbenem",
        "Ebɔbira-Oforisuo",
        "Esusow Aketseaba-Kɔtɔnimba",
        "Obirade-Ayɛwohomumu",
        "Ayɛwoho-Kitawonsa",
        "Difuu-Ɔsandaa",
        "Fankwa-Ɛbɔ",
        "Ɔbɛsɛ-Ahinime",
        "Ɔberɛfɛw-Obubuo",
        "Mumu-Ɔpɛnimba",
    ],
    am_pm: ["AN", "EW"],
    month_day_weekday: "EEE, MMM d",
    month_day: "MMM d",
    medium: "MMM d, y",
    short: "yy/MM/dd",
    time_12: "h:mm a",
    time_24: "HH:mm",
    default_24h: false,
};

fn cldr(locale: &str) -> &'static Cldr {
    let region = super::region(locale);
    match (super::language(locale), region.as_deref()) {
        ("es", Some("US")) => &ES_US,
        ("es", _) => &ES,
        ("fr", Some("CA")) => &FR_CA,
        ("fr", _) => &FR,
        ("de", _) => &DE,
        ("pt", Some("PT")) => &PT_PT,
        ("pt", _) => &PT,
        ("ru", _) => &RU,
        ("zh", _) => &ZH,
        ("ja", _) => &JA,
        ("ko", _) => &KO,
        ("hi", _) => &HI,
        ("ar", _) => &AR,
        ("ur", _) => &UR,
        ("ak", _) => &AK,
        _ => &EN,
    }
}

/// Whether the locale's own clock is the 24-hour one (used when `time_12_24` is unset).
pub fn default_24h(locale: &str) -> bool {
    cldr(locale).default_24h
}

/// The first day of the week in a calendar's month view, by region: CLDR's
/// `supplemental/supplementalData.xml` `<weekData>` `<firstDay>` as Android's copy of CLDR ships it
/// (AOSP `external/cldr`, which moved AE to Monday with the UAE's 2022 Saturday–Sunday weekend).
/// Regions listed nowhere start on Monday (`001`).
const FIRST_DAY: &[(Weekday, &[&str])] = &[
    (Weekday::Fri, &["MV"]),
    (
        Weekday::Sat,
        &[
            "AF", "BH", "DJ", "DZ", "EG", "IQ", "IR", "JO", "KW", "LY", "OM", "QA", "SD", "SY",
        ],
    ),
    (
        Weekday::Sun,
        &[
            "AG", "AS", "BD", "BR", "BS", "BT", "BW", "BZ", "CA", "CO", "DM", "DO", "ET", "GT",
            "GU", "HK", "HN", "ID", "IL", "IN", "JM", "JP", "KE", "KH", "KR", "LA", "MH", "MM",
            "MO", "MT", "MX", "MZ", "NI", "NP", "PA", "PE", "PH", "PK", "PR", "PT", "PY", "SA",
            "SG", "SV", "TH", "TT", "TW", "UM", "US", "VE", "VI", "WS", "YE", "ZA", "ZW",
        ],
    ),
];

/// The region a language-only tag stands for (CLDR's likely subtags, for the phone's languages).
fn likely_region(language: &str) -> &'static str {
    match language {
        "en" => "US",
        "es" => "ES",
        "fr" => "FR",
        "de" => "DE",
        "pt" => "BR",
        "ru" => "RU",
        "zh" => "CN",
        "ja" => "JP",
        "ko" => "KR",
        "hi" => "IN",
        "ar" => "EG",
        "ur" => "PK",
        "ak" => "GH",
        _ => "001",
    }
}

/// The weekday a calendar week starts on in `locale` (ICU's `Calendar.getFirstDayOfWeek`): by the
/// tag's region, or the language's likely region when it has none.
pub fn first_day_of_week(locale: &str) -> Weekday {
    let region = super::region(locale);
    let region = region
        .as_deref()
        .unwrap_or_else(|| likely_region(super::language(locale)));
    FIRST_DAY
        .iter()
        .find(|(_, regions)| regions.contains(&region))
        .map_or(Weekday::Mon, |(day, _)| *day)
}

/// A date in one of the skeletons the phone's apps use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateStyle {
    /// `MMMEd`: "Mon, Jun 3", "6월 3일 (월)" (the launcher's date).
    MonthDayWeekday,
    /// `MMMd`: "Jun 3", "3 juin", "6月3日".
    MonthDay,
    /// `yMMMd`: "Jun 3, 2024".
    Medium,
    /// `yMd`: "6/3/24".
    Short,
    /// `yMMMMd`: "June 3, 2024", "2024년 6월 3일" (Settings' dates).
    Long,
}

/// `date` as the locale writes it in `style`, in the locale's digits.
pub fn format_date(date: NaiveDate, locale: &str, style: DateStyle) -> String {
    let c = cldr(locale);
    let pattern = match style {
        DateStyle::MonthDayWeekday => c.month_day_weekday,
        DateStyle::MonthDay => c.month_day,
        DateStyle::Medium => c.medium,
        DateStyle::Short => c.short,
        DateStyle::Long => long_pattern(locale),
    };
    let fields = Fields {
        date: Some(date),
        hour: 0,
        minute: 0,
    };
    super::numbers::localize_digits(&apply(pattern, c, &fields), locale)
}

/// CLDR 42's `yMMMMd` skeleton per language (the month spelled out).
fn long_pattern(locale: &str) -> &'static str {
    match (super::language(locale), super::region(locale).as_deref()) {
        ("en", Some("US") | None) => "MMMM d, y",
        ("de", _) => "d. MMMM y",
        ("es" | "pt", _) => "d 'de' MMMM 'de' y",
        ("ru", _) => "d MMMM y 'г'.",
        ("ja" | "zh", _) => "y年M月d日",
        ("ko", _) => "y년 M월 d일",
        ("ur", _) => "d MMMM، y",
        ("ak", _) => "MMMM d, y",
        _ => "d MMMM y",
    }
}

/// A time of day on the 12- or 24-hour clock, as the locale writes it ("9:05 AM", "오전 9:05",
/// "午前9:05", "09:05", "09 h 05", "٩:٠٥ ص").
pub fn format_time(hour: u32, minute: u32, locale: &str, use_24h: bool) -> String {
    let c = cldr(locale);
    let pattern = if use_24h { c.time_24 } else { c.time_12 };
    let fields = Fields {
        date: None,
        hour,
        minute,
    };
    super::numbers::localize_digits(&apply(pattern, c, &fields), locale)
}

/// The day-period marker for an hour (AM/PM, 오전/오후…).
pub fn am_pm(hour: u32, locale: &str) -> &'static str {
    cldr(locale).am_pm[usize::from(hour >= 12)]
}

/// Weekday names, Sunday first: `Width::Wide` "Sunday", `Abbreviated` "Sun", `Narrow` "S".
pub fn weekday(weekday: chrono::Weekday, locale: &str, width: Width) -> &'static str {
    let c = cldr(locale);
    let i = weekday.num_days_from_sunday() as usize;
    match width {
        Width::Wide => c.weekdays_wide[i],
        Width::Abbreviated => c.weekdays_abbr[i],
        Width::Narrow => c.weekdays_narrow[i],
    }
}

/// Month names (format context), `month` 1-12.
pub fn month(month: u32, locale: &str, width: Width) -> &'static str {
    let c = cldr(locale);
    let i = (month.clamp(1, 12) - 1) as usize;
    match width {
        Width::Wide => c.months_wide[i],
        Width::Abbreviated | Width::Narrow => c.months_abbr[i],
    }
}

/// How long a name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    Wide,
    Abbreviated,
    Narrow,
}

struct Fields {
    date: Option<NaiveDate>,
    hour: u32,
    minute: u32,
}

/// An ICU pattern (`EEE, MMM d`, `a h:mm`, `HH 'h' mm`) filled from `fields`, in ASCII digits.
fn apply(pattern: &str, c: &Cldr, f: &Fields) -> String {
    let mut out = String::new();
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        if ch == '\'' {
            let end = chars[i + 1..]
                .iter()
                .position(|c| *c == '\'')
                .map_or(chars.len(), |p| i + 1 + p);
            out.extend(&chars[i + 1..end]);
            i = end + 1;
            continue;
        }
        if !ch.is_ascii_alphabetic() {
            out.push(ch);
            i += 1;
            continue;
        }
        let run = chars[i..].iter().take_while(|c| **c == ch).count();
        i += run;
        let d = f.date;
        let h12 = match f.hour % 12 {
            0 => 12,
            h => h,
        };
        match (ch, run) {
            ('y', 2) => out.push_str(&format!("{:02}", d.map_or(0, |d| d.year() % 100))),
            ('y', _) => out.push_str(&d.map_or(0, |d| d.year()).to_string()),
            ('M' | 'L', 1) => out.push_str(&d.map_or(0, |d| d.month()).to_string()),
            ('M' | 'L', 2) => out.push_str(&format!("{:02}", d.map_or(0, |d| d.month()))),
            ('M' | 'L', 3) => out.push_str(c.months_abbr[d.map_or(0, |d| d.month0()) as usize]),
            ('M' | 'L', _) => out.push_str(c.months_wide[d.map_or(0, |d| d.month0()) as usize]),
            ('d', 1) => out.push_str(&d.map_or(0, |d| d.day()).to_string()),
            ('d', _) => out.push_str(&format!("{:02}", d.map_or(0, |d| d.day()))),
            ('E' | 'c', n) => {
                let wd = d.map_or(0, |d| d.weekday().num_days_from_sunday()) as usize;
                out.push_str(match n {
                    4 => c.weekdays_wide[wd],
                    5 => c.weekdays_narrow[wd],
                    _ => c.weekdays_abbr[wd],
                });
            }
            ('h', 1) => out.push_str(&h12.to_string()),
            ('h', _) => out.push_str(&format!("{h12:02}")),
            ('K', 1) => out.push_str(&(f.hour % 12).to_string()),
            ('K', _) => out.push_str(&format!("{:02}", f.hour % 12)),
            ('H', 1) => out.push_str(&f.hour.to_string()),
            ('H', _) => out.push_str(&format!("{:02}", f.hour)),
            ('m', _) => out.push_str(&format!("{:02}", f.minute)),
            ('a', _) => out.push_str(c.am_pm[usize::from(f.hour >= 12)]),
            _ => out.extend(std::iter::repeat_n(ch, run)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_as_cldr_42_writes_them() {
        let d = NaiveDate::from_ymd_opt(2024, 6, 3).expect("date");
        let md = |l| format_date(d, l, DateStyle::MonthDayWeekday);
        assert_eq!(md("en-US"), "Mon, Jun 3");
        assert_eq!(md("ko-KR"), "6월 3일 (월)");
        assert_eq!(md("ja-JP"), "6月3日(月)");
        assert_eq!(md("zh-Hans-CN"), "6月3日周一");
        assert_eq!(md("de-DE"), "Mo., 3. Juni");
        assert_eq!(md("fr-CA"), "lun. 3 juin");
        assert_eq!(md("ru-MD"), "пн, 3 июн.");
        assert_eq!(md("ar-EG"), "الاثنين، ٣ يونيو");
        assert_eq!(md("ar-AE"), "الاثنين، 3 يونيو");
        assert_eq!(md("hi-IN"), "सोम, 3 जून");
        assert_eq!(format_date(d, "en-US", DateStyle::Medium), "Jun 3, 2024");
        assert_eq!(format_date(d, "de-DE", DateStyle::Medium), "03.06.2024");
        assert_eq!(format_date(d, "ko-KR", DateStyle::Short), "24. 6. 3.");
        assert_eq!(format_date(d, "fr-CA", DateStyle::Short), "2024-06-03");
        assert_eq!(
            format_date(d, "pt-BR", DateStyle::Medium),
            "3 de jun. de 2024"
        );
    }

    #[test]
    fn month_and_day_as_lists_show_them() {
        let d = NaiveDate::from_ymd_opt(2024, 6, 3).expect("date");
        let md = |l| format_date(d, l, DateStyle::MonthDay);
        assert_eq!(md("en-US"), "Jun 3");
        assert_eq!(md("fr-CA"), "3 juin");
        assert_eq!(md("de-DE"), "3. Juni");
        assert_eq!(md("pt-PT"), "3/06");
        assert_eq!(md("ja-JP"), "6月3日");
        assert_eq!(md("ko-KR"), "6월 3일");
        assert_eq!(md("ar-EG"), "٣ يونيو");
    }

    #[test]
    fn the_week_starts_where_cldr_says() {
        use Weekday::*;
        for (locale, day) in [
            ("en-US", Sun),
            ("es-US", Sun),
            ("fr-CA", Sun),
            ("zh-Hans-CN", Mon),
            ("hi-IN", Sun),
            ("ja-JP", Sun),
            ("ru-MD", Mon),
            ("ar-AE", Mon),
            ("de-DE", Mon),
            ("ak-GH", Mon),
            ("pt-BR", Sun),
            ("pt-PT", Sun),
            ("ko-KR", Sun),
            ("ur-PK", Sun),
            ("ar-EG", Sat),
            ("fr-FR", Mon),
            ("de", Mon),
            ("ja", Sun),
            ("ar", Sat),
            ("xx", Mon),
        ] {
            assert_eq!(first_day_of_week(locale), day, "{locale}");
        }
    }

    #[test]
    fn times_and_the_locale_clock() {
        assert_eq!(format_time(9, 5, "en-US", false), "9:05 AM");
        assert_eq!(format_time(21, 5, "en-US", true), "21:05");
        assert_eq!(format_time(9, 5, "ko-KR", false), "오전 9:05");
        assert_eq!(format_time(13, 5, "ja-JP", false), "午後1:05");
        assert_eq!(format_time(0, 5, "ja-JP", false), "午前0:05");
        assert_eq!(format_time(14, 30, "zh-Hans-CN", false), "下午2:30");
        assert_eq!(format_time(9, 5, "de-DE", true), "09:05");
        assert_eq!(format_time(9, 5, "es-ES", true), "9:05");
        assert_eq!(format_time(9, 5, "fr-CA", true), "09 h 05");
        assert_eq!(format_time(9, 5, "ar-EG", false), "٩:٠٥ ص");
        assert_eq!(format_time(21, 5, "ar-AE", false), "9:05 م");
        assert_eq!(format_time(9, 5, "es-US", false), "9:05 a.m.");
        for (l, h24) in [
            ("en-US", false),
            ("ko-KR", false),
            ("hi-IN", false),
            ("ar-EG", false),
            ("de-DE", true),
            ("fr-CA", true),
            ("ru-MD", true),
            ("pt-BR", true),
            ("ja-JP", true),
            ("zh-Hans-CN", true),
        ] {
            assert_eq!(default_24h(l), h24, "{l}");
        }
    }
}
