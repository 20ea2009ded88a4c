//! `service` (frameworks/native `cmds/service`): raw binder calls by transaction number. The phone
//! answers the one call benchmark code makes, `service call alarm 3 s16 ZONE`
//! (`IAlarmManager.setTimeZone`, AndroidWorld's UTC setup), and `service check`; any other call
//! is refused by name rather than answered with a made-up parcel.

use crate::framework::Framework;
use droidmcp_device::ShellOutput;

/// `Result: Parcel(…)` of a void method that returned normally: just the "no exception" word.
const VOID_REPLY: &str = "Result: Parcel(00000000    '....')\n";

/// The services `service check` finds (what `dumpsys` lists, plus the alarm manager).
const SERVICES: [&str; 12] = [
    "SurfaceFlinger",
    "activity",
    "alarm",
    "battery",
    "display",
    "input",
    "input_method",
    "notification",
    "package",
    "power",
    "telephony.registry",
    "window",
];

/// Zones that are the phone's own clock: it keeps UTC.
const UTC_ZONES: [&str; 4] = ["UTC", "GMT", "Etc/UTC", "Etc/GMT"];

pub fn service(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let usage = "Usage: service [-h|-?]\n       service list\n       service check SERVICE\n       service call SERVICE CODE [i32 N | i64 N | f N | d N | s16 STR | null | fd f | nfd n | afd f ] ...\nOptions:\n   i32: Write the 32-bit integer N into the send parcel.\n   s16: Write the UTF-16 string STR into the send parcel.\n";
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["check", name] => ShellOutput::ok(if SERVICES.contains(name) {
            format!("Service {name}: found\n")
        } else {
            format!("Service {name}: not found\n")
        }),
        ["call", name, ..] if !SERVICES.contains(name) => {
            ShellOutput::fail(format!("service: Service {name} does not exist\n"), 10)
        }
        ["call", "alarm", "3", "s16", zone] => {
            if UTC_ZONES.contains(zone) {
                fw.sys
                    .properties
                    .insert("persist.sys.timezone".into(), zone.to_string());
                ShellOutput::ok(VOID_REPLY)
            } else {
                ShellOutput::fail(
                    format!("service: the embedded phone keeps UTC; time zone '{zone}' is not supported\n"),
                    1,
                )
            }
        }
        ["call", name, code, ..] => ShellOutput::fail(
            format!(
                "service: transaction {code} of {name} is not implemented by the embedded phone\n"
            ),
            1,
        ),
        [] => ShellOutput::ok(usage),
        [other, ..] => ShellOutput {
            stdout: usage.as_bytes().to_vec(),
            stderr: format!("service: Unknown command {other}\n").into_bytes(),
            exit_code: 10,
        },
    }
}
