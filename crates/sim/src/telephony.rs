//! The phone's modem and Telecom: calls that ring, are answered, held and end; texts that arrive;
//! the call state TelephonyRegistry reports; and what ending a call or receiving a text leaves
//! behind (call log rows, the inbox row, notifications).
//!
//! Brief overview: [`Telephony`] lives in [`System`] (it is system_server's and the phone
//! process's state, not an app's), so every actor reaches the same calls: the Dialer's in-call
//! screen answers and hangs up through it, the emulator console (`gsm call`, `gsm cancel`,
//! `sms send`, see [`console`](super::console)) rings and cancels through it, and
//! `dumpsys telephony.registry` prints it. The framework tells the Dialer (the InCallService)
//! after every change it did not make itself, and brings the in-call screen up for a ringing call.

use super::app::Intent;
use super::apps::texting;
use super::providers::{calllog, contacts, now_ms, phone_number, telephony as sms};
use super::system::{pid, Notification, System};

/// `TelephonyManager.CALL_STATE_*`, as `dumpsys telephony.registry` prints `mCallState`.
pub const CALL_STATE_IDLE: i32 = 0;
pub const CALL_STATE_RINGING: i32 = 1;
pub const CALL_STATE_OFFHOOK: i32 = 2;

/// The broadcast the Dialer receives after a call changed outside its own screen.
pub const ACTION_PHONE_STATE: &str = "android.intent.action.PHONE_STATE";

/// The Dialer package, which shows calls and posts the missed-call notification.
const DIALER: &str = "com.google.android.dialer";
/// The missed-call notification: the Dialer's group summary (`MissedCallConstants`: id 1, tag
/// `GroupSummary_MissedCall`), one for every missed call, replaced by the next. Its tag keeps it
/// apart from InCallUI's call notification, which is id 1 with no tag.
const MISSED_CALL_NOTIFICATION: i32 = 1;
const MISSED_CALL_TAG: &str = "GroupSummary_MissedCall";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Incoming,
    Outgoing,
}

/// A live call's state, as the modem (`gsm list`) and Telecom see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// An incoming call not yet answered.
    Ringing,
    Active,
    Held,
}

/// Why a call ended; decides its call log type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The user hung up or declined here (end-call button, decline, KEYCODE_ENDCALL).
    Local,
    /// The other side hung up or gave up ringing (`gsm cancel`).
    Remote,
}

/// One live call.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// Telecom's id, logged as `TC@id`.
    pub id: i64,
    /// The number as dialed or as the network presented it (digits, `+`, `*`, `#`).
    pub number: String,
    pub direction: Direction,
    pub status: Status,
    /// When the call was placed or started ringing, ms since the epoch.
    pub created_ms: i64,
    /// When it was connected (outgoing calls count from placing, as the in-call timer does).
    pub connected_ms: Option<i64>,
}

/// The modem's calls and the last number TelephonyRegistry was told about.
#[derive(Debug, Clone, Default)]
pub struct Telephony {
    calls: Vec<Call>,
    last_number: String,
    next_id: i64,
}

/// Why a telephony request was refused, in the console's words (`KO: …`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TelephonyError {
    #[error("bad phone number format, use digits, # and + only")]
    BadNumber,
    #[error("no current call to/from number '{0}'")]
    NoCall(String),
    #[error("could not cancel this number")]
    CannotCancel,
    #[error("could not write the {what}: {reason}")]
    Provider { what: &'static str, reason: String },
}

impl Telephony {
    /// Live calls, oldest first.
    pub fn calls(&self) -> &[Call] {
        &self.calls
    }

    /// `TelephonyManager.getCallState()`: ringing while any call rings (also a waiting call beside
    /// an active one), off-hook while any call is connected or held, idle otherwise.
    pub fn state(&self) -> i32 {
        if self.calls.iter().any(|c| c.status == Status::Ringing) {
            CALL_STATE_RINGING
        } else if self.calls.is_empty() {
            CALL_STATE_IDLE
        } else {
            CALL_STATE_OFFHOOK
        }
    }

    /// The call the in-call screen shows: a ringing one first, else the active, else a held one.
    pub fn foreground(&self) -> Option<&Call> {
        let by = |s: Status| self.calls.iter().rev().find(|c| c.status == s);
        by(Status::Ringing)
            .or_else(|| by(Status::Active))
            .or_else(|| by(Status::Held))
    }

    pub fn get(&self, id: i64) -> Option<&Call> {
        self.calls.iter().find(|c| c.id == id)
    }

    fn find_number(&self, number: &str) -> Option<i64> {
        self.calls
            .iter()
            .find(|c| c.number == number || phone_number::same_line(&c.number, number))
            .map(|c| c.id)
    }
}

/// The console's number check (`gsm_check_number`): digits, `+` and `#` only, not empty.
pub fn valid_number(number: &str) -> bool {
    !number.is_empty()
        && number
            .chars()
            .all(|c| c.is_ascii_digit() || c == '+' || c == '#')
}

fn telecom_log(sys: &mut System, message: String) {
    sys.log(pid::SYSTEM_SERVER, 'I', "Telecom", message);
}

fn next_id(sys: &mut System) -> i64 {
    // Telecom numbers calls per boot; start past the call log so ids stay distinct in logcat.
    if sys.telephony.next_id == 0 {
        sys.telephony.next_id = calllog::open(sys)
            .and_then(|c| calllog::count(&c))
            .unwrap_or(0);
    }
    sys.telephony.next_id += 1;
    sys.telephony.next_id
}

/// Tells TelephonyRegistry the new call state, as Telecom's PhoneStateBroadcaster does.
fn notify_state(sys: &mut System, number: &str) {
    sys.telephony.last_number = number.to_string();
    let state = sys.telephony.state();
    sys.log(
        pid::SYSTEM_SERVER,
        'D',
        "TelephonyRegistry",
        format!("notifyCallStateForAllSubs: state={state}"),
    );
}

/// Places an outgoing call (Telecom's side of ACTION_CALL); returns its id. Any active call goes
/// on hold.
pub fn place_call(sys: &mut System, number: &str) -> i64 {
    let dialed = phone_number::strip_separators(number);
    let id = next_id(sys);
    telecom_log(
        sys,
        format!("CallIntentProcessor: processOutgoingCallIntent: TC@{id}"),
    );
    telecom_log(sys, format!("LogUtils: EventRecord added as Call: TC@{id}"));
    if phone_number::is_emergency(&dialed) {
        telecom_log(
            sys,
            format!(
                "NewOutgoingCallIntentBroadcaster: processIntent: Emergency number detected: {dialed}: TC@{id}"
            ),
        );
    }
    telecom_log(sys, format!("InCallController: onCallAdded: TC@{id}"));
    hold_active(sys);
    let now = now_ms(sys);
    sys.telephony.calls.push(Call {
        id,
        number: dialed.clone(),
        direction: Direction::Outgoing,
        status: Status::Active,
        created_ms: now,
        connected_ms: Some(now),
    });
    notify_state(sys, &dialed);
    id
}

fn hold_active(sys: &mut System) {
    for call in sys.telephony.calls.iter_mut() {
        if call.status == Status::Active {
            call.status = Status::Held;
        }
    }
}

/// A call arrives from the network (`gsm call`); returns its id.
pub fn ring(sys: &mut System, number: &str) -> Result<i64, TelephonyError> {
    if !valid_number(number) {
        return Err(TelephonyError::BadNumber);
    }
    let id = next_id(sys);
    telecom_log(sys, format!("LogUtils: EventRecord added as Call: TC@{id}"));
    telecom_log(
        sys,
        format!("CallsManager: setCallState NEW -> RINGING, call: TC@{id}"),
    );
    telecom_log(sys, format!("InCallController: onCallAdded: TC@{id}"));
    sys.telephony.calls.push(Call {
        id,
        number: number.to_string(),
        direction: Direction::Incoming,
        status: Status::Ringing,
        created_ms: now_ms(sys),
        connected_ms: None,
    });
    notify_state(sys, number);
    Ok(id)
}

/// Answers a ringing call (the Answer button, `gsm accept` of an incoming call); an active call
/// goes on hold.
pub fn answer(sys: &mut System, id: i64) -> Result<(), TelephonyError> {
    let Some(call) = sys.telephony.get(id).cloned() else {
        return Err(TelephonyError::NoCall(id.to_string()));
    };
    if call.status == Status::Active {
        return Ok(());
    }
    hold_active(sys);
    let now = now_ms(sys);
    if let Some(c) = sys.telephony.calls.iter_mut().find(|c| c.id == id) {
        c.status = Status::Active;
        c.connected_ms.get_or_insert(now);
    }
    telecom_log(
        sys,
        format!(
            "CallsManager: setCallState {} -> ACTIVE, call: TC@{id}",
            if call.status == Status::Held {
                "ON_HOLD"
            } else {
                "RINGING"
            }
        ),
    );
    notify_state(sys, &call.number);
    Ok(())
}

/// Puts a call on hold or takes it off hold (the in-call Hold button, `gsm hold`).
pub fn set_held(sys: &mut System, id: i64, held: bool) -> Result<(), TelephonyError> {
    let Some(call) = sys.telephony.get(id).cloned() else {
        return Err(TelephonyError::NoCall(id.to_string()));
    };
    if call.status == Status::Ringing {
        return Err(TelephonyError::NoCall(call.number));
    }
    if !held {
        hold_active(sys);
    }
    if let Some(c) = sys.telephony.calls.iter_mut().find(|c| c.id == id) {
        c.status = if held { Status::Held } else { Status::Active };
    }
    Ok(())
}

/// Ends a call and writes its call log row as Telecom's CallLogManager does: outgoing (2) or
/// incoming (1) with the connected seconds; a ringing call the user declined is rejected (5), one
/// the caller gave up on is missed (3, `new=1`) and gets the Dialer's "Missed call" notification.
pub fn end(sys: &mut System, id: i64, ending: Ending) -> Result<(), TelephonyError> {
    let Some(pos) = sys.telephony.calls.iter().position(|c| c.id == id) else {
        return Err(TelephonyError::NoCall(id.to_string()));
    };
    let call = sys.telephony.calls.remove(pos);
    let now = now_ms(sys);
    let (kind, from) = match (call.direction, call.status) {
        (Direction::Outgoing, _) => (calllog::OUTGOING, "ACTIVE"),
        (Direction::Incoming, Status::Ringing) if ending == Ending::Local => {
            (calllog::REJECTED, "RINGING")
        }
        (Direction::Incoming, Status::Ringing) => (calllog::MISSED, "RINGING"),
        (Direction::Incoming, _) => (calllog::INCOMING, "ACTIVE"),
    };
    telecom_log(sys, format!("InCallController: onCallRemoved: TC@{id}"));
    telecom_log(
        sys,
        format!("CallsManager: setCallState {from} -> DISCONNECTED, call: TC@{id}"),
    );
    let matched = contacts::open(sys)
        .ok()
        .and_then(|c| contacts::lookup_number(&c, &call.number).ok().flatten());
    let duration = call
        .connected_ms
        .map(|at| ((now - at) / 1000).max(0))
        .unwrap_or(0);
    let record = calllog::Call {
        number: call.number.clone(),
        date: call.created_ms,
        duration,
        kind,
        name: matched.as_ref().map(|c| c.name.clone()),
        number_type: matched.as_ref().and_then(|c| {
            c.phones
                .iter()
                .find(|(n, _)| phone_number::same_line(n, &call.number))
                .or(c.phones.first())
                .map(|(_, t)| *t)
        }),
        normalized: phone_number::normalize(&call.number),
    };
    if let Err(e) = calllog::open(sys).and_then(|c| calllog::insert(&c, &record)) {
        sys.log(
            pid::SYSTEM_SERVER,
            'E',
            "CallLogProvider",
            format!("insert failed: {e}"),
        );
    }
    if kind == calllog::MISSED {
        // The notification is worded in the language of the moment it is posted, as Android's is.
        let locale = sys.locale.clone();
        let dialer_string = |name| super::locale::string(&locale, DIALER, name);
        let caller = matched
            .map(|c| c.name)
            .unwrap_or_else(|| phone_number::format_for_display(&call.number));
        sys.notify(Notification {
            package: DIALER.into(),
            id: MISSED_CALL_NOTIFICATION,
            channel: "phone_missed_call".into(),
            title: dialer_string("notification_missedCallTitle").into(),
            text: caller,
            actions: vec![
                (
                    format!("call:{}", call.number),
                    dialer_string("notification_missedCall_call_back").into(),
                ),
                (
                    format!("sms:{}", call.number),
                    dialer_string("notification_missedCall_message").into(),
                ),
            ],
            heads_up: false,
            when: sys.clock.now(),
            intent: Some(Intent {
                action: Some("android.intent.action.VIEW".into()),
                mime: Some("vnd.android.cursor.dir/calls".into()),
                ..Intent::default()
            }),
            tag: Some(MISSED_CALL_TAG.into()),
            target: None,
            auto_cancel: true,
            ongoing: false,
            full_screen: None,
        });
    }
    notify_state(sys, &call.number);
    Ok(())
}

/// The console's `gsm cancel`: the remote side hangs up a call to or from `number`.
pub fn cancel(sys: &mut System, number: &str) -> Result<(), TelephonyError> {
    if !valid_number(number) {
        return Err(TelephonyError::BadNumber);
    }
    let id = sys
        .telephony
        .find_number(number)
        .ok_or(TelephonyError::CannotCancel)?;
    end(sys, id, Ending::Remote)
}

/// The console's `gsm accept`: the call to or from `number` becomes active.
pub fn accept(sys: &mut System, number: &str) -> Result<(), TelephonyError> {
    let id = sys
        .telephony
        .find_number(number)
        .ok_or_else(|| TelephonyError::NoCall(number.to_string()))?;
    answer(sys, id)
}

/// The console's `gsm hold`.
pub fn hold(sys: &mut System, number: &str) -> Result<(), TelephonyError> {
    let id = sys
        .telephony
        .find_number(number)
        .ok_or_else(|| TelephonyError::NoCall(number.to_string()))?;
    set_held(sys, id, true)
}

/// `gsm list`: one line per call as the emulator console prints it.
pub fn list(sys: &System) -> String {
    sys.telephony
        .calls
        .iter()
        .map(|c| {
            let dir = match c.direction {
                Direction::Outgoing => "outbound to ",
                Direction::Incoming => "inbound from",
            };
            let state = match c.status {
                Status::Ringing => "incoming",
                Status::Active => "active",
                Status::Held => "held",
            };
            format!("{dir} {:<10} : {state}\r\n", c.number)
        })
        .collect()
}

/// A text arrives from the network (`sms send`): the telephony provider stores it in the inbox
/// (type 1, unread, in the sender's thread) and InboundSmsHandler hands it to the SMS role's holder
/// (`SmsApplication.getDefaultSmsApplication`), whose receiver posts the notification. Returns the
/// new row's `_id`.
pub fn receive_sms(sys: &mut System, from: &str, body: &str) -> Result<i64, TelephonyError> {
    if from.is_empty()
        || !from
            .strip_prefix('+')
            .unwrap_or(from)
            .chars()
            .all(|c| c.is_ascii_digit())
    {
        return Err(TelephonyError::BadNumber);
    }
    let now = now_ms(sys);
    let provider = |e: rusqlite::Error| TelephonyError::Provider {
        what: "SMS",
        reason: e.to_string(),
    };
    let conn = sms::open(sys).map_err(provider)?;
    let id = sms::insert_sms(&conn, from, body, now, sms::TYPE_INBOX, false).map_err(provider)?;
    // A text that just arrived has not been seen in any list yet.
    conn.execute("UPDATE sms SET seen = 0 WHERE _id = ?1", [id])
        .map_err(provider)?;
    let thread = sms::thread_for(&conn, from).map_err(provider)?;
    drop(conn);
    let text = texting::Delivered {
        thread_id: thread,
        from,
        body,
    };
    let holder = sys.roles.sms_holder().map(str::to_string);
    let Some((holder, (receiver, notification))) =
        holder.and_then(|h| texting::deliver_to(sys, &h, text).map(|d| (h, d)))
    else {
        return Ok(id);
    };
    sys.log(
        pid::PHONE,
        'D',
        "GsmInboundSmsHandler",
        format!("Delivering SMS to: {holder} {receiver}"),
    );
    sys.notify(notification);
    Ok(id)
}

/// `dumpsys telephony.registry` as TelephonyRegistry.dump heads it (IndentingPrintWriter, two
/// spaces per level): the per-phone lines whose format the platform source fixes, for the one
/// phone. Service state, signal strength and cell records are left out rather than invented.
pub fn dump_registry(sys: &System) -> String {
    let t = &sys.telephony;
    // PreciseCallState values: IDLE 0, ACTIVE 1, HOLDING 2, INCOMING 5.
    let precise = |s: Status, value: i32| {
        if t.calls.iter().any(|c| c.status == s) {
            value
        } else {
            0
        }
    };
    format!(
        "last known state:\n  Phone Id=0\n    mCallState={}\n    mRingingCallState={}\n    mForegroundCallState={}\n    mBackgroundCallState={}\n    mCallDisconnectCause=-1\n    mCallIncomingNumber={}\n    mVoiceActivationState= 0\n    mDataActivationState= 0\n    mUserMobileDataState= true\n    mMessageWaiting=false\n    mCallForwarding=false\n    mDataActivity=0\n    mDataConnectionState=2\n  mCarrierNetworkChangeState=false\n  mActiveDataSubId=1\n  mRadioPowerState=1\n  mDefaultPhoneId=0\n  mDefaultSubId=1\n",
        t.state(),
        precise(Status::Ringing, 5),
        precise(Status::Active, 1),
        precise(Status::Held, 2),
        t.last_number
    )
}
