//! Finding an app from what a person calls it: "clock", "Uhr", "deskclock", "com.android.settings".
//!
//! Android's shell has no command that prints launcher labels, so names come from three places that
//! work on any phone: well-known labels of common apps in several languages ([`KNOWN_LABELS`]), the
//! words of the package name, and labels learned from the launcher's own screen (a real phone in any
//! locale shows them; the device layer records them when it opens an app through the launcher).

use std::collections::BTreeMap;

/// One launchable app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppEntry {
    pub package: String,
    /// Fully qualified launcher activity, when the package manager told us.
    pub activity: Option<String>,
    /// Names it answers to, best first (the first is shown as its label).
    pub names: Vec<String>,
}

impl AppEntry {
    pub fn label(&self) -> &str {
        self.names
            .first()
            .map(String::as_str)
            .unwrap_or(&self.package)
    }
}

/// Launcher labels of common apps: (package-name fragments, labels in several locales).
const KNOWN_LABELS: &[(&[&str], &[&str])] = &[
    (
        &["deskclock", "clockpackage", ".clock"],
        &[
            "Clock", "Uhr", "Horloge", "Reloj", "Orologio", "Relógio", "Klok", "Zegar", "Часы",
            "時計", "时钟", "時鐘", "시계", "ساعة", "Saat", "Alarm",
        ],
    ),
    (
        &["settings"],
        &[
            "Settings",
            "Einstellungen",
            "Paramètres",
            "Ajustes",
            "Configuración",
            "Impostazioni",
            "Configurações",
            "Instellingen",
            "Ustawienia",
            "Настройки",
            "設定",
            "设置",
            "설정",
            "الإعدادات",
            "Ayarlar",
        ],
    ),
    (
        &["calculator", "calculator2", "popupcalculator"],
        &[
            "Calculator",
            "Rechner",
            "Taschenrechner",
            "Calculatrice",
            "Calculadora",
            "Calcolatrice",
            "Rekenmachine",
            "Kalkulator",
            "Калькулятор",
            "電卓",
            "计算器",
            "계산기",
            "الآلة الحاسبة",
            "Hesap Makinesi",
        ],
    ),
    (
        &["dialer", "phone", "incallui"],
        &[
            "Phone",
            "Telefon",
            "Téléphone",
            "Teléfono",
            "Telefono",
            "Telefone",
            "Telefoon",
            "Телефон",
            "電話",
            "电话",
            "전화",
            "الهاتف",
        ],
    ),
    (
        &["contacts"],
        &[
            "Contacts",
            "Kontakte",
            "Contactos",
            "Contatti",
            "Contatos",
            "Kontakty",
            "Контакты",
            "連絡先",
            "通讯录",
            "联系人",
            "연락처",
            "جهات الاتصال",
            "Kişiler",
        ],
    ),
    (
        &["messaging", "mms", ".messages"],
        &[
            "Messages",
            "Nachrichten",
            "Mensajes",
            "Messaggi",
            "Mensagens",
            "Berichten",
            "Wiadomości",
            "Сообщения",
            "メッセージ",
            "信息",
            "短信",
            "메시지",
            "الرسائل",
            "SMS",
        ],
    ),
    // Simple SMS Messenger, AndroidWorld's texting app (labelled "SMS Messenger").
    (
        &["smsmessenger"],
        &["SMS Messenger", "Simple SMS Messenger"],
    ),
    // Simple Calendar Pro, AndroidWorld's calendar: its launcher label is "Calendar" too, so
    // what a goal calls it is what tells it from Google Calendar.
    (
        &["simplemobiletools.calendar"],
        &["Simple Calendar Pro", "Simple Calendar"],
    ),
    (
        &["calendar"],
        &[
            "Calendar",
            "Kalender",
            "Calendrier",
            "Calendario",
            "Calendário",
            "Kalendarz",
            "Календарь",
            "カレンダー",
            "日历",
            "캘린더",
            "التقويم",
            "Takvim",
        ],
    ),
    (
        &["camera", "camera2"],
        &[
            "Camera",
            "Kamera",
            "Caméra",
            "Cámara",
            "Fotocamera",
            "Câmera",
            "Камера",
            "カメラ",
            "相机",
            "카메라",
        ],
    ),
    (
        &["chrome", "browser"],
        &[
            "Chrome",
            "Browser",
            "Navigateur",
            "Navegador",
            "Браузер",
            "ブラウザ",
            "浏览器",
            "브라우저",
        ],
    ),
    // Simple Gallery Pro before the stock gallery entry: its package also has a `gallery` segment.
    (
        &["simplemobiletools.gallery"],
        &["Gallery", "Simple Gallery Pro", "Simple Gallery"],
    ),
    (
        &["photos", "gallery"],
        &[
            "Photos",
            "Fotos",
            "Galerie",
            "Galería",
            "Galleria",
            "Gallery",
            "Фото",
            "フォト",
            "相册",
            "갤러리",
        ],
    ),
    (
        &["documentsui", "files"],
        &[
            "Files",
            "Dateien",
            "Fichiers",
            "Archivos",
            "File",
            "Arquivos",
            "Файлы",
            "ファイル",
            "文件",
            "파일",
        ],
    ),
    (&["vending"], &["Play Store", "Google Play", "Play Market"]),
    // AndroidWorld's sideloaded record apps, whose labels share no word with their packages'.
    (&["arduia"], &["Pro Expense"]),
    (&["flauschcode"], &["Broccoli"]),
    (&["gsantner"], &["Markor"]),
    (&["org.tasks"], &["Tasks"]),
    (&["dimowner"], &["Audio Recorder"]),
    (&["osmand"], &["OsmAnd", "OsmAnd Maps"]),
    (&["joplin"], &["Joplin"]),
    (&["dennisguse"], &["OpenTracks"]),
    (&["retromusic"], &["Retro Music", "Retro"]),
    (&["videolan"], &["VLC", "VLC for Android"]),
    (
        &["simplemobiletools.draw"],
        &["Draw", "Simple Draw Pro", "Simple Draw"],
    ),
    (
        &["gm", "email"],
        &[
            "Gmail",
            "Email",
            "E-Mail",
            "Correo",
            "Почта",
            "メール",
            "邮件",
            "이메일",
        ],
    ),
    (
        &["maps"],
        &[
            "Maps",
            "Karten",
            "Plans",
            "Mapas",
            "Mappe",
            "Карты",
            "マップ",
            "地图",
            "지도",
        ],
    ),
];

/// Every name an app answers to: learned labels first, then known labels, then package words.
pub fn names_for(package: &str, learned: &BTreeMap<String, String>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    if let Some(label) = learned.get(package) {
        names.push(label.clone());
    }
    let lower = package.to_ascii_lowercase();
    for (fragments, labels) in KNOWN_LABELS {
        let hit = fragments.iter().any(|f| {
            if let Some(seg) = f.strip_prefix('.') {
                lower.split('.').any(|s| s == seg)
            } else if f.contains('.') {
                // A run of segments: this vendor's app of that name.
                lower.contains(f)
            } else {
                lower.split('.').any(|s| s == *f)
            }
        });
        if hit {
            names.extend(labels.iter().map(|l| l.to_string()));
            break;
        }
    }
    // Words of the package name, skipping the reverse-domain noise.
    for seg in package.split('.').skip(1) {
        if !matches!(
            seg,
            "android" | "google" | "apps" | "app" | "com" | "org" | "sec"
        ) {
            names.push(seg.to_string());
        }
    }
    names.push(package.to_string());
    let mut seen = std::collections::HashSet::new();
    names.retain(|n| seen.insert(n.to_lowercase()));
    names
}

/// Lowercases and drops everything but letters and digits, so "Play-Store " matches "playstore".
fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// How well `query` names `candidate`, 0.0–1.0 (1.0: equal after folding).
pub fn name_score(query: &str, candidate: &str) -> f64 {
    let (q, c) = (fold(query), fold(candidate));
    if q.is_empty() || c.is_empty() {
        return 0.0;
    }
    if q == c {
        return 1.0;
    }
    let mut score = strsim::jaro_winkler(&q, &c);
    if c.starts_with(&q) || q.starts_with(&c) {
        let shorter = q.chars().count().min(c.chars().count()) as f64;
        let longer = q.chars().count().max(c.chars().count()) as f64;
        score = score.max(0.85 + 0.1 * shorter / longer);
    }
    score
}

/// A scored candidate for a query.
#[derive(Debug, Clone, PartialEq)]
pub struct AppMatch {
    pub entry: AppEntry,
    pub score: f64,
    /// The name that matched.
    pub name: String,
}

/// Below this, a match is a suggestion, never a launch.
pub const CONFIDENT: f64 = 0.88;

/// Ranks apps against a query, best first.
pub fn rank(query: &str, apps: &[AppEntry]) -> Vec<AppMatch> {
    let mut out: Vec<AppMatch> = apps
        .iter()
        .filter_map(|app| {
            app.names
                .iter()
                .map(|n| (name_score(query, n), n))
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(score, name)| AppMatch {
                    entry: app.clone(),
                    score,
                    name: name.clone(),
                })
        })
        .collect();
    out.sort_by(|a, b| b.score.total_cmp(&a.score));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app(pkg: &str) -> AppEntry {
        AppEntry {
            package: pkg.into(),
            activity: None,
            names: names_for(pkg, &BTreeMap::new()),
        }
    }

    fn best(query: &str) -> (String, f64) {
        let apps = [
            app("com.google.android.deskclock"),
            app("com.android.settings"),
            app("com.google.android.calculator"),
            app("com.google.android.dialer"),
            app("com.google.android.contacts"),
            app("com.google.android.apps.messaging"),
            app("com.google.android.calendar"),
            app("com.simplemobiletools.calendar.pro"),
        ];
        let m = rank(query, &apps).into_iter().next().unwrap();
        (m.entry.package, m.score)
    }

    #[test]
    fn labels_in_several_languages_find_the_app() {
        for (q, pkg) in [
            ("clock", "com.google.android.deskclock"),
            ("Uhr", "com.google.android.deskclock"),
            ("시계", "com.google.android.deskclock"),
            ("Einstellungen", "com.android.settings"),
            ("calc", "com.google.android.calculator"),
            ("messages", "com.google.android.apps.messaging"),
            ("com.android.settings", "com.android.settings"),
            ("deskclock", "com.google.android.deskclock"),
            ("Calender", "com.google.android.calendar"),
            ("Calendar", "com.google.android.calendar"),
            ("Simple Calendar Pro", "com.simplemobiletools.calendar.pro"),
            ("simple calendar", "com.simplemobiletools.calendar.pro"),
        ] {
            let (got, score) = best(q);
            assert_eq!(got, pkg, "query {q}");
            assert!(score >= CONFIDENT, "query {q}: score {score}");
        }
    }

    #[test]
    fn unrelated_queries_are_not_confident() {
        let (_, score) = best("spreadsheet");
        assert!(score < CONFIDENT, "{score}");
    }

    #[test]
    fn learned_label_comes_first() {
        let mut learned = BTreeMap::new();
        learned.insert("com.x.notes".to_string(), "Notizen".to_string());
        let names = names_for("com.x.notes", &learned);
        assert_eq!(names[0], "Notizen");
        assert!(names.contains(&"notes".to_string()));
    }
}
