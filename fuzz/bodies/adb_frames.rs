//! Fuzz target: peer bytes through every adb frame reader the device side and the client use — the
//! transport packet (24-byte header and payload, any max payload), the CNXN banner, shell v2
//! packets and sync requests — each read in a loop as a connection would, so a frame cut anywhere
//! and frames back to back are covered. Nothing may panic or loop.

use droidmcp::adb::packet::{Banner, Packet};
use droidmcp::adb::shell_v2::ShellPacket;
use droidmcp::adb::sync::SyncFrame;

pub fn run(data: &[u8]) {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    match selector % 4 {
        0 => {
            let max = [4096usize, 256 * 1024, 1 << 20][(selector / 4 % 3) as usize];
            let mut rest = bytes;
            while let Ok(Some((packet, used))) = Packet::parse(rest, max) {
                assert!(used > 0 && used <= rest.len());
                let _ = Banner::parse(&packet.payload);
                rest = &rest[used..];
            }
        }
        1 => {
            let banner = Banner::parse(bytes);
            let _ = Banner::parse(&banner.encode());
        }
        2 => {
            let mut rest = bytes;
            while let Ok(Some((_, used))) = ShellPacket::parse(rest) {
                assert!(used > 0 && used <= rest.len());
                rest = &rest[used..];
            }
        }
        _ => {
            let mut rest = bytes;
            while let Ok(Some((_, used))) = SyncFrame::parse_request(rest) {
                assert!(used > 0 && used <= rest.len());
                rest = &rest[used..];
            }
        }
    }
}
