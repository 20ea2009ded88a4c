//! Fuzz target: any text through the mksh grammar the embedded phone's shell parses (`sh -c` lines
//! from adb clients, task setup), and each of its lines through one embedded phone's emulator
//! console (`gsm`, `sms`, `avd`, … as `adb emu` and task setup send them). Errors are values;
//! nothing may panic or loop (ARCHITECTURE: shell input never panics).

use std::sync::OnceLock;

use droidmcp::sim::shell::parse;
use droidmcp::sim::{Phone, SimConfig};

/// One phone for the whole run: booting one per input would measure boots, not the console. Its
/// state drifts with the inputs, as a phone's does under a client.
fn phone() -> &'static Phone {
    static PHONE: OnceLock<Phone> = OnceLock::new();
    PHONE.get_or_init(|| Phone::new(SimConfig::default()).expect("phone boots"))
}

pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse::parse(text);
    let _ = parse::parse_nested(text, 0);
    for line in text.lines().take(4) {
        // A saved snapshot holds every file of the phone: thousands of saves would measure memory,
        // not the console's parsing.
        if line.len() <= 300 && !line.to_ascii_lowercase().contains("save") {
            let _ = phone().console(line);
        }
    }
}
