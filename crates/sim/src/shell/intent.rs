//! Intents as `am`, `cmd package` and `monkey` build them from command-line arguments
//! (`Intent.parseCommandArgs`), how Android 14 prints them, and which installed activity handles one.

use crate::app;
use crate::apps;
use crate::framework::Framework;

/// An intent as `am` builds it from the command line.
#[derive(Debug, Default, Clone)]
pub struct Intent {
    pub action: Option<String>,
    pub categories: Vec<String>,
    pub data: Option<String>,
    pub mime: Option<String>,
    pub component: Option<(String, String)>,
    pub package: Option<String>,
    pub extras: Vec<(String, String)>,
    pub flags: Option<String>,
}

impl Intent {
    /// `act=… cat=[…] dat=… typ=… flg=… cmp=…` as Intent.toShortString prints it.
    pub fn describe(&self, flags: Option<&str>) -> String {
        let mut parts = Vec::new();
        if let Some(a) = &self.action {
            parts.push(format!("act={a}"));
        }
        if !self.categories.is_empty() {
            parts.push(format!("cat=[{}]", self.categories.join(",")));
        }
        if let Some(d) = &self.data {
            parts.push(format!("dat={d}"));
        }
        if let Some(t) = &self.mime {
            parts.push(format!("typ={t}"));
        }
        if let Some(f) = flags.map(str::to_string).or_else(|| self.flags.clone()) {
            parts.push(format!("flg={f}"));
        }
        if let Some(p) = &self.package {
            if self.component.is_none() {
                parts.push(format!("pkg={p}"));
            }
        }
        if let Some((p, a)) = &self.component {
            parts.push(format!("cmp={}", Framework::short_component(p, a)));
        }
        if !self.extras.is_empty() {
            parts.push("(has extras)".into());
        }
        parts.join(" ")
    }

    pub fn extra(&self, key: &str) -> Option<&str> {
        self.extras
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Parses `am` intent arguments; returns the intent and the flags that were not intent parts.
pub fn parse_intent(args: &[String]) -> Result<(Intent, Vec<String>), String> {
    let mut intent = Intent::default();
    let mut other = Vec::new();
    let mut i = 0;
    let value = |i: &mut usize, opt: &str| -> Result<String, String> {
        *i += 1;
        args.get(*i - 1)
            .cloned()
            .ok_or_else(|| format!("Error: No value specified for {opt}"))
    };
    while let Some(a) = args.get(i) {
        i += 1;
        match a.as_str() {
            "-a" => intent.action = Some(value(&mut i, a)?),
            "-c" => intent.categories.push(value(&mut i, a)?),
            "-d" => intent.data = Some(value(&mut i, a)?),
            "-t" => intent.mime = Some(value(&mut i, a)?),
            "-f" => intent.flags = Some(value(&mut i, a)?),
            "-p" => intent.package = Some(value(&mut i, a)?),
            "-n" => {
                let c = value(&mut i, a)?;
                intent.component = Some(
                    split_component(&c).ok_or_else(|| format!("Error: Bad component name: {c}"))?,
                );
            }
            "--es" | "--ei" | "--ez" | "--el" | "--ef" | "--eu" | "--ecn" | "--eia" | "--esa"
            | "-e" => {
                let k = value(&mut i, a)?;
                let v = value(&mut i, a)?;
                intent.extras.push((k, v));
            }
            "--esn" => {
                let k = value(&mut i, a)?;
                intent.extras.push((k, String::new()));
            }
            "--user"
            | "--display"
            | "--windowingMode"
            | "--activityType"
            | "-P"
            | "--start-profiler"
            | "--receiver-permission" => {
                value(&mut i, a)?;
            }
            s if s.starts_with('-') => other.push(s.to_string()),
            // A bare argument: a URI (with `:`), or else a component or package whose launcher
            // activity is meant (MAIN/LAUNCHER), as `Intent.parseCommandArgs` reads it.
            s if s.contains(':') => intent.data = Some(s.to_string()),
            s => {
                if s.contains('/') {
                    intent.component = Some(
                        split_component(s)
                            .ok_or_else(|| format!("Error: Bad component name: {s}"))?,
                    );
                } else {
                    intent.package = Some(s.to_string());
                }
                intent
                    .action
                    .get_or_insert_with(|| "android.intent.action.MAIN".into());
                if !intent.categories.iter().any(|c| c == LAUNCHER_CATEGORY) {
                    intent.categories.push(LAUNCHER_CATEGORY.into());
                }
            }
        }
    }
    Ok((intent, other))
}

/// `pkg/.Act` or `pkg/full.Class` → (package, fully qualified class).
pub fn split_component(s: &str) -> Option<(String, String)> {
    let (p, a) = s.split_once('/')?;
    if p.is_empty() || a.is_empty() {
        return None;
    }
    let class = if a.starts_with('.') {
        format!("{p}{a}")
    } else {
        a.to_string()
    };
    Some((p.to_string(), class))
}

/// The package that handles an implicit intent's action on this phone.
pub fn resolve_action(fw: &Framework, intent: &Intent) -> Option<&'static str> {
    if let Some(p) = &intent.package {
        return fw.app_info(p).map(|a| a.package);
    }
    let action = intent.action.as_deref()?;
    let package = match action {
        "android.intent.action.MAIN"
            if intent
                .categories
                .iter()
                .any(|c| c == "android.intent.category.HOME") =>
        {
            apps::launcher::PACKAGE
        }
        a if a.starts_with("android.settings.") => apps::settings::PACKAGE,
        "android.intent.action.DIAL" | "android.intent.action.CALL" => apps::dialer::PACKAGE,
        // SmsApplication makes the SMS role's holder the preferred SENDTO activity for these
        // schemes.
        "android.intent.action.SENDTO" if is_sms_uri(intent.data.as_deref()) => sms_app(fw),
        "android.intent.action.SENDTO" | "android.intent.action.SEND" => apps::messages::PACKAGE,
        "android.intent.action.INSERT" | "android.intent.action.EDIT" => {
            match intent.mime.as_deref().or(intent.data.as_deref()) {
                Some(t) if t.contains("event") || t.contains("calendar") => apps::calendar::PACKAGE,
                _ => apps::contacts::PACKAGE,
            }
        }
        "android.intent.action.SET_ALARM"
        | "android.intent.action.SET_TIMER"
        | "android.intent.action.SHOW_ALARMS" => apps::clock::PACKAGE,
        "android.intent.action.VIEW" => {
            let d = intent.data.as_deref().unwrap_or("");
            if d.starts_with("tel:") {
                apps::dialer::PACKAGE
            } else if d.starts_with("sms:") || d.starts_with("smsto:") {
                apps::messages::PACKAGE
            } else if d.starts_with("content://contacts") {
                apps::contacts::PACKAGE
            } else if d.starts_with("content://com.android.calendar") {
                apps::calendar::PACKAGE
            } else if browsable(d) {
                apps::browser::PACKAGE
            } else {
                return None;
            }
        }
        _ => return None,
    };
    Some(package)
}

/// A `sms:`, `smsto:`, `mms:` or `mmsto:` address (`SmsApplication.configurePreferredActivity`).
fn is_sms_uri(data: Option<&str>) -> bool {
    data.and_then(|d| d.split_once(':'))
        .is_some_and(|(scheme, _)| matches!(scheme, "sms" | "smsto" | "mms" | "mmsto"))
}

/// The default SMS app: the SMS role's holder when it is installed, else Messages.
fn sms_app(fw: &Framework) -> &'static str {
    fw.sys
        .roles
        .sms_holder()
        .and_then(|p| fw.app_info(p))
        .map_or(apps::messages::PACKAGE, |a| a.package)
}

/// An address a browser's VIEW filter accepts: `http`/`https`, or a local page (a `file://`
/// address, or a shared-storage document as a file manager hands it over).
fn browsable(data: &str) -> bool {
    let lower = data.to_ascii_lowercase();
    lower.starts_with("http://")
        || lower.starts_with("https://")
        || apps::browser::local_path(data).is_some()
}

const LAUNCHER_CATEGORY: &str = "android.intent.category.LAUNCHER";

impl Intent {
    /// What the framework delivers to the app: action, categories, data, type and extras.
    pub fn to_app(&self) -> app::Intent {
        app::Intent {
            action: self.action.clone(),
            categories: self.categories.clone(),
            data: self.data.clone(),
            mime: self.mime.clone(),
            extras: self.extras.clone(),
        }
    }

    /// Whether this is the launcher's MAIN/LAUNCHER query (optionally limited to one package).
    pub fn is_launcher_query(&self) -> bool {
        self.action
            .as_deref()
            .is_none_or(|a| a == "android.intent.action.MAIN")
            && self.categories.iter().any(|c| c == LAUNCHER_CATEGORY)
            && self.data.is_none()
    }
}

/// The installed apps whose activities match an intent, as `PackageManager.queryIntentActivities`
/// returns them (the home app has no LAUNCHER activity, so launcher queries never list it).
pub fn matching_apps<'a>(fw: &'a Framework, intent: &Intent) -> Vec<&'a app::AppInfo> {
    let in_package = |a: &&app::AppInfo| intent.package.as_deref().is_none_or(|p| p == a.package);
    if let Some((p, class)) = &intent.component {
        return fw
            .catalog
            .iter()
            .filter(|a| a.package == p && apps::starts_by_name(a, class))
            .collect();
    }
    if intent.is_launcher_query() {
        return fw
            .catalog
            .iter()
            .filter(|a| a.package != apps::launcher::PACKAGE)
            .filter(in_package)
            .collect();
    }
    match resolve_action(fw, intent) {
        Some(p) => fw.catalog.iter().filter(|a| a.package == p).collect(),
        None => Vec::new(),
    }
}
