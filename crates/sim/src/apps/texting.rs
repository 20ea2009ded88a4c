//! What the phone's two texting apps share. Google Messages (the default SMS app) and Simple SMS
//! Messenger both keep no messages of their own: they read and write the telephony provider
//! (`mmssms.db`), so finding a number's thread, reading one (its texts marked read), sending a
//! text through `SmsManager` into the sent box and finding the contacts that typed text means are
//! one code here, and each app only draws them its own way.

use crate::apps::{communication, messages, simple_sms};
use crate::providers::{contacts, now_ms, phone_number, telephony};
use crate::system::{Notification, System};

/// A text the network delivered, as the default SMS app's SMS_DELIVER receiver gets it.
#[derive(Debug, Clone, Copy)]
pub struct Delivered<'a> {
    pub thread_id: i64,
    pub from: &'a str,
    pub body: &'a str,
}

/// What texting app `package` does with a text it gets as the default SMS app: its SMS_DELIVER
/// receiver (the component InboundSmsHandler names) and the notification that receiver posts.
/// `None` for a package that is no texting app here.
pub fn deliver_to(
    sys: &System,
    package: &str,
    text: Delivered,
) -> Option<(&'static str, Notification)> {
    match package {
        messages::PACKAGE => Some((
            messages::SMS_RECEIVER,
            messages::incoming_notification(sys, text),
        )),
        simple_sms::PACKAGE => Some((
            simple_sms::SMS_RECEIVER,
            simple_sms::incoming_notification(sys, text),
        )),
        _ => None,
    }
}

/// `Long.hashCode()` of a thread id: the id both apps post a thread's notification under.
pub fn notification_id(thread_id: i64) -> i32 {
    (thread_id ^ ((thread_id as u64) >> 32) as i64) as i32
}

/// The thread of `address`, or of another way of writing the same line, when one exists.
pub fn existing_thread(sys: &System, address: &str) -> Option<i64> {
    let conn = telephony::open(sys).ok()?;
    telephony::threads(&conn)
        .ok()?
        .into_iter()
        .find(|t| t.address == address || phone_number::same_line(&t.address, address))
        .map(|t| t.id)
}

/// The recipient address a thread was stored with, as the provider keeps it.
pub fn thread_address(sys: &System, thread_id: i64) -> Option<String> {
    let conn = telephony::open(sys).ok()?;
    telephony::threads(&conn)
        .ok()?
        .into_iter()
        .find(|t| t.id == thread_id)
        .map(|t| t.address)
}

/// Marks a thread's texts read and seen, as opening the conversation does.
pub fn mark_read(sys: &System, thread_id: i64) {
    if let Ok(conn) = telephony::open(sys) {
        let _ = telephony::mark_read(&conn, thread_id);
    }
}

/// A thread's texts, oldest first (none for a conversation not started yet, `thread_id < 0`).
pub fn messages(sys: &System, thread_id: i64) -> Vec<telephony::Sms> {
    if thread_id < 0 {
        return Vec::new();
    }
    telephony::open(sys)
        .and_then(|conn| telephony::messages(&conn, thread_id))
        .unwrap_or_default()
}

/// A text that was sent: its `sms` row and thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sent {
    pub sms_id: i64,
    pub thread_id: i64,
}

/// Sends `body` to `address` from `package`: the provider files it in the sent box (type 2) of
/// the address's thread with the app as its creator, and SmsManager logs the send.
pub fn send(sys: &mut System, package: &str, address: &str, body: &str) -> rusqlite::Result<Sent> {
    let date = now_ms(sys);
    let sent = telephony::open(sys).and_then(|conn| {
        let sms_id = telephony::insert_sent(&conn, package, address, body, date)?;
        let thread_id = telephony::thread_for(&conn, address)?;
        Ok(Sent { sms_id, thread_id })
    })?;
    sys.log(
        communication::SYSTEM_SERVER_PID,
        'I',
        "SmsManager",
        format!(
            "sendTextMessage: destination {} length {}",
            phone_number::strip_separators(address),
            body.chars().count()
        ),
    );
    Ok(sent)
}

/// One phone number of a contact, as a recipient picker lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactNumber {
    pub name: String,
    pub number: String,
    /// The number's type label ("Mobile", "Work"…).
    pub label: String,
}

/// The contacts' numbers whose contact name or number matches `query` (every number for an empty
/// query), in the provider's contact order.
pub fn matching_numbers(sys: &System, query: &str) -> Vec<ContactNumber> {
    let q = query.trim().to_lowercase();
    let q_digits = phone_number::digits(&q);
    contacts::open(sys)
        .and_then(|c| contacts::all(&c))
        .unwrap_or_default()
        .into_iter()
        .flat_map(|c| {
            let name = c.name.clone();
            c.phones
                .into_iter()
                .map(move |(number, kind)| ContactNumber {
                    name: name.clone(),
                    number,
                    label: contacts::phone_type_label(kind).to_string(),
                })
        })
        .filter(|c| {
            q.is_empty()
                || c.name.to_lowercase().contains(&q)
                || (!q_digits.is_empty() && phone_number::digits(&c.number).contains(&q_digits))
        })
        .collect()
}

/// Lines a message bubble needs for `text` at `width` characters per line.
pub fn wrap_count(text: &str, width: usize) -> usize {
    text.split('\n')
        .map(|l| l.chars().count().div_ceil(width.max(1)).max(1))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bubbles_wrap_each_line_on_its_own() {
        assert_eq!(wrap_count("", 10), 1);
        assert_eq!(wrap_count("0123456789", 10), 1);
        assert_eq!(wrap_count("0123456789a", 10), 2);
        assert_eq!(wrap_count("a\nb", 10), 2);
    }
}
