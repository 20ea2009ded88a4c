//! Reading the text Android's shell tools print: `wm size`, `dumpsys activity|window`, package lists,
//! `uiautomator dump` output. Pure functions over strings; unknown shapes give `None`, never a panic.

/// `wm size`: the override size when one is set (that is what apps and input see), else the physical.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScreenSize {
    pub width: i32,
    pub height: i32,
    pub physical_width: i32,
    pub physical_height: i32,
    pub overridden: bool,
}

pub fn wm_size(out: &str) -> Option<ScreenSize> {
    let mut physical = None;
    let mut overridden = None;
    for line in out.lines() {
        let line = line.trim();
        if let Some(v) = line.strip_prefix("Physical size:") {
            physical = parse_wxh(v);
        } else if let Some(v) = line.strip_prefix("Override size:") {
            overridden = parse_wxh(v);
        }
    }
    let (pw, ph) = physical?;
    let (w, h) = overridden.unwrap_or((pw, ph));
    Some(ScreenSize {
        width: w,
        height: h,
        physical_width: pw,
        physical_height: ph,
        overridden: overridden.is_some(),
    })
}

fn parse_wxh(s: &str) -> Option<(i32, i32)> {
    let (w, h) = s.trim().split_once('x')?;
    let (w, h): (i32, i32) = (w.trim().parse().ok()?, h.trim().parse().ok()?);
    (w > 0 && h > 0).then_some((w, h))
}

/// The app and activity in front.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Foreground {
    pub package: String,
    /// Fully qualified activity class (`.Main` expanded against the package).
    pub activity: Option<String>,
}

/// `dumpsys activity activities`: `topResumedActivity=` (Android 10+), `ResumedActivity:` (12+) or
/// `mResumedActivity:` (up to 9), each followed by `ActivityRecord{hash u0 pkg/.Act t12}`.
pub fn resumed_activity(dumpsys: &str) -> Option<Foreground> {
    for key in [
        "topResumedActivity=",
        "ResumedActivity:",
        "mResumedActivity:",
    ] {
        for line in dumpsys.lines() {
            if let Some(pos) = line.find(key) {
                if let Some(fg) = component_in(&line[pos + key.len()..]) {
                    return Some(fg);
                }
            }
        }
    }
    None
}

/// `dumpsys window`: `mCurrentFocus=Window{hash u0 pkg/act}` or `mFocusedApp=ActivityRecord{…}`.
/// Non-app windows (`StatusBar`, `null`) give `None`.
pub fn focused_window(dumpsys: &str) -> Option<Foreground> {
    for key in ["mCurrentFocus=", "mFocusedApp="] {
        for line in dumpsys.lines() {
            if let Some(pos) = line.find(key) {
                if let Some(fg) = component_in(&line[pos + key.len()..]) {
                    return Some(fg);
                }
            }
        }
    }
    None
}

/// Finds the first `pkg/activity` token in a record such as `ActivityRecord{85a52f2 u0 com.x/.Main t12}`.
fn component_in(record: &str) -> Option<Foreground> {
    record
        .split(|c: char| c.is_whitespace() || c == '{' || c == '}')
        .find_map(parse_component)
}

/// `pkg/Activity` or `pkg/.Activity`, validated as Java-ish names.
pub fn parse_component(token: &str) -> Option<Foreground> {
    let (package, activity) = token.trim().split_once('/')?;
    if !is_package_name(package) || activity.is_empty() {
        return None;
    }
    if !activity
        .chars()
        .all(|c| c.is_alphanumeric() || c == '.' || c == '_' || c == '$')
    {
        return None;
    }
    let activity = if let Some(rest) = activity.strip_prefix('.') {
        format!("{package}.{rest}")
    } else {
        activity.to_string()
    };
    Some(Foreground {
        package: package.to_string(),
        activity: Some(activity),
    })
}

/// `com.android.deskclock`: at least two dot-separated segments of `[A-Za-z0-9_]`, starting with a letter.
pub fn is_package_name(s: &str) -> bool {
    let mut segments = 0;
    for seg in s.split('.') {
        let mut chars = seg.chars();
        match chars.next() {
            Some(c) if c.is_ascii_alphabetic() => {}
            _ => return false,
        }
        if !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return false;
        }
        segments += 1;
    }
    segments >= 2
}

/// `cmd package query-activities --brief …`: one `pkg/activity` per launchable activity, in order.
pub fn launcher_activities(out: &str) -> Vec<Foreground> {
    let mut found: Vec<Foreground> = Vec::new();
    for line in out.lines() {
        if let Some(fg) = parse_component(line) {
            if !found.iter().any(|f| f.package == fg.package) {
                found.push(fg);
            }
        }
    }
    found
}

/// `pm list packages`: `package:com.x` (or `package:/path/base.apk=com.x` with `-f`).
pub fn package_list(out: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| l.trim().strip_prefix("package:"))
        .map(|rest| rest.rsplit('=').next().unwrap_or(rest).trim().to_string())
        .filter(|p| is_package_name(p))
        .collect()
}

/// What one `uiautomator dump` produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DumpOutcome {
    /// The XML document (from `<?xml` or `<hierarchy` through `</hierarchy>`).
    Xml(String),
    /// `ERROR: could not get idle state.` and friends: worth retrying.
    Transient(String),
    /// No hierarchy and no known error: reported as it is.
    Garbage(String),
}

/// Splits `uiautomator dump /dev/tty` output (XML then "UI hierchary dumped to: …") into the document.
/// uiautomator exits 0 even when it failed, so the text decides.
pub fn dump_output(out: &str) -> DumpOutcome {
    if let Some(start) = out.find("<hierarchy") {
        let start = out[..start].rfind("<?xml").unwrap_or(start);
        if let Some(end) = out.rfind("</hierarchy>") {
            return DumpOutcome::Xml(out[start..end + "</hierarchy>".len()].to_string());
        }
        // `<hierarchy rotation="0"/>` is a complete (empty) document.
        let rest = &out[start..];
        if let Some(close) = rest.find("/>") {
            let head = &rest[..close];
            if !head.contains('>') {
                return DumpOutcome::Xml(out[start..start + close + 2].to_string());
            }
        }
        return DumpOutcome::Transient(format!("truncated dump: {}", first_line(out)));
    }
    let lower = out.to_ascii_lowercase();
    if lower.contains("could not get idle state")
        || lower.contains("null root node")
        || lower.contains("uiautomationservice")
        || lower.contains("killed")
    {
        DumpOutcome::Transient(first_line(out))
    } else {
        DumpOutcome::Garbage(first_line(out))
    }
}

fn first_line(s: &str) -> String {
    let line = s.trim().lines().next().unwrap_or("").trim();
    if line.is_empty() {
        "empty output".to_string()
    } else {
        line.chars().take(200).collect()
    }
}

/// The value `cmd overlay lookup` printed: one line, and for a reference to another resource
/// (`@string/x -> text`) the text it resolves to.
pub fn resource_value(stdout: &str) -> String {
    let value = stdout.strip_suffix('\n').unwrap_or(stdout);
    match value.split_once(" -> ") {
        Some((reference, resolved)) if reference.starts_with('@') => resolved.to_string(),
        _ => value.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlay_lookup_values() {
        assert_eq!(resource_value("소리 및 진동\n"), "소리 및 진동");
        // A reference to another resource prints both; the text is what it resolves to.
        assert_eq!(
            resource_value("@string/sound_settings -> Sound & vibration\n"),
            "Sound & vibration"
        );
        assert_eq!(resource_value("A -> B\n"), "A -> B");
    }

    #[test]
    fn wm_size_prefers_override() {
        let s = wm_size("Physical size: 1080x2400\n").unwrap();
        assert_eq!((s.width, s.height, s.overridden), (1080, 2400, false));
        let s = wm_size("Physical size: 1080x2400\nOverride size: 720x1600\n").unwrap();
        assert_eq!((s.width, s.height, s.physical_width), (720, 1600, 1080));
        assert!(s.overridden);
        assert_eq!(wm_size("garbage"), None);
        assert_eq!(wm_size("Physical size: 0x-3"), None);
    }

    #[test]
    fn foreground_from_each_android_generation() {
        let q = "  topResumedActivity=ActivityRecord{85a52f2 u0 com.google.android.deskclock/com.android.deskclock.DeskClock t12}";
        let fg = resumed_activity(q).unwrap();
        assert_eq!(fg.package, "com.google.android.deskclock");
        assert_eq!(
            fg.activity.as_deref(),
            Some("com.android.deskclock.DeskClock")
        );
        let s = "    ResumedActivity: ActivityRecord{1 u0 com.android.settings/.Settings t3}";
        assert_eq!(
            resumed_activity(s).unwrap().activity.as_deref(),
            Some("com.android.settings.Settings")
        );
        let p = "    mResumedActivity: ActivityRecord{a u0 com.x.y/.Main t1}";
        assert_eq!(resumed_activity(p).unwrap().package, "com.x.y");
        let w = "  mCurrentFocus=Window{85a52f2 u0 com.pkg.app/com.pkg.app.MainActivity}";
        assert_eq!(focused_window(w).unwrap().package, "com.pkg.app");
        assert_eq!(
            focused_window("  mCurrentFocus=Window{1 u0 StatusBar}"),
            None
        );
        assert_eq!(focused_window("  mCurrentFocus=null"), None);
        assert_eq!(resumed_activity(""), None);
    }

    #[test]
    fn package_lists() {
        let brief = "priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n\
                     com.android.settings/.Settings\n\
                     priority=0 preferredOrder=0\n\
                     com.google.android.deskclock/com.android.deskclock.DeskClock\n";
        let acts = launcher_activities(brief);
        assert_eq!(acts.len(), 2);
        assert_eq!(
            acts[0].activity.as_deref(),
            Some("com.android.settings.Settings")
        );
        assert_eq!(
            package_list("package:com.a.b\npackage:/data/app/x/base.apk=com.c.d\njunk\n"),
            vec!["com.a.b", "com.c.d"]
        );
    }

    #[test]
    fn dump_outcomes() {
        let ok = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\"><node/></hierarchy>UI hierchary dumped to: /dev/tty";
        match dump_output(ok) {
            DumpOutcome::Xml(x) => {
                assert!(x.starts_with("<?xml") && x.ends_with("</hierarchy>"))
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            dump_output("<hierarchy rotation=\"0\"/>"),
            DumpOutcome::Xml(_)
        ));
        assert!(matches!(
            dump_output("ERROR: could not get idle state.\n"),
            DumpOutcome::Transient(_)
        ));
        assert!(matches!(
            dump_output("<hierarchy rotation=\"0\"><node "),
            DumpOutcome::Transient(_)
        ));
        assert!(matches!(dump_output(""), DumpOutcome::Garbage(_)));
    }
}
