//! InCallUI's notification for a ringing call (`StatusBarNotifier`) and what the phone does with
//! it. On Android 10+ a call that rings while the phone is in use is not a full-screen takeover:
//! the Dialer posts a notification (title the caller, text "Incoming call", Decline and Answer)
//! with a full-screen intent to its in-call screen, and SystemUI either starts that intent (screen
//! off) or shows the notification heads-up over whatever is in front (see
//! [`shade::interruption`]). The heads-up stays while the call rings and goes when it is answered,
//! declined or the caller hangs up; while the in-call screen itself shows, the notification is
//! posted again quietly on the ongoing-call channel, so the shade still lists it.
//!
//! It lives on the framework side because the choice between the loud and the quiet form hangs
//! on whether the in-call screen is in front (`InCallPresenter.isShowingInCallUi`), which only
//! the framework knows here.

use crate::app::Intent;
use crate::framework::{Framework, Launcher};
use crate::providers::phone_number;
use crate::shade::{self, Interruption};
use crate::system::{pid, Notification, System};
use crate::telephony::{Call, Status};

use super::{caller, tr, INCALL_ACTIVITY, PACKAGE};

/// `NotificationBroadcastReceiver`'s actions, which the notification's buttons send the Dialer.
pub const ACTION_ANSWER: &str = "com.android.incallui.ACTION_ANSWER_VOICE_INCOMING_CALL";
pub const ACTION_DECLINE: &str = "com.android.incallui.ACTION_DECLINE_INCOMING_CALL";

/// `InCallActivity.IntentExtraNames.FOR_FULL_SCREEN`: set on the intents that bring the in-call
/// screen up from the notification (its body, or its full-screen intent).
pub const EXTRA_FOR_FULL_SCREEN: &str = "InCallActivity.for_full_screen_intent";

/// `StatusBarNotifier.NOTIFICATION_ID`, posted without a tag through `startForeground`.
const NOTIFICATION_ID: i32 = 1;
/// `NotificationChannelId`: the incoming-call channel is IMPORTANCE_HIGH, the ongoing-call one
/// IMPORTANCE_DEFAULT (`NotificationChannelManager`).
const CHANNEL_INCOMING: &str = "phone_incoming_call";
const CHANNEL_ONGOING: &str = "phone_ongoing_call";

/// `InCallActivity.getIntent(context, false, false, full_screen)`.
pub fn in_call_intent(full_screen: bool) -> Intent {
    Intent {
        action: Some("android.intent.action.MAIN".into()),
        extras: vec![
            ("InCallActivity.show_dialpad".into(), "false".into()),
            ("InCallActivity.new_outgoing_call".into(), "false".into()),
            (EXTRA_FOR_FULL_SCREEN.into(), full_screen.to_string()),
        ],
        ..Intent::default()
    }
}

/// The call the notification is about (`CallList.getIncomingCall`): the first one ringing.
pub fn ringing(sys: &System) -> Option<&Call> {
    sys.telephony
        .calls()
        .iter()
        .find(|c| c.status == Status::Ringing)
}

fn is_call_notification(n: &Notification) -> bool {
    n.package == PACKAGE && n.id == NOTIFICATION_ID && n.tag.is_none()
}

/// What `buildAndSendNotification` posts for `call`: the loud form (`NOTIFICATION_INCOMING_CALL`,
/// with the full-screen intent) unless the in-call screen shows (`NOTIFICATION_INCOMING_CALL_QUIET`).
fn incoming(sys: &System, call: &Call, showing_ui: bool) -> Notification {
    let (name, _) = caller(sys, &call.number);
    Notification {
        package: PACKAGE.into(),
        id: NOTIFICATION_ID,
        channel: if showing_ui {
            CHANNEL_ONGOING
        } else {
            CHANNEL_INCOMING
        }
        .into(),
        title: name.unwrap_or_else(|| phone_number::format_for_display(&call.number)),
        text: tr(sys, "notification_incoming_call").into(),
        // addDismissAction, then addAnswerAction.
        actions: vec![
            (
                ACTION_DECLINE.into(),
                tr(sys, "notification_action_dismiss").into(),
            ),
            (
                ACTION_ANSWER.into(),
                tr(sys, "notification_action_answer").into(),
            ),
        ],
        heads_up: false,
        when: sys.clock.now(),
        intent: Some(in_call_intent(false)),
        tag: None,
        target: None,
        auto_cancel: false,
        ongoing: true,
        full_screen: (!showing_ui).then(|| in_call_intent(true)),
    }
}

impl Framework {
    /// Whether the Dialer's in-call screen is what the user sees.
    fn showing_in_call_ui(&self) -> bool {
        self.screen_on
            && self.foreground_package() == PACKAGE
            && self
                .foreground()
                .is_some_and(|t| t.app.activity() == INCALL_ACTIVITY)
    }

    /// Brings InCallUI's notification in line with the calls and the screen (`updateNotification`
    /// after every change): posts it for a ringing call, cancels it when none rings, and lets
    /// SystemUI interrupt when it turns loud. Cheap when no call rings.
    pub fn update_call_notification(&mut self) {
        let current = self
            .sys
            .notifications
            .iter()
            .find(|n| is_call_notification(n))
            .cloned();
        let Some(call) = ringing(&self.sys).cloned() else {
            if current.is_some() {
                self.sys.cancel_notification(PACKAGE, NOTIFICATION_ID);
            }
            return;
        };
        let mut next = incoming(&self.sys, &call, self.showing_in_call_ui());
        // A loud notification replacing a quiet one (or none) alerts anew; the Dialer cancels
        // the old one first "so this one can be noisy". Anything else is a quiet update
        // (setOnlyAlertOnce) that keeps its heads-up state and time.
        let was_loud = current.as_ref().is_some_and(|c| c.full_screen.is_some());
        let alerts = next.full_screen.is_some() && !was_loud;
        if let Some(c) = current.as_ref().filter(|_| !alerts) {
            next.when = c.when;
            next.heads_up = c.heads_up && next.full_screen.is_some();
            if *c == next {
                return;
            }
        }
        if alerts && current.is_some() {
            self.sys.cancel_notification(PACKAGE, NOTIFICATION_ID);
        }
        self.sys.notify(next);
        if !alerts {
            return;
        }
        match shade::interruption(self) {
            Interruption::FullScreen => {
                // InCallActivity turns the screen on (FLAG_TURN_SCREEN_ON) as it comes up.
                self.screen_on = true;
                self.sys.log(
                    pid::SYSTEM_SERVER,
                    'I',
                    "PowerManagerService",
                    "Waking up from Asleep (uid=1000, reason=WAKE_REASON_APPLICATION, details=com.android.server.telecom:INCOMING_CALL)...",
                );
                if self.launch(PACKAGE, Launcher::Home).is_ok() {
                    self.deliver_intent(PACKAGE, &in_call_intent(true));
                }
            }
            Interruption::HeadsUp => {
                if let Some(n) = self
                    .sys
                    .notifications
                    .iter_mut()
                    .find(|n| is_call_notification(n))
                {
                    n.heads_up = true;
                }
            }
            Interruption::Quiet => {}
        }
    }
}
