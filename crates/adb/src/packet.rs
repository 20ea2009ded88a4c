//! Device-side ADB frames: the 24-byte message header and its payload, as bytes ↔ [`Packet`], with no I/O.
//!
//! Layout (six little-endian `u32`s, then `data_length` payload bytes):
//!
//! ```text
//! command | arg0 | arg1 | data_length | data_check | magic (= command ^ 0xffffffff)
//! ```
//!
//! `data_check` is the byte sum of the payload, required only when the negotiated version is
//! [`VERSION_CHECKSUM`]; later versions send 0 and nobody verifies it. Parsing follows mini-redis:
//! [`Packet::parse`] returns `Ok(None)` while the buffer holds only part of a packet, and an error only
//! when the bytes can never become a valid packet (bad magic, unknown command, oversized payload) — the
//! caller then drops the whole connection, since framing is lost.

/// Size of the fixed header.
pub const HEADER_LEN: usize = 24;
/// The version that still requires payload checksums.
pub const VERSION_CHECKSUM: u32 = 0x0100_0000;
/// The version we speak (`A_VERSION_SKIP_CHECKSUM`).
pub const VERSION_SKIP_CHECKSUM: u32 = 0x0100_0001;
/// The largest payload adb allows before maxdata is negotiated (CNXN and AUTH must fit).
pub const MAX_PAYLOAD_V1: usize = 4096;
/// The largest payload any adb peer may send (`MAX_PAYLOAD`).
pub const MAX_PAYLOAD: usize = 1024 * 1024;

/// A message type of the device transport.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Cnxn,
    Auth,
    Open,
    Okay,
    Wrte,
    Clse,
    Stls,
    /// Obsolete, never sent by adb 29 or later; accepted so it can be ignored.
    Sync,
}

impl Command {
    pub const fn code(self) -> u32 {
        match self {
            Command::Cnxn => 0x4e58_4e43,
            Command::Auth => 0x4854_5541,
            Command::Open => 0x4e45_504f,
            Command::Okay => 0x5941_4b4f,
            Command::Wrte => 0x4554_5257,
            Command::Clse => 0x4553_4c43,
            Command::Stls => 0x534c_5453,
            Command::Sync => 0x434e_5953,
        }
    }

    pub fn from_code(code: u32) -> Option<Command> {
        [
            Command::Cnxn,
            Command::Auth,
            Command::Open,
            Command::Okay,
            Command::Wrte,
            Command::Clse,
            Command::Stls,
            Command::Sync,
        ]
        .into_iter()
        .find(|c| c.code() == code)
    }
}

/// Why bytes from a peer can never form a packet; the connection must be dropped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PacketError {
    #[error("bad magic 0x{magic:08x} for command 0x{command:08x}")]
    BadMagic { command: u32, magic: u32 },
    #[error("unknown command 0x{0:08x}")]
    UnknownCommand(u32),
    #[error("payload of {len} bytes exceeds the limit of {limit}")]
    TooLong { len: usize, limit: usize },
}

/// One ADB message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packet {
    pub command: Command,
    pub arg0: u32,
    pub arg1: u32,
    pub payload: Vec<u8>,
}

fn le_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The "checksum" adb uses: the plain sum of the payload bytes.
pub fn checksum(payload: &[u8]) -> u32 {
    payload
        .iter()
        .fold(0u32, |sum, &b| sum.wrapping_add(u32::from(b)))
}

impl Packet {
    pub fn new(command: Command, arg0: u32, arg1: u32, payload: impl Into<Vec<u8>>) -> Packet {
        Packet {
            command,
            arg0,
            arg1,
            payload: payload.into(),
        }
    }

    /// Parses one packet from the front of `buf`, returning it and the bytes it used, or `Ok(None)` when
    /// more bytes are needed. `max_payload` is the largest payload this side accepts.
    pub fn parse(buf: &[u8], max_payload: usize) -> Result<Option<(Packet, usize)>, PacketError> {
        if buf.len() < HEADER_LEN {
            return Ok(None);
        }
        let code = le_u32(buf, 0);
        let magic = le_u32(buf, 20);
        if magic != code ^ 0xffff_ffff {
            return Err(PacketError::BadMagic {
                command: code,
                magic,
            });
        }
        let command = Command::from_code(code).ok_or(PacketError::UnknownCommand(code))?;
        let len = le_u32(buf, 12) as usize;
        if len > max_payload {
            return Err(PacketError::TooLong {
                len,
                limit: max_payload,
            });
        }
        if buf.len() < HEADER_LEN + len {
            return Ok(None);
        }
        let packet = Packet {
            command,
            arg0: le_u32(buf, 4),
            arg1: le_u32(buf, 8),
            payload: buf[HEADER_LEN..HEADER_LEN + len].to_vec(),
        };
        Ok(Some((packet, HEADER_LEN + len)))
    }

    /// Header and payload in one buffer, so the caller writes each packet with one write (no Nagle
    /// stall between header and payload).
    pub fn encode(&self, with_checksum: bool) -> Vec<u8> {
        let code = self.command.code();
        let check = if with_checksum {
            checksum(&self.payload)
        } else {
            0
        };
        let mut out = Vec::with_capacity(HEADER_LEN + self.payload.len());
        for word in [
            code,
            self.arg0,
            self.arg1,
            self.payload.len() as u32,
            check,
            code ^ 0xffff_ffff,
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&self.payload);
        out
    }
}

/// What a CNXN payload (`systemtype:serial:banner`) says about the peer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Banner {
    pub system_type: String,
    pub properties: Vec<(String, String)>,
    pub features: Vec<String>,
}

impl Banner {
    /// Parses `host::features=a,b` or `device::ro.product.name=x;…;features=a,b` the way adb's
    /// `parse_banner` does; anything unexpected is kept out rather than rejected.
    pub fn parse(payload: &[u8]) -> Banner {
        let text = String::from_utf8_lossy(payload);
        let text = text.trim_end_matches('\0');
        let mut parts = text.splitn(3, ':');
        let system_type = parts.next().unwrap_or("").to_string();
        let _serial = parts.next();
        let mut banner = Banner {
            system_type,
            ..Banner::default()
        };
        for field in parts.next().unwrap_or("").split(';') {
            let Some((key, value)) = field.split_once('=') else {
                continue;
            };
            if key == "features" {
                banner.features = value
                    .split(',')
                    .filter(|f| !f.is_empty())
                    .map(str::to_string)
                    .collect();
            } else {
                banner.properties.push((key.to_string(), value.to_string()));
            }
        }
        banner
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut fields: Vec<String> = self
            .properties
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        fields.push(format!("features={}", self.features.join(",")));
        format!("{}::{}", self.system_type, fields.join(";")).into_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_waits_for_every_split() {
        let packet = Packet::new(Command::Wrte, 7, 9, b"hello".to_vec());
        let bytes = packet.encode(true);
        for cut in 0..bytes.len() {
            assert_eq!(
                Packet::parse(&bytes[..cut], MAX_PAYLOAD),
                Ok(None),
                "cut {cut}"
            );
        }
        assert_eq!(
            Packet::parse(&bytes, MAX_PAYLOAD),
            Ok(Some((packet, bytes.len())))
        );
        assert_eq!(le_u32(&bytes, 16), 532);
    }

    #[test]
    fn rejects_bad_magic_and_oversize() {
        let mut bytes = Packet::new(Command::Okay, 1, 2, Vec::new()).encode(false);
        bytes[20] ^= 1;
        assert!(matches!(
            Packet::parse(&bytes, 16),
            Err(PacketError::BadMagic { .. })
        ));
        let bytes = Packet::new(Command::Wrte, 1, 2, vec![0; 17]).encode(false);
        assert!(matches!(
            Packet::parse(&bytes, 16),
            Err(PacketError::TooLong { .. })
        ));
    }

    #[test]
    fn banner_parses_like_adb() {
        let b =
            Banner::parse(b"device::ro.product.name=p;ro.product.model=M;features=shell_v2,cmd\0");
        assert_eq!(b.system_type, "device");
        assert_eq!(b.features, ["shell_v2", "cmd"]);
        assert_eq!(b.properties[1], ("ro.product.model".into(), "M".into()));
        assert_eq!(Banner::parse(&b.encode()), b);
    }
}
