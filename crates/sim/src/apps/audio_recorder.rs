//! Audio Recorder (`com.dimowner.audiorecorder`, Dimowner's open-source recorder, the build
//! AndroidWorld installs): the main screen with the record button, the running timer and the
//! active record's name; the records list; and the rename dialog the app shows after a recording
//! stops ("Show rename dialog after recording is completed", on by default).
//!
//! Recordings are the app's default format, M4A (AAC-LC, 44.1 kHz stereo), named as its default
//! naming format names them (`Record-N` from a counter kept in its shared_prefs), in its private
//! records folder on shared storage, `Android/data/com.dimowner.audiorecorder/files/Music/records`,
//! where AndroidWorld's checks list them. A recording lasts as long as the phone's clock ran
//! between record and stop (pauses left out); the phone has no microphone, so its sound is silence.
//! Renaming keeps the extension: the name typed is the file's stem (`note.m4a` typed gives
//! `note.m4a.m4a`, as the real app does).
//!
//! The app opens on its main screen: AndroidWorld's setup launched it once, past the welcome
//! pages. Settings, playback, bookmarks, the trash and import are not modelled.

mod screens;

use std::time::Duration;

use crate::app::{App, AppInfo, UiEvent};
use crate::locale;
use crate::media::{aac, mp4};
use crate::system::{pid, System};

pub const PACKAGE: &str = "com.dimowner.audiorecorder";
/// AndroidWorld's launch target (`adb_utils._PATTERN_TO_ACTIVITY`).
pub const LAUNCH_ACTIVITY: &str = "com.dimowner.audiorecorder.app.welcome.WelcomeActivity";
pub const MAIN_ACTIVITY: &str = "com.dimowner.audiorecorder.app.main.MainActivity";
pub const RECORDS_ACTIVITY: &str = "com.dimowner.audiorecorder.app.records.RecordsActivity";
/// `FileUtil.getPrivateRecordsDir`: the app's external files dir, `Music/records`.
pub const RECORDS_DIR: &str = "/sdcard/Android/data/com.dimowner.audiorecorder/files/Music/records";
/// PrefsImpl's shared_prefs file: the record counter and the rename-after-stop choice.
pub const PREFS_PATH: &str =
    "/data/data/com.dimowner.audiorecorder/shared_prefs/com.dimowner.audiorecorder.data.PrefsImpl.xml";
/// The default format's extension.
pub const EXTENSION: &str = "m4a";
const LOG_TAG: &str = "AudioRecorder";

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: LAUNCH_ACTIVITY,
        create: |_| Box::new(AudioRecorder::default()),
        install,
        on_home_screen: false,
    }
}

/// The app's external files folder exists once it has run (AndroidWorld's setup starts it once).
fn install(sys: &mut System) {
    if let Some(dir) = sys.host_path(RECORDS_DIR) {
        if let Err(e) = std::fs::create_dir_all(&dir) {
            sys.log(
                pid::SYSTEM_SERVER,
                'E',
                LOG_TAG,
                format!("cannot create {RECORDS_DIR}: {e}"),
            );
        }
    }
}

fn tr(sys: &System, name: &'static str) -> &'static str {
    locale::string(&sys.locale, PACKAGE, name)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Screen {
    #[default]
    Main,
    Records,
}

/// A recording in progress: time recorded before the last pause, and when the current stretch
/// began (None while paused), on the phone's uptime clock.
#[derive(Debug, Clone)]
struct Recording {
    before: Duration,
    since: Option<Duration>,
}

impl Recording {
    fn elapsed(&self, now: Duration) -> Duration {
        self.before + self.since.map_or(Duration::ZERO, |s| now.saturating_sub(s))
    }
}

#[derive(Debug, Clone)]
enum Dialog {
    /// After stop: the new name for the file just written (its stem), and "Don't ask again".
    Rename {
        file: String,
        name: String,
        dont_ask: bool,
        error: Option<&'static str>,
    },
    /// The delete button during a recording: discard it?
    DiscardRecording,
}

#[derive(Debug, Clone, Default)]
struct AudioRecorder {
    screen: Screen,
    recording: Option<Recording>,
    /// The file name (with extension) of the record the main screen shows.
    active: Option<String>,
    dialog: Option<Dialog>,
}

/// A recording in the records folder, as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordFile {
    pub file: String,
    pub duration_ms: u64,
    pub modified: std::time::SystemTime,
}

/// The recordings in the folder, newest first (the list's default order, "By date (newest)").
pub fn records(sys: &System) -> Vec<RecordFile> {
    let Some(dir) = sys.host_path(RECORDS_DIR) else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<RecordFile> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| {
            let duration_ms = std::fs::read(e.path())
                .ok()
                .and_then(|data| mp4::probe(&data).ok())
                .map_or(0, |info| info.duration_ms);
            RecordFile {
                file: e.file_name().to_string_lossy().into_owned(),
                duration_ms,
                modified: e
                    .metadata()
                    .and_then(|m| m.modified())
                    .unwrap_or(std::time::UNIX_EPOCH),
            }
        })
        .collect();
    out.sort_by(|a, b| b.modified.cmp(&a.modified).then(a.file.cmp(&b.file)));
    out
}

pub use crate::apps::widgets::format_elapsed as format_duration;

fn read_prefs(sys: &System) -> String {
    sys.host_path(PREFS_PATH)
        .and_then(|p| std::fs::read_to_string(p).ok())
        .unwrap_or_default()
}

fn pref_value<'a>(xml: &'a str, kind: &str, key: &str) -> Option<&'a str> {
    let start = format!("<{kind} name=\"{key}\" value=\"");
    let at = xml.find(&start)? + start.len();
    xml[at..].split('"').next()
}

/// The counter and the rename choice as the prefs file holds them (a fresh install: 0, ask).
fn prefs(sys: &System) -> (u64, bool) {
    let xml = read_prefs(sys);
    let counter = pref_value(&xml, "long", "record_counter")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let ask = pref_value(&xml, "boolean", "ask_to_rename_after_stop") != Some("false");
    (counter, ask)
}

fn write_prefs(sys: &System, counter: u64, ask: bool) -> std::io::Result<()> {
    let path = sys
        .host_path(PREFS_PATH)
        .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::InvalidInput))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(
        path,
        format!(
            "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    \
             <long name=\"record_counter\" value=\"{counter}\" />\n    \
             <boolean name=\"ask_to_rename_after_stop\" value=\"{ask}\" />\n</map>\n"
        ),
    )
}

impl AudioRecorder {
    fn log(sys: &mut System, level: char, message: String) {
        sys.log(pid::SYSTEM_SERVER, level, LOG_TAG, message);
    }

    fn start(&mut self, sys: &mut System) {
        self.recording = Some(Recording {
            before: Duration::ZERO,
            since: Some(sys.clock.uptime()),
        });
        self.active = None;
    }

    fn toggle_pause(&mut self, sys: &System) {
        let now = sys.clock.uptime();
        if let Some(r) = &mut self.recording {
            match r.since.take() {
                Some(since) => r.before += now.saturating_sub(since),
                None => r.since = Some(now),
            }
        }
    }

    /// Stops the recording and writes it as the next `Record-N.m4a`; then asks for a name when
    /// the app is set to.
    fn stop(&mut self, sys: &mut System) {
        let Some(recording) = self.recording.take() else {
            return;
        };
        let ms = recording.elapsed(sys.clock.uptime()).as_millis() as u64;
        let (mut counter, ask) = prefs(sys);
        counter += 1;
        // The counter moves past names already taken, as createFile refuses an existing file.
        while sys
            .host_path(&format!("{RECORDS_DIR}/Record-{counter}.{EXTENSION}"))
            .is_some_and(|p| p.exists())
        {
            counter += 1;
        }
        let file = format!("Record-{counter}.{EXTENSION}");
        let data = mp4::write(
            &[mp4::Track::silence(aac::Format::DEFAULT, ms)],
            sys.clock.now().and_utc().timestamp(),
        );
        let written = sys
            .host_path(&format!("{RECORDS_DIR}/{file}"))
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::InvalidInput))
            .and_then(|host| {
                if let Some(dir) = host.parent() {
                    std::fs::create_dir_all(dir)?;
                }
                std::fs::write(host, data)
            })
            .and_then(|()| write_prefs(sys, counter, ask));
        match written {
            Ok(()) => {
                let now = sys.clock.now();
                sys.file_times.stamp(&format!("{RECORDS_DIR}/{file}"), now);
                Self::log(sys, 'I', format!("saved {RECORDS_DIR}/{file} ({ms} ms)"));
                self.active = Some(file.clone());
                if ask {
                    let name = file
                        .strip_suffix(&format!(".{EXTENSION}"))
                        .unwrap_or(&file)
                        .to_string();
                    self.dialog = Some(Dialog::Rename {
                        file,
                        name,
                        dont_ask: false,
                        error: None,
                    });
                    sys.request(crate::system::Request::Focus {
                        tag: "rename_name".into(),
                    });
                }
            }
            Err(e) => Self::log(sys, 'E', format!("cannot save {file}: {e}")),
        }
    }

    /// Save in the rename dialog: the typed stem plus the format's extension.
    fn rename(&mut self, sys: &mut System) {
        let Some(Dialog::Rename {
            file,
            name,
            dont_ask,
            error,
        }) = &mut self.dialog
        else {
            return;
        };
        let stem = name.trim();
        if *dont_ask {
            let (counter, _) = prefs(sys);
            if let Err(e) = write_prefs(sys, counter, false) {
                Self::log(sys, 'E', format!("cannot write {PREFS_PATH}: {e}"));
            }
        }
        let target = format!("{stem}.{EXTENSION}");
        if stem.is_empty() || stem.contains('/') {
            *error = Some("error_failed_to_rename");
            return;
        }
        if target != *file {
            let (Some(from), Some(to)) = (
                sys.host_path(&format!("{RECORDS_DIR}/{file}")),
                sys.host_path(&format!("{RECORDS_DIR}/{target}")),
            ) else {
                *error = Some("error_failed_to_rename");
                return;
            };
            if to.exists() {
                *error = Some("error_file_exists");
                return;
            }
            if let Err(e) = std::fs::rename(from, to) {
                let message = format!("cannot rename {file}: {e}");
                *error = Some("error_failed_to_rename");
                Self::log(sys, 'E', message);
                return;
            }
            sys.file_times.moved(
                &format!("{RECORDS_DIR}/{file}"),
                &format!("{RECORDS_DIR}/{target}"),
            );
            self.active = Some(target);
        }
        self.dialog = None;
        sys.request(crate::system::Request::ClearFocus);
    }

    fn handle_dialog(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        match (&mut self.dialog, event) {
            (Some(Dialog::Rename { name, error, .. }), UiEvent::TextChanged { tag, text })
                if tag == "rename_name" =>
            {
                *name = text.clone();
                *error = None;
            }
            (Some(Dialog::Rename { dont_ask, .. }), UiEvent::Click(tag)) if tag == "dont_ask" => {
                *dont_ask = !*dont_ask;
            }
            (Some(Dialog::Rename { .. }), UiEvent::Click(tag)) if tag == "rename_save" => {
                self.rename(sys);
            }
            (Some(Dialog::Rename { .. }), UiEvent::EditorAction(tag)) if tag == "rename_name" => {
                self.rename(sys);
            }
            (Some(Dialog::DiscardRecording), UiEvent::Click(tag)) if tag == "discard_yes" => {
                self.recording = None;
                self.dialog = None;
            }
            (Some(_), UiEvent::Click(tag)) if tag == "dialog_cancel" => {
                self.dialog = None;
                sys.request(crate::system::Request::ClearFocus);
            }
            (Some(_), UiEvent::Back) => {
                self.dialog = None;
                sys.request(crate::system::Request::ClearFocus);
            }
            _ => return false,
        }
        true
    }
}

impl App for AudioRecorder {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        match self.screen {
            Screen::Main => MAIN_ACTIVITY,
            Screen::Records => RECORDS_ACTIVITY,
        }
        .to_string()
    }

    fn render(&self, sys: &System) -> crate::view::View {
        screens::render(self, sys)
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        if self.dialog.is_some() {
            // A dialog is modal: what it does not answer goes nowhere.
            self.handle_dialog(event, sys);
            return true;
        }
        let tag = match event {
            UiEvent::Click(tag) => tag.as_str(),
            UiEvent::Back if self.screen == Screen::Records => {
                self.screen = Screen::Main;
                return true;
            }
            _ => return false,
        };
        match (self.screen, tag) {
            (Screen::Main, "record") => match self.recording {
                None => self.start(sys),
                Some(_) => self.toggle_pause(sys),
            },
            (Screen::Main, "record_stop") => self.stop(sys),
            (Screen::Main, "record_delete") if self.recording.is_some() => {
                self.dialog = Some(Dialog::DiscardRecording);
            }
            (Screen::Main, "records_list") if self.recording.is_none() => {
                self.screen = Screen::Records;
            }
            (Screen::Records, "back") => self.screen = Screen::Main,
            (Screen::Records, item) if item.starts_with("record:") => {
                self.active = Some(item["record:".len()..].to_string());
                self.screen = Screen::Main;
            }
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests;
