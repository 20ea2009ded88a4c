//! The shell v2 protocol carried inside a `shell,v2,…:` stream: `[id u8][len u32 LE][data]` packets that
//! separate stdin, stdout, stderr and the exit code. Bytes ↔ [`ShellPacket`], no I/O; both the client
//! (demultiplexing a command's output) and the embedded adbd (multiplexing it) use it.

/// Which channel a shell v2 packet belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    Stdin,
    Stdout,
    Stderr,
    /// One byte: the command's exit status.
    Exit,
    CloseStdin,
    WindowSize,
    /// An id this version does not know; kept so the stream can skip it.
    Other(u8),
}

impl Channel {
    pub fn id(self) -> u8 {
        match self {
            Channel::Stdin => 0,
            Channel::Stdout => 1,
            Channel::Stderr => 2,
            Channel::Exit => 3,
            Channel::CloseStdin => 4,
            Channel::WindowSize => 5,
            Channel::Other(id) => id,
        }
    }

    pub fn from_id(id: u8) -> Channel {
        match id {
            0 => Channel::Stdin,
            1 => Channel::Stdout,
            2 => Channel::Stderr,
            3 => Channel::Exit,
            4 => Channel::CloseStdin,
            5 => Channel::WindowSize,
            other => Channel::Other(other),
        }
    }
}

/// Packet header size: id plus length.
pub const HEADER_LEN: usize = 5;
/// A length above this is treated as a corrupt stream rather than buffered.
pub const MAX_PACKET: usize = 64 * 1024 * 1024;

/// One shell v2 packet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellPacket {
    pub channel: Channel,
    pub data: Vec<u8>,
}

/// The stream announced a packet larger than [`MAX_PACKET`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("shell v2 packet of {0} bytes is larger than any real output")]
pub struct OversizedPacket(pub usize);

impl ShellPacket {
    pub fn new(channel: Channel, data: impl Into<Vec<u8>>) -> ShellPacket {
        ShellPacket {
            channel,
            data: data.into(),
        }
    }

    /// Parses one packet from the front of `buf`; `Ok(None)` while incomplete.
    pub fn parse(buf: &[u8]) -> Result<Option<(ShellPacket, usize)>, OversizedPacket> {
        if buf.len() < HEADER_LEN {
            return Ok(None);
        }
        let len = u32::from_le_bytes([buf[1], buf[2], buf[3], buf[4]]) as usize;
        if len > MAX_PACKET {
            return Err(OversizedPacket(len));
        }
        if buf.len() < HEADER_LEN + len {
            return Ok(None);
        }
        let packet = ShellPacket::new(
            Channel::from_id(buf[0]),
            buf[HEADER_LEN..HEADER_LEN + len].to_vec(),
        );
        Ok(Some((packet, HEADER_LEN + len)))
    }

    pub fn encode_into(&self, out: &mut Vec<u8>) {
        out.push(self.channel.id());
        out.extend_from_slice(&(self.data.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.data);
    }
}

/// A whole command's result as one byte string: stdout, stderr (each only when non-empty), exit.
pub fn encode_result(stdout: &[u8], stderr: &[u8], exit_code: i32) -> Vec<u8> {
    let mut out = Vec::with_capacity(stdout.len() + stderr.len() + 3 * HEADER_LEN + 1);
    if !stdout.is_empty() {
        ShellPacket::new(Channel::Stdout, stdout).encode_into(&mut out);
    }
    if !stderr.is_empty() {
        ShellPacket::new(Channel::Stderr, stderr).encode_into(&mut out);
    }
    // The exit packet carries one byte, as a real `sh` status does (0–255).
    ShellPacket::new(Channel::Exit, vec![(exit_code & 0xff) as u8]).encode_into(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_round_trips_through_any_split() {
        let bytes = encode_result(b"out", b"err", 3);
        let mut seen = Vec::new();
        let mut at = 0;
        while let Some((packet, used)) = ShellPacket::parse(&bytes[at..]).unwrap() {
            seen.push(packet);
            at += used;
        }
        assert_eq!(at, bytes.len());
        assert_eq!(
            seen,
            [
                ShellPacket::new(Channel::Stdout, b"out".to_vec()),
                ShellPacket::new(Channel::Stderr, b"err".to_vec()),
                ShellPacket::new(Channel::Exit, vec![3]),
            ]
        );
        for cut in 0..8 {
            assert_eq!(ShellPacket::parse(&bytes[..cut]), Ok(None));
        }
    }
}
