//! android_env's AccessibilityForwarder (`com.google.androidenv.accessibilityforwarder`,
//! android_env/apps/java/…/accessibilityforwarder in google-deepmind/android_env), preinstalled as
//! on an AndroidWorld AVD after its setup: AndroidWorld's default observation
//! (`A11yMethod.A11Y_FORWARDER_APP`) reads the screen through it, not through uiautomator.
//!
//! What the app does, from its source: `FlagsBroadcastReceiver` sets the process-wide `LogFlags`
//! (`ENABLE_/DISABLE_ACCESSIBILITY_TREE_LOGS`; `SET_GRPC` with `--es host` (default `10.0.2.2`)
//! and `--ei port` (`<= 0` turns gRPC off)). The `AccessibilityForwarder` service, bound while
//! `settings secure enabled_accessibility_services` names it, runs a thread that every
//! `a11yTreePeriodMs` (100 ms) builds an `AndroidAccessibilityForest` of all windows and sends it
//! with the unary `A11yService.SendForest` (plaintext, 1 s deadline), when tree logging is on and
//! the port is set. It never uses `Bidi`.
//!
//! Here: [`receive`] is the receiver (called by `am broadcast`), [`next_job`] is one period of that
//! thread as the phone sees it (whether to run, the forest, the logcat lines), [`forest`] builds
//! the forest from the same composed windows `uiautomator dump` writes, and [`forwarder`] is the
//! thread itself with its gRPC client, run by `Phone` off the phone's lock.

pub mod forest;
pub mod forwarder;

use droidmcp_protos::android_env::AndroidAccessibilityForest;

use super::app::Intent;
use super::clipboard::BroadcastResult;
use super::framework::Framework;
use super::system::{Namespace, System};

pub const PACKAGE: &str = "com.google.androidenv.accessibilityforwarder";
/// The service's component as `enabled_accessibility_services` names it.
pub const SERVICE: &str = "com.google.androidenv.accessibilityforwarder/com.google.androidenv.accessibilityforwarder.AccessibilityForwarder";
pub const RECEIVER: &str = "com.google.androidenv.accessibilityforwarder.FlagsBroadcastReceiver";

const ACTION_ENABLE_TREE_LOGS: &str =
    "accessibility_forwarder.intent.action.ENABLE_ACCESSIBILITY_TREE_LOGS";
const ACTION_DISABLE_TREE_LOGS: &str =
    "accessibility_forwarder.intent.action.DISABLE_ACCESSIBILITY_TREE_LOGS";
const ACTION_SET_GRPC: &str = "accessibility_forwarder.intent.action.SET_GRPC";

/// `FlagsBroadcastReceiver`'s default host: the emulator's alias for the host's loopback.
pub const DEFAULT_HOST: &str = "10.0.2.2";

/// Consecutive failed sends after which this forwarder stops until the next `SET_GRPC`. The real
/// app retries every period for ever; an embedded phone outlives many Python servers (each picks
/// a new port and sends `SET_GRPC` again), so a dead endpoint must not cost a thread for ever.
pub const MAX_FAILURES: u32 = 20;

/// The forwarder's process: no task ever shows it (it has no activity), so it only logs.
const PID: u32 = 2367;

/// `LogFlags` (the app's process-wide switches) and this phone's bookkeeping of the sending loop.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Forwarder {
    /// `LogFlags.logAccessibilityTree`.
    pub log_tree: bool,
    /// `LogFlags.grpcHost`.
    pub host: String,
    /// `LogFlags.grpcPort`; gRPC is off unless it is positive.
    pub port: i32,
    /// Bumped by every `SET_GRPC`, so a loop that gave up on one endpoint runs again for the next.
    generation: u64,
    /// Consecutive failed sends to the current endpoint.
    failures: u32,
    /// The current run of failures (connection or network) has been logged.
    failing: bool,
    /// The generation the loop gave up on ([`MAX_FAILURES`]).
    gave_up: Option<u64>,
}

/// Where the forest goes: the host as the app was told and the address the phone dials.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    pub host: String,
    pub port: u16,
}

impl Endpoint {
    /// The URI the client dials. The embedded phone shares the host's network, so the emulator's
    /// alias for the host's loopback (`10.0.2.2`) is the loopback itself.
    pub fn uri(&self) -> String {
        let host = if self.host == DEFAULT_HOST {
            "127.0.0.1"
        } else {
            self.host.as_str()
        };
        format!("http://{host}:{}", self.port)
    }
}

/// One period of the forwarder thread: the forest to send, or why nothing can be sent.
#[derive(Debug, Clone)]
pub struct Job {
    pub endpoint: Endpoint,
    pub generation: u64,
    /// `None` while the phone has no network (airplane mode): the send fails without a connection.
    pub forest: Option<AndroidAccessibilityForest>,
}

/// How the last period's send went, reported back to the phone before the next one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The loop just started; nothing was sent yet.
    Started,
    /// The server took the forest.
    Sent { generation: u64 },
    /// The server answered with `ForestResponse.error`.
    Refused { generation: u64, error: String },
    /// No connection, a status error or the 1 s deadline.
    Failed { generation: u64, reason: String },
    /// The phone had no network (airplane mode), so nothing left it. Not counted towards
    /// [`MAX_FAILURES`]: no host was tried, and AndroidWorld turns the network back on and expects
    /// forests again.
    Offline { generation: u64 },
}

/// Whether the service is bound: `enabled_accessibility_services` (a `:`-separated list) names it
/// in full or short (`pkg/.Class`) form.
pub fn service_enabled(sys: &System) -> bool {
    let short = format!("{PACKAGE}/.AccessibilityForwarder");
    sys.settings
        .get(Namespace::Secure, "enabled_accessibility_services")
        .is_some_and(|v| v.split(':').any(|s| s == SERVICE || s == short))
}

impl Forwarder {
    /// Whether the sending loop has work: the service bound, tree logging on, a port set, and the
    /// loop has not given up on this endpoint.
    pub fn should_run(&self, sys: &System) -> bool {
        self.log_tree
            && self.port > 0
            && self.gave_up != Some(self.generation)
            && service_enabled(sys)
    }
}

/// `FlagsBroadcastReceiver.onReceive` when the broadcast reaches it (an explicit component or
/// package must name it; its intent filter takes the three actions). `None` when it does not.
pub fn receive(
    fwd: &mut Forwarder,
    sys: &mut System,
    intent: &Intent,
    component: Option<(&str, &str)>,
    package: Option<&str>,
) -> Option<BroadcastResult> {
    if !super::app::broadcast_reaches(component, package, PACKAGE, RECEIVER) {
        return None;
    }
    let action = intent.action.as_deref()?;
    if ![
        ACTION_ENABLE_TREE_LOGS,
        ACTION_DISABLE_TREE_LOGS,
        ACTION_SET_GRPC,
    ]
    .contains(&action)
    {
        // The manifest's filter does not take it; only an explicit component delivers it anyway.
        component?;
    }
    let tag = "FlagsBroadcastReceiver";
    sys.log(
        PID,
        'I',
        tag,
        format!("Received broadcast intent with action: {action}"),
    );
    match action {
        ACTION_ENABLE_TREE_LOGS => {
            sys.log(PID, 'I', tag, "Enabling Accessibility Tree logging.");
            fwd.log_tree = true;
        }
        ACTION_DISABLE_TREE_LOGS => {
            sys.log(PID, 'I', tag, "Disabling Accessibility Tree logging.");
            fwd.log_tree = false;
        }
        ACTION_SET_GRPC => {
            let host = intent.extra("host").unwrap_or(DEFAULT_HOST).to_string();
            // `getIntExtra("port", 0)`: absent (or not an int) is 0, which turns gRPC off.
            let port = intent
                .extra("port")
                .and_then(|p| p.trim().parse::<i32>().ok())
                .unwrap_or(0);
            sys.log(
                PID,
                'I',
                tag,
                format!("Setting gRPC endpoint to {host}:{port}."),
            );
            fwd.host = host;
            fwd.port = port;
            fwd.generation += 1;
            fwd.failures = 0;
            fwd.failing = false;
        }
        other => sys.log(PID, 'W', tag, format!("Unknown action: {other}")),
    }
    // The receiver sets no result: `am broadcast` completes with result=0.
    Some(BroadcastResult {
        code: 0,
        data: None,
    })
}

/// One period of the forwarder thread, under the phone's lock: takes the last send's outcome
/// (logging what the app logs when a send fails), then returns the next forest to send, or `None`
/// when the loop should stop (the service unbound, logging off, no port, or too many failures).
pub fn next_job(fw: &mut Framework, last: &Outcome) -> Option<Job> {
    record(&mut fw.a11y, &mut fw.sys, last);
    if !fw.a11y.should_run(&fw.sys) {
        return None;
    }
    let endpoint = Endpoint {
        host: fw.a11y.host.clone(),
        port: u16::try_from(fw.a11y.port).ok()?,
    };
    let offline = fw.sys.settings.get(Namespace::Global, "airplane_mode_on") == Some("1");
    Some(Job {
        endpoint,
        generation: fw.a11y.generation,
        forest: (!offline).then(|| forest::build(fw)),
    })
}

fn record(fwd: &mut Forwarder, sys: &mut System, last: &Outcome) {
    const TAG: &str = "AndroidRLTask";
    let current = |g: &u64| *g == fwd.generation;
    match last {
        Outcome::Sent { generation } if current(generation) => {
            fwd.failures = 0;
            fwd.failing = false;
        }
        Outcome::Refused { generation, error } if current(generation) => {
            fwd.failures = 0;
            fwd.failing = false;
            sys.log(PID, 'W', TAG, format!("gRPC response.error: {error}"));
        }
        Outcome::Failed { generation, reason } if current(generation) => {
            log_failure(fwd, sys, reason);
            fwd.failures += 1;
            if fwd.failures >= MAX_FAILURES {
                tracing::warn!(
                    "the accessibility forwarder stops sending to {}:{} after {} failed sends ({reason}); a new SET_GRPC broadcast starts it again",
                    fwd.host,
                    fwd.port,
                    fwd.failures
                );
                fwd.gave_up = Some(fwd.generation);
            }
        }
        Outcome::Offline { generation } if current(generation) => {
            log_failure(fwd, sys, "UNAVAILABLE: Network is unreachable");
        }
        // The first period, or an outcome for an endpoint a later SET_GRPC replaced.
        _ => {}
    }
}

/// What the app logs for a failed send (`StatusException`), once per run of failures: the app
/// logs every one, ten a second, which would only flood the phone's log ring.
fn log_failure(fwd: &mut Forwarder, sys: &mut System, reason: &str) {
    if fwd.failing {
        return;
    }
    fwd.failing = true;
    const TAG: &str = "AndroidRLTask";
    sys.log(
        PID,
        'W',
        TAG,
        "gRPC StatusException; are you sure networking is turned on?",
    );
    sys.log(PID, 'I', TAG, format!("extra: exception ['{reason}']"));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn broadcast(fwd: &mut Forwarder, sys: &mut System, action: &str, extras: &[(&str, &str)]) {
        let intent = Intent {
            action: Some(action.into()),
            categories: Vec::new(),
            data: None,
            mime: None,
            extras: extras
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        };
        let reached = receive(
            fwd,
            sys,
            &intent,
            Some((PACKAGE, ".FlagsBroadcastReceiver")),
            None,
        );
        assert_eq!(
            reached,
            Some(BroadcastResult {
                code: 0,
                data: None
            })
        );
    }

    fn failed(generation: u64) -> Outcome {
        Outcome::Failed {
            generation,
            reason: "UNAVAILABLE: connection refused".into(),
        }
    }

    #[test]
    fn a_dead_endpoint_is_given_up_until_the_next_set_grpc() {
        let mut sys = System::bare_at(Default::default());
        sys.settings
            .put(Namespace::Secure, "enabled_accessibility_services", SERVICE);
        let mut fwd = Forwarder::default();
        broadcast(&mut fwd, &mut sys, ACTION_ENABLE_TREE_LOGS, &[]);
        broadcast(&mut fwd, &mut sys, ACTION_SET_GRPC, &[("port", "4321")]);
        assert_eq!((fwd.host.as_str(), fwd.port), (DEFAULT_HOST, 4321));
        assert!(fwd.should_run(&sys));

        // Airplane mode is not the host's fault: no count towards giving up.
        for _ in 0..MAX_FAILURES * 2 {
            record(&mut fwd, &mut sys, &Outcome::Offline { generation: 1 });
        }
        assert!(fwd.should_run(&sys));
        for _ in 0..MAX_FAILURES - 1 {
            record(&mut fwd, &mut sys, &failed(1));
        }
        assert!(fwd.should_run(&sys));
        // An outcome for an endpoint already replaced counts for nothing.
        record(&mut fwd, &mut sys, &failed(0));
        assert!(fwd.should_run(&sys));
        record(&mut fwd, &mut sys, &failed(1));
        assert!(
            !fwd.should_run(&sys),
            "stopped after {MAX_FAILURES} failures"
        );

        broadcast(
            &mut fwd,
            &mut sys,
            ACTION_SET_GRPC,
            &[("port", "4322"), ("host", "192.168.1.5")],
        );
        assert!(fwd.should_run(&sys), "a new endpoint runs again");
        assert_eq!(
            Endpoint {
                host: fwd.host.clone(),
                port: 4322
            }
            .uri(),
            "http://192.168.1.5:4322"
        );
        // `--ei port 0` (or none) turns gRPC off.
        broadcast(&mut fwd, &mut sys, ACTION_SET_GRPC, &[]);
        assert!(!fwd.should_run(&sys));
    }

    #[test]
    fn the_service_runs_only_while_enabled_and_logging() {
        let mut sys = System::bare_at(Default::default());
        let mut fwd = Forwarder::default();
        broadcast(&mut fwd, &mut sys, ACTION_SET_GRPC, &[("port", "4321")]);
        assert!(!fwd.should_run(&sys), "tree logging is off by default");
        broadcast(&mut fwd, &mut sys, ACTION_ENABLE_TREE_LOGS, &[]);
        assert!(!fwd.should_run(&sys), "the service is not enabled");
        sys.settings.put(
            Namespace::Secure,
            "enabled_accessibility_services",
            format!("com.example/.Other:{PACKAGE}/.AccessibilityForwarder"),
        );
        assert!(fwd.should_run(&sys), "the short form in a list enables it");
        broadcast(&mut fwd, &mut sys, ACTION_DISABLE_TREE_LOGS, &[]);
        assert!(!fwd.should_run(&sys));
        assert_eq!(
            Endpoint {
                host: DEFAULT_HOST.into(),
                port: 4321
            }
            .uri(),
            "http://127.0.0.1:4321",
            "the emulator's host alias is the loopback"
        );
    }
}
