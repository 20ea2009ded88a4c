//! Settings and content providers from the shell: `settings`, `content`, `media volume`, `svc`.

use crate::framework::Framework;
use crate::providers;
use crate::system::{Namespace, Stream};
use droidmcp_device::ShellOutput;

const SETTINGS_USAGE: &str = "Settings provider (settings) commands:
  help
      Print this help text.
  get [--user <USER_ID> | current] NAMESPACE KEY
      Retrieve the current value of KEY.
  put [--user <USER_ID> | current] NAMESPACE KEY VALUE [TAG] [default]
      Change the contents of KEY to VALUE.
      TAG to associate with the setting.
      {default} to set as the default, case-insensitive only for global/secure namespace
  delete [--user <USER_ID> | current] NAMESPACE KEY
      Delete the entry for KEY.
  reset [--user <USER_ID> | current] NAMESPACE {PACKAGE_NAME | RESET_MODE}
      Reset the global/secure table for a package with mode.
      RESET_MODE is one of {untrusted_defaults, untrusted_clear, trusted_defaults}, case-insensitive
  list [--user <USER_ID> | current] NAMESPACE
      Print all defined keys.
      NAMESPACE is one of {system, secure, global}, case-insensitive
";

fn usage(err: &str) -> ShellOutput {
    ShellOutput::fail(format!("{err}{SETTINGS_USAGE}"), 255)
}

pub fn settings(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let mut words: Vec<&str> = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if a == "--user" {
            i += 1;
            continue;
        }
        words.push(a.as_str());
    }
    let Some(verb) = words.first().copied() else {
        return usage("");
    };
    if verb == "help" {
        return ShellOutput::ok(SETTINGS_USAGE);
    }
    let Some(ns) = words
        .get(1)
        .and_then(|n| Namespace::parse(&n.to_ascii_lowercase()))
    else {
        return usage(&format!(
            "Invalid namespace '{}'\n",
            words.get(1).copied().unwrap_or("")
        ));
    };
    match (verb, words.len()) {
        ("get", 3) => {
            let v = fw
                .sys
                .settings
                .get(ns, words[2])
                .unwrap_or("null")
                .to_string();
            ShellOutput::ok(format!("{v}\n"))
        }
        ("put", 4..=6) => {
            fw.sys.put_setting(ns, words[2], words[3]);
            if words[2] == "font_scale" {
                fw.refresh_metrics();
            }
            if (ns, words[2], words[3]) == (Namespace::Global, "auto_time", "1") {
                fw.sys.clock.network_time();
            }
            ShellOutput::ok(Vec::new())
        }
        ("delete", 3) => {
            let n = fw.sys.delete_setting(ns, words[2]) as u8;
            ShellOutput::ok(format!("Deleted {n} rows\n"))
        }
        ("list", 2) => {
            let mut s = String::new();
            for (k, v) in fw.sys.settings.list(ns) {
                s.push_str(&format!("{k}={v}\n"));
            }
            ShellOutput::ok(s)
        }
        ("reset", 3) => ShellOutput::ok(Vec::new()),
        ("get" | "put" | "delete" | "list" | "reset", _) => usage("Bad arguments\n"),
        _ => usage(&format!("Invalid command: {verb}\n")),
    }
}

/// Parses a simple `name='x'` / `name="x"` / `name=x` selection (optionally with `AND`).
fn parse_where(selection: &str) -> Vec<(String, String)> {
    selection
        .split(" AND ")
        .flat_map(|c| c.split(" and "))
        .filter_map(|cond| {
            let (k, v) = cond.split_once('=')?;
            let v = v.trim().trim_matches(['\'', '"']);
            Some((k.trim().to_string(), v.to_string()))
        })
        .collect()
}

/// How `content` reports a provider's exception: the authority it reached, then the exception.
fn provider_failure(uri: &str, e: &providers::ProviderError) -> ShellOutput {
    let authority = uri
        .strip_prefix("content://")
        .and_then(|r| r.split('/').next())
        .unwrap_or(uri);
    ShellOutput::fail(
        format!(
            "Error while accessing provider:{authority}\njava.lang.IllegalArgumentException: {e}\n"
        ),
        1,
    )
}

pub fn content(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let verb = args.first().map(String::as_str).unwrap_or("");
    let mut uri = None;
    let mut projection: Option<Vec<String>> = None;
    let mut selection = None;
    let mut sort = None;
    let mut binds = Vec::new();
    let mut i = 1;
    while let Some(a) = args.get(i) {
        i += 1;
        let value = args.get(i).cloned();
        match a.as_str() {
            "--uri" => uri = value,
            "--projection" => {
                projection = value.map(|p| p.split(':').map(str::to_string).collect())
            }
            "--where" => selection = value,
            "--sort" => sort = value,
            "--user" => {}
            "--bind" => {
                if let Some(b) = value {
                    binds.push(b);
                }
            }
            _ => continue,
        }
        i += 1;
    }
    let Some(uri) = uri else {
        return ShellOutput::fail(
            "usage: adb shell content [subcommand] [options]\n\nusage: adb shell content query --uri <URI> [--user <USER_ID>] [--projection <PROJECTION>] [--where <WHERE>] [--sort <SORT_ORDER>]\n",
            255,
        );
    };
    let settings_ns = uri.strip_prefix("content://settings/").map(|rest| {
        let (ns, key) = rest.split_once('/').unwrap_or((rest, ""));
        (Namespace::parse(ns), key.to_string())
    });
    match verb {
        "query" => {
            let rows: Vec<providers::Row> = match &settings_ns {
                Some((Some(ns), key)) => {
                    let filters = selection.as_deref().map(parse_where).unwrap_or_default();
                    fw.sys
                        .settings
                        .list(*ns)
                        .enumerate()
                        .filter(|(_, (k, _))| key.is_empty() || k == key)
                        .map(|(idx, (k, v))| {
                            vec![
                                ("_id".to_string(), (idx + 1).to_string()),
                                ("name".to_string(), k.to_string()),
                                ("value".to_string(), v.to_string()),
                            ]
                        })
                        .filter(|row| {
                            filters
                                .iter()
                                .all(|(fk, fv)| row.iter().any(|(c, v)| c == fk && v == fv))
                        })
                        .collect()
                }
                Some((None, _)) => {
                    return ShellOutput::fail(
                        format!("Error while accessing provider:settings\njava.lang.IllegalArgumentException: Invalid URI: {uri}\n"),
                        1,
                    )
                }
                None => match providers::query(&fw.sys, &uri, projection.as_deref(), selection.as_deref(), sort.as_deref()) {
                    Ok(rows) => rows,
                    Err(e) => return provider_failure(&uri, &e),
                },
            };
            if rows.is_empty() {
                return ShellOutput::ok("No result found.\n");
            }
            let mut s = String::new();
            for (n, row) in rows.iter().enumerate() {
                let cols: Vec<String> = row
                    .iter()
                    .filter(|(c, _)| {
                        settings_ns.is_none() || projection.as_ref().is_none_or(|p| p.contains(c))
                    })
                    .map(|(c, v)| format!("{c}={v}"))
                    .collect();
                s.push_str(&format!("Row: {n} {}\n", cols.join(", ")));
            }
            ShellOutput::ok(s)
        }
        "insert" | "update" => {
            let Some((Some(ns), _)) = settings_ns else {
                return ShellOutput::fail(format!("Error while accessing provider\njava.lang.UnsupportedOperationException: {verb} {uri}\n"), 1);
            };
            let mut name = None;
            let mut value = None;
            for b in &binds {
                let mut parts = b.splitn(3, ':');
                let (col, _ty, v) = (
                    parts.next().unwrap_or(""),
                    parts.next(),
                    parts.next().unwrap_or(""),
                );
                match col {
                    "name" => name = Some(v.to_string()),
                    "value" => value = Some(v.to_string()),
                    _ => {}
                }
            }
            if name.is_none() {
                if let Some(w) = &selection {
                    name = parse_where(w)
                        .into_iter()
                        .find(|(k, _)| k == "name")
                        .map(|(_, v)| v);
                }
            }
            match (name, value) {
                (Some(n), Some(v)) => {
                    fw.sys.put_setting(ns, &n, v);
                    if n == "font_scale" {
                        fw.refresh_metrics();
                    }
                    ShellOutput::ok(Vec::new())
                }
                _ => ShellOutput::fail("Error while accessing provider:settings\njava.lang.IllegalArgumentException: name and value are required\n", 1),
            }
        }
        // ContentCommand's DeleteCommand prints nothing on success.
        "delete" => match &settings_ns {
            Some((Some(ns), key)) => {
                let mut names: Vec<String> = selection
                    .as_deref()
                    .map(parse_where)
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|(k, _)| k == "name")
                    .map(|(_, v)| v)
                    .collect();
                if !key.is_empty() {
                    names.push(key.clone());
                }
                for name in names {
                    fw.sys.delete_setting(*ns, &name);
                }
                ShellOutput::ok(Vec::new())
            }
            Some((None, _)) => ShellOutput::fail(
                format!("Error while accessing provider:settings\njava.lang.IllegalArgumentException: Invalid URI: {uri}\n"),
                1,
            ),
            None => match providers::delete(&fw.sys, &uri, selection.as_deref()) {
                Ok(_) => ShellOutput::ok(Vec::new()),
                Err(e) => provider_failure(&uri, &e),
            },
        },
        _ => ShellOutput::fail(format!("Unsupported operation: {verb}\n"), 255),
    }
}

pub fn media(fw: &mut Framework, args: &[String]) -> ShellOutput {
    if args.first().map(String::as_str) != Some("volume") {
        return ShellOutput::fail("usage: media [subcommand] [options]\n       media volume [--stream STREAM_TYPE] [--get] [--set INDEX] [--adj DIRECTION]\n", 255);
    }
    let mut stream = Stream::Music;
    let mut action = None;
    let mut i = 1;
    while let Some(a) = args.get(i) {
        i += 1;
        let v = args.get(i).cloned();
        match a.as_str() {
            "--stream" => {
                match v
                    .and_then(|s| s.parse::<i32>().ok())
                    .and_then(Stream::from_number)
                {
                    Some(s) => stream = s,
                    None => return ShellOutput::fail("Error: unknown stream\n", 255),
                }
                i += 1;
            }
            "--get" => action = Some(("get", 0)),
            "--set" => {
                match v.and_then(|s| s.parse::<i32>().ok()) {
                    Some(n) => action = Some(("set", n)),
                    None => return ShellOutput::fail("Error: --set requires an index\n", 255),
                }
                i += 1;
            }
            "--adj" => {
                let dir = match v.as_deref() {
                    Some("raise") => 1,
                    Some("lower") => -1,
                    Some("same") => 0,
                    _ => {
                        return ShellOutput::fail(
                            "Error: --adj requires raise, lower or same\n",
                            255,
                        )
                    }
                };
                action = Some(("adj", dir));
                i += 1;
            }
            _ => {}
        }
    }
    let Some((verb, n)) = action else {
        return ShellOutput::fail("Error: need at least one of --get, --set or --adj\n", 255);
    };
    let (min, max) = stream.range();
    let mut s = format!(
        "[V] will {verb} volume\n[V] will control stream={} ({})\n[V] Connecting to AudioService\n",
        stream.number(),
        stream.name()
    );
    match verb {
        "get" => s.push_str(&format!(
            "[V] volume is {} in range [{min}..{max}]\n",
            fw.sys.volume(stream)
        )),
        "set" => fw.sys.set_volume(stream, n),
        _ => {
            let v = fw.sys.volume(stream);
            fw.sys.set_volume(stream, v + n);
        }
    }
    ShellOutput::ok(s)
}

pub fn svc(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let what = args.first().map(String::as_str).unwrap_or("");
    let verb = args.get(1).map(String::as_str).unwrap_or("");
    let on = match verb {
        "enable" => true,
        "disable" => false,
        _ => {
            return ShellOutput::ok("Available commands:\n    help     Show information about the subcommands\n    power    Control the power manager\n    data     Control mobile data connectivity\n    wifi     Control the Wi-Fi manager\n    bluetooth Control Bluetooth service\n")
        }
    };
    match what {
        "wifi" => fw.sys.set_wifi_enabled(on, "com.android.shell"),
        "bluetooth" => fw.sys.set_bluetooth_enabled(on, "com.android.shell"),
        "data" => fw
            .sys
            .put_setting(Namespace::Global, "mobile_data", if on { "1" } else { "0" }),
        _ => {}
    }
    ShellOutput::ok(Vec::new())
}
