//! `cmd overlay`: OverlayManagerService's shell command. Only `lookup` is answered: it loads a
//! package's resources in the phone's current configuration and prints one resource's value, the
//! one way a shell can read an app's translated string (how selectors that name a string resource
//! find their label in any language).

use crate::framework::Framework;
use crate::locale::res::{self, Value};
use droidmcp_device::ShellOutput;

pub fn overlay(fw: &mut Framework, args: &[String]) -> ShellOutput {
    match args.first().map(String::as_str) {
        Some("lookup") => lookup(fw, &args[1..]),
        Some(other) => ShellOutput::fail(format!("Unknown command: {other}\n"), 255),
        None => ShellOutput::ok(HELP),
    }
}

const HELP: &str = "Overlay manager (overlay) commands:\n  help\n    Print this help text.\n  lookup [--user USER_ID] [--verbose] PACKAGE_TO_LOAD PACKAGE:TYPE/NAME\n    Load a package and print the value of a given resource\n    applying the current configuration and enabled overlays.\n    For a more fine-grained alternative, use 'idmap2 lookup'.\n";

/// `lookup [--user N] [--verbose] PACKAGE_TO_LOAD PACKAGE:TYPE/NAME`, as
/// `OverlayManagerShellCommand.runLookup` answers it: the value on one line (each item of an array
/// on its own line), or `Error: …` with exit 1.
fn lookup(fw: &Framework, args: &[String]) -> ShellOutput {
    let mut positional = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--user" => {
                it.next();
            }
            "--verbose" => {}
            _ => positional.push(a.as_str()),
        }
    }
    let (Some(to_load), Some(qualified)) = (positional.first(), positional.get(1)) else {
        return ShellOutput::fail("Error: no package name or resource given\n", 1);
    };
    let parts = qualified
        .split_once(':')
        .and_then(|(p, rest)| rest.split_once('/').map(|(t, n)| (p, t, n)));
    let Some((package, kind, name)) = parts else {
        return ShellOutput::fail(
            "Error: bad resource name, doesn't match package:type/name\n",
            1,
        );
    };
    if !super::package::installed(fw, to_load) {
        return ShellOutput::fail(
            format!("Error: failed to get resources for package {to_load} for user 0\n"),
            1,
        );
    }
    let found = res::resources()
        .lookup(&fw.sys.locale, package, name)
        .map(|e| &e.value);
    match (kind, found) {
        ("string", Some(Value::Text(t))) => ShellOutput::ok(format!("{t}\n")),
        ("array", Some(Value::Array(items))) => {
            ShellOutput::ok(items.iter().map(|i| format!("{i}\n")).collect::<String>())
        }
        _ => ShellOutput::fail(
            format!("Error: failed to get the resource {qualified}\n"),
            1,
        ),
    }
}
