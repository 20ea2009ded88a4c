//! ClipboardService: the primary clip (label, text, the package that set it), as `ClipboardManager`
//! reaches it, and the Clipper helper app's broadcast receiver that AndroidWorld drives over adb
//! (`am broadcast -a clipper.set -e text …`, `am broadcast -a clipper.get`).
//!
//! Android 14's ClipboardService has no shell command (`cmd clipboard` answers with Binder's
//! default), so tools reach the clipboard through an app: Clipper (`ca.zgrs.clipper`, majido/clipper)
//! is the one AndroidWorld installs, and its receiver's result codes and data are reproduced here
//! byte for byte. Since Android 10 an app reads the clip only while it has input focus, which is
//! why AndroidWorld brings Clipper to the front before `clipper.get`; from the background the
//! receiver finds no clip.

use super::app::Intent;
use super::system::{pid, System};

/// One clip: `ClipData.newPlainText(label, text)` plus who set it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clip {
    pub label: String,
    pub text: String,
    /// The package that set it (`ClipboardService`'s `mPrimaryClipPackage`).
    pub source: String,
}

/// The per-user clipboard (user 0 only; the phone has one user).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Clipboard {
    primary: Option<Clip>,
}

impl Clipboard {
    /// `setPrimaryClip`: replaces the clip. Writing needs no focus on Android 10+.
    pub fn set(&mut self, source: &str, label: &str, text: &str) {
        self.primary = Some(Clip {
            label: label.to_string(),
            text: text.to_string(),
            source: source.to_string(),
        });
    }

    /// `clearPrimaryClip`.
    pub fn clear(&mut self) {
        self.primary = None;
    }

    pub fn primary(&self) -> Option<&Clip> {
        self.primary.as_ref()
    }

    /// `hasClipboardText`: a clip whose text is not empty (what enables "Paste").
    pub fn text(&self) -> Option<&str> {
        self.primary
            .as_ref()
            .map(|c| c.text.as_str())
            .filter(|t| !t.is_empty())
    }
}

/// Clipper's package and receiver, as its manifest declares them.
pub const CLIPPER_PACKAGE: &str = "ca.zgrs.clipper";
pub const CLIPPER_RECEIVER: &str = "ca.zgrs.clipper.ClipperReceiver";

/// `Activity.RESULT_OK` and `RESULT_CANCELED`, the codes Clipper's receiver sets.
const RESULT_OK: i32 = -1;
const RESULT_CANCELED: i32 = 0;

/// What a broadcast receiver answered: `setResultCode` and `setResultData`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BroadcastResult {
    pub code: i32,
    pub data: Option<String>,
}

/// `ClipboardManager.getPrimaryClip` as `package` calls it: ClipboardService's
/// `clipboardAccessAllowed` gives the clip only to the app with input focus (`focused`) or the
/// default IME, which Clipper never is; anyone else gets none, and the service logs why.
fn read_clip(sys: &mut System, package: &str, focused: bool) -> Option<String> {
    if !focused {
        sys.log(
            pid::SYSTEM_SERVER,
            'E',
            "ClipboardService",
            format!(
                "Denying clipboard access to {package}, application is not in focus nor is it \
                 a system service for user 0"
            ),
        );
        return None;
    }
    sys.clipboard.primary().map(|clip| clip.text.clone())
}

/// Delivers a broadcast to Clipper's receiver when its intent filter takes it (actions `clipper.get`,
/// `clipper.set`, `get`, `set`; an explicit component or package must name Clipper), returning what
/// `ClipperReceiver.onReceive` sets. `focused`: Clipper holds input focus, without which it reads
/// no clip. `None` when the broadcast does not reach it.
pub fn clipper_receive(
    sys: &mut System,
    focused: bool,
    intent: &Intent,
    component: Option<(&str, &str)>,
    package: Option<&str>,
) -> Option<BroadcastResult> {
    if !super::app::broadcast_reaches(component, package, CLIPPER_PACKAGE, CLIPPER_RECEIVER) {
        return None;
    }
    match intent.action.as_deref()? {
        "clipper.set" | "set" => Some(match intent.extra("text") {
            Some(text) => {
                // ClipperReceiver uses the old `android.text.ClipboardManager.setText`, which makes
                // a clip labelled "text".
                sys.clipboard.set(CLIPPER_PACKAGE, "text", text);
                BroadcastResult {
                    code: RESULT_OK,
                    data: Some("Text is copied into clipboard.".into()),
                }
            }
            None => BroadcastResult {
                code: RESULT_CANCELED,
                data: Some("No text is provided. Use -e text \"text to be pasted\"".into()),
            },
        }),
        "clipper.get" | "get" => Some(match read_clip(sys, CLIPPER_PACKAGE, focused) {
            Some(text) => BroadcastResult {
                code: RESULT_OK,
                data: Some(text),
            },
            None => BroadcastResult {
                code: RESULT_CANCELED,
                data: Some(String::new()),
            },
        }),
        _ => None,
    }
}

/// `am broadcast`'s completion line (`ActivityManagerShellCommand.IntentReceiver.performReceive`):
/// the result code, then the data in quotes when a receiver set any.
pub fn completion_line(result: Option<&BroadcastResult>) -> String {
    match result {
        None => "Broadcast completed: result=0\n".to_string(),
        Some(r) => match &r.data {
            Some(d) => format!("Broadcast completed: result={}, data=\"{d}\"\n", r.code),
            None => format!("Broadcast completed: result={}\n", r.code),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn intent(action: &str, text: Option<&str>) -> Intent {
        Intent {
            action: Some(action.into()),
            extras: text
                .map(|t| vec![("text".to_string(), t.to_string())])
                .unwrap_or_default(),
            ..Intent::default()
        }
    }

    fn system() -> System {
        System::bare_at(
            chrono::NaiveDate::from_ymd_opt(2023, 10, 15)
                .unwrap()
                .and_hms_opt(9, 0, 0)
                .unwrap(),
        )
    }

    #[test]
    fn clipper_set_then_get_round_trips_unicode() {
        let mut sys = system();
        let got = clipper_receive(&mut sys, true, &intent("clipper.get", None), None, None);
        assert_eq!(
            completion_line(got.as_ref()),
            "Broadcast completed: result=0, data=\"\"\n"
        );
        let set = clipper_receive(
            &mut sys,
            true,
            &intent("set", Some("héllo 世界")),
            None,
            None,
        );
        assert_eq!(
            completion_line(set.as_ref()),
            "Broadcast completed: result=-1, data=\"Text is copied into clipboard.\"\n"
        );
        let got = clipper_receive(&mut sys, true, &intent("get", None), None, None).unwrap();
        assert_eq!(got.data.as_deref(), Some("héllo 世界"));
        assert_eq!(sys.clipboard.primary().unwrap().source, CLIPPER_PACKAGE);
    }

    #[test]
    fn from_the_background_clipper_sets_the_clip_but_reads_none() {
        let mut sys = system();
        let set = clipper_receive(
            &mut sys,
            false,
            &intent("clipper.set", Some("x")),
            None,
            None,
        );
        assert_eq!(set.map(|r| r.code), Some(RESULT_OK));
        assert_eq!(sys.clipboard.text(), Some("x"));
        let got = clipper_receive(&mut sys, false, &intent("clipper.get", None), None, None);
        assert_eq!(
            completion_line(got.as_ref()),
            "Broadcast completed: result=0, data=\"\"\n"
        );
        let denial = sys.logcat.entries.back().unwrap();
        assert_eq!(
            (denial.level, denial.tag.as_str(), denial.message.as_str()),
            (
                'E',
                "ClipboardService",
                "Denying clipboard access to ca.zgrs.clipper, application is not in focus nor is \
                 it a system service for user 0"
            )
        );
    }

    #[test]
    fn clipper_refuses_set_without_text_and_ignores_other_targets() {
        let mut sys = system();
        let r = clipper_receive(&mut sys, true, &intent("clipper.set", None), None, None).unwrap();
        assert_eq!(r.code, 0);
        assert!(sys.clipboard.primary().is_none());
        let other = clipper_receive(
            &mut sys,
            true,
            &intent("clipper.get", None),
            Some(("com.example", ".Receiver")),
            None,
        );
        assert_eq!(other, None);
        let short = clipper_receive(
            &mut sys,
            true,
            &intent("clipper.get", None),
            Some((CLIPPER_PACKAGE, ".ClipperReceiver")),
            None,
        );
        assert!(short.is_some());
        assert_eq!(
            clipper_receive(
                &mut sys,
                true,
                &intent("android.intent.action.VIEW", None),
                None,
                None
            ),
            None
        );
    }
}
