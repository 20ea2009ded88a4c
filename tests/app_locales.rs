//! Contacts, Phone, Messages, Calendar and Settings in the phone's language (B-MoCA's locales),
//! and the goldens of their tasks that must survive it: they aim by resource id, role or a string
//! resource the phone resolves in its language, never by a string the apps translate.

use std::collections::BTreeSet;
use std::sync::Arc;

use droidmcp::device::Shell;
use droidmcp::env::Environment;
use droidmcp::episode::replay::{run_instance, Solution};
use droidmcp::hierarchy::{Criterion, Matcher};
use droidmcp::task::near_miss::NearMissSpec;
use droidmcp::task::{Action, Catalog, Task};

use crate::util::task;

/// The packages whose strings this area translates, and the task files whose goldens drive them.
const PACKAGES: &[&str] = &[
    "com.google.android.contacts",
    "com.google.android.dialer",
    "com.google.android.apps.messaging",
    "com.google.android.calendar",
    "com.android.settings",
];
const TASK_FILES: &[&str] = &[
    "contacts",
    "phone",
    "messages",
    "calendar",
    "calendar_dates",
    "calls_and_texts",
    "cross_app",
    "constrained",
    "settings",
    "settings_verify",
];

fn boot(env: &str) -> droidmcp::sim::Phone {
    let env = Environment::resolve(env).unwrap();
    droidmcp::sim::Phone::new(env.sim_config(0, droidmcp::sim::ClockMode::Virtual)).expect("boots")
}

fn dump_of(phone: &droidmcp::sim::Phone, package: &str) -> String {
    let out = phone.exec(&format!(
        "monkey -p {package} -c android.intent.category.LAUNCHER 1"
    ));
    assert!(out.success(), "{package}: {}", out.stderr_text());
    let out = phone.exec("uiautomator dump /dev/tty");
    assert!(out.success());
    out.stdout_text()
}

fn screencap(phone: &droidmcp::sim::Phone, name: &str) {
    let out = phone.exec("screencap -p");
    let dir = crate::util::shared_dir().join("app_locales");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join(format!("{name}.png")), &out.stdout);
}

#[test]
fn korean_contacts_phone_messages_and_calendar_in_105() {
    let ko = boot("105");
    let contacts = dump_of(&ko, "com.google.android.contacts");
    assert!(
        contacts.contains("content-desc=\"연락처 만들기\""),
        "Korean Create contact: {contacts}"
    );
    assert!(contacts.contains("연락처 검색"), "Korean search bar");
    assert!(!contacts.contains("Search contacts"), "no English left");
    screencap(&ko, "105-contacts");

    let messages = dump_of(&ko, "com.google.android.apps.messaging");
    assert!(
        messages.contains("채팅 시작"),
        "Korean Start chat: {messages}"
    );
    screencap(&ko, "105-messages");

    let calendar = dump_of(&ko, "com.google.android.calendar");
    // June 2024 on the default clock: the title, a day's description and the weekday header.
    assert!(
        calendar.contains("text=\"6월\""),
        "Korean month: {calendar}"
    );
    assert!(
        calendar.contains("2024년 6월 5일 수요일, 일정 없음"),
        "Korean day cell: {calendar}"
    );
    assert!(calendar.contains("text=\"수\""), "Korean weekday initial");
    screencap(&ko, "105-calendar");

    let dialer = dump_of(&ko, "com.google.android.dialer");
    assert!(dialer.contains("최근 기록"), "Korean Recents tab: {dialer}");
}

#[test]
fn arabic_and_hindi_calendar_and_contacts() {
    let ar = boot("109");
    let calendar = dump_of(&ar, "com.google.android.calendar");
    assert!(calendar.contains("يونيو"), "Arabic month: {calendar}");
    screencap(&ar, "109-calendar");
    let contacts = dump_of(&ar, "com.google.android.contacts");
    assert!(
        contacts.contains("إنشاء جهة اتصال"),
        "Arabic Create contact"
    );
    screencap(&ar, "109-contacts");

    let hi = boot("027");
    let messages = dump_of(&hi, "com.google.android.apps.messaging");
    assert!(
        messages.contains("चैट शुरू करें"),
        "Hindi Start chat: {messages}"
    );
    screencap(&hi, "027-messages");
}

/// Every English string of the translated apps (`res/<package>/values/strings.xml`).
fn english_ui_strings() -> BTreeSet<String> {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/sim/res");
    let re = regex::Regex::new(r#"<(?:string|item)[^>]*>([^<]+)</(?:string|item)>"#).unwrap();
    let mut out = BTreeSet::new();
    for package in PACKAGES {
        let xml = std::fs::read_to_string(root.join(package).join("values/strings.xml"))
            .unwrap_or_else(|e| panic!("{package}: {e}"));
        for c in re.captures_iter(&xml) {
            let text = c[1].replace("\\'", "'").replace("&amp;", "&");
            // Format strings: the fixed words around the arguments.
            for part in regex::Regex::new(r"%\d\$[sd]").unwrap().split(&text) {
                let part = part.trim_matches(|c: char| c.is_whitespace() || c == ',' || c == ':');
                if part.chars().filter(|c| c.is_alphabetic()).count() >= 2 {
                    out.insert(part.to_string());
                }
            }
        }
    }
    out
}

fn selector_strings(action: &Action) -> Vec<String> {
    let selectors = match action {
        Action::Tap(s) | Action::LongPress(s) | Action::TapAt { selector: s, .. } => vec![s],
        Action::ScrollTo { selector, .. } => vec![selector],
        Action::Type { into: Some(s), .. } => vec![s],
        _ => vec![],
    };
    selectors
        .into_iter()
        .flat_map(|s| s.criteria.iter())
        .filter_map(|c| match c {
            Criterion::Text(m) | Criterion::Desc(m) | Criterion::Hint(m) | Criterion::Any(m) => {
                match m {
                    Matcher::Exact(v) | Matcher::Contains(v) => Some(v.clone()),
                    Matcher::Regex(r) => Some(r.as_str().to_string()),
                    // A string resource is resolved in the phone's language.
                    Matcher::Resource { .. } => None,
                }
            }
            _ => None,
        })
        .collect()
}

/// No golden, wrong or detour step of these tasks names an element by a string the apps translate
/// (a label, a hint, a description): it would find nothing on a phone in another language.
#[test]
fn goldens_aim_by_id_or_role_not_by_translated_text() {
    let english = english_ui_strings();
    assert!(english.contains("Create contact") && english.contains("Add title"));
    assert!(english.contains("Sound & vibration") && english.contains("Vibrate for calls"));
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tasks");
    let mut bad = Vec::new();
    let (catalog, errors) = Catalog::load_dir(&dir);
    assert!(errors.is_empty(), "{errors:?}");
    for file in TASK_FILES {
        let stem = |t: &Task| t.file.file_stem().map(|s| s.to_string_lossy().into_owned());
        for task in catalog.iter().filter(|t| stem(t).as_deref() == Some(*file)) {
            let detours = task.near_miss.iter().flat_map(|n| match n {
                NearMissSpec::Breaks { actions, .. } => actions.as_slice(),
                _ => &[],
            });
            let steps = task
                .golden
                .iter()
                .chain(task.wrong.iter().flatten())
                .chain(detours);
            for action in steps {
                for value in selector_strings(action) {
                    let hit = english.iter().find(|e| {
                        value.eq_ignore_ascii_case(e)
                            || (value.len() >= 4
                                && e.to_lowercase().starts_with(&value.to_lowercase()))
                    });
                    if let Some(e) = hit {
                        bad.push(format!("{}: {value:?} is the UI string {e:?}", task.id));
                    }
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "goldens aim by translated text:\n{}",
        bad.join("\n")
    );
}

async fn phone(env: &str) -> Arc<dyn Shell> {
    droidmcp::fleet::open(Some(&format!("sim:0@{env}")), None)
        .await
        .unwrap_or_else(|e| panic!("sim in env {env}: {e}"))
}

/// Goldens that used to aim by English text (the editor's hints and Save, the label dropdown's
/// row, the call log's call button, the in-call Hold button, Calendar's day cells and Delete)
/// succeed on Korean (105, dense) and Arabic (109, tablet, right to left) phones.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn former_text_goldens_pass_in_korean_and_arabic() {
    let ids = [
        "aw.contacts.new_contact_draft",
        "aw.phone.redial",
        "aw.calendar.delete_one_event",
        // Settings rows have no ids of their own: string-resource selectors.
        "bmoca.settings.app_info_list",
        "aw.settings.wifi_off_bluetooth_on",
        "constrained.display_toggle_without_network_page",
        "aw.settings.brightness_max_verify",
    ];
    let mut failures = Vec::new();
    for id in ids {
        let task = task(id);
        for env in ["105", "109"] {
            let r = run_instance(&task, 0, phone(env).await, None, Solution::Golden).await;
            let ok = matches!(&r, Ok(r) if r.verdict.success && r.verdict.score >= 1.0);
            if !ok {
                failures.push(format!("{id} in {env}: {r:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Settings speaks the phone's language, and a selector naming a Settings string resource finds
/// the Korean row in environment 105: the session resolves it on the phone each time it aims.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_in_korean_and_a_resource_selector_finds_its_row() {
    let ko = boot("105");
    let home = dump_of(&ko, "com.android.settings");
    for korean in ["설정 검색", "네트워크 및 인터넷", "연결된 기기", "배터리"] {
        assert!(home.contains(korean), "Korean {korean}: {home}");
    }
    assert!(!home.contains("Network &amp; internet"), "no English left");
    screencap(&ko, "105-settings");

    use droidmcp::session::{Action, Control, DevicePool, Direction, Session, Target};
    let pool = Arc::new(DevicePool::new(Some("phone".into()), None));
    pool.insert("phone", phone("105").await);
    let s = Session::open(pool, "test", None).await.unwrap();
    let act = |a| {
        let s = &s;
        async move { s.act(a, None, &Control::default()).await }
    };
    act(Action::OpenApp {
        app: "settings".into(),
    })
    .await
    .unwrap();
    let sound = || {
        Target::Selector(
            "text:@com.android.settings:string/sound_settings"
                .parse()
                .unwrap(),
        )
    };
    act(Action::Scroll {
        direction: Direction::Down,
        container: None,
        until: Some(sound()),
        max_swipes: 10,
    })
    .await
    .unwrap();
    let out = act(Action::Tap(sound())).await.unwrap();
    assert!(
        out.target
            .as_ref()
            .is_some_and(|e| e.describe().contains("소리 및 진동")),
        "{out:?}"
    );
    let xml = s.hierarchy_xml(&Control::default()).await.unwrap();
    assert!(
        xml.contains("미디어 볼륨") && xml.contains("content-desc=\"위로 이동\""),
        "the Sound page in Korean: {xml}"
    );
}
