//! The `sync:` file-transfer protocol: its frames (bytes ↔ [`SyncFrame`], no I/O) and the client-side
//! commands (stat, list, pull, push) over any byte stream to a device.
//!
//! Every message starts with a 4-byte id and a little-endian `u32`. Requests `STAT`/`STA2`/`LST2`/
//! `LIST`/`LIS2`/`RECV`/`SEND` and the `DATA` chunk carry that many bytes after it (a path, or file
//! bytes); `DONE` (with an mtime) and `QUIT` carry none. Replies: `STAT mode size mtime` (all zero when
//! missing), a 72-byte `sync_stat_v2` for `STA2`/`LST2` (`error` 2 = ENOENT, 13 = EACCES), `DENT`/`DNT2`
//! entries ended by `DONE`, `DATA` chunks ended by `DONE`, `OKAY`, or `FAIL len message`.

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// The largest `DATA` chunk (`SYNC_DATA_MAX`).
pub const DATA_MAX: usize = 64 * 1024;
/// Paths longer than this are rejected (`PATH_MAX`).
pub const PATH_MAX: usize = 1024;

pub const STAT: [u8; 4] = *b"STAT";
pub const STA2: [u8; 4] = *b"STA2";
pub const LST2: [u8; 4] = *b"LST2";
pub const LIST: [u8; 4] = *b"LIST";
pub const LIS2: [u8; 4] = *b"LIS2";
pub const DENT: [u8; 4] = *b"DENT";
pub const DNT2: [u8; 4] = *b"DNT2";
pub const RECV: [u8; 4] = *b"RECV";
pub const SEND: [u8; 4] = *b"SEND";
pub const DATA: [u8; 4] = *b"DATA";
pub const DONE: [u8; 4] = *b"DONE";
pub const OKAY: [u8; 4] = *b"OKAY";
pub const FAIL: [u8; 4] = *b"FAIL";
pub const QUIT: [u8; 4] = *b"QUIT";

/// errno values the protocol carries.
pub const ENOENT: u32 = 2;
pub const EACCES: u32 = 13;

/// File type bits of `st_mode`.
pub const S_IFREG: u32 = 0o100000;
pub const S_IFDIR: u32 = 0o040000;

/// One request (or `DATA`/`DONE` chunk) sent to the device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncFrame {
    pub id: [u8; 4],
    /// The payload length for ids that carry one, else the value (`DONE`'s mtime).
    pub arg: u32,
    pub payload: Vec<u8>,
}

/// Bytes that can never become a valid sync request; the stream must be closed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SyncFrameError {
    #[error("unknown sync request {0:?}")]
    UnknownId(String),
    #[error("sync {id} of {len} bytes exceeds the limit of {limit}")]
    TooLong {
        id: String,
        len: usize,
        limit: usize,
    },
}

fn id_text(id: [u8; 4]) -> String {
    String::from_utf8_lossy(&id).into_owned()
}

impl SyncFrame {
    /// Parses one client request from the front of `buf`; `Ok(None)` while incomplete. Requests may be
    /// split across transport packets, or several may share one, so the caller keeps a buffer.
    pub fn parse_request(buf: &[u8]) -> Result<Option<(SyncFrame, usize)>, SyncFrameError> {
        if buf.len() < 8 {
            return Ok(None);
        }
        let id = [buf[0], buf[1], buf[2], buf[3]];
        let arg = u32::from_le_bytes([buf[4], buf[5], buf[6], buf[7]]);
        let limit = match id {
            DONE | QUIT => {
                return Ok(Some((
                    SyncFrame {
                        id,
                        arg,
                        payload: Vec::new(),
                    },
                    8,
                )))
            }
            DATA => DATA_MAX,
            STAT | STA2 | LST2 | LIST | LIS2 | RECV | SEND => PATH_MAX,
            _ => return Err(SyncFrameError::UnknownId(id_text(id))),
        };
        let len = arg as usize;
        if len > limit {
            return Err(SyncFrameError::TooLong {
                id: id_text(id),
                len,
                limit,
            });
        }
        if buf.len() < 8 + len {
            return Ok(None);
        }
        let payload = buf[8..8 + len].to_vec();
        Ok(Some((SyncFrame { id, arg, payload }, 8 + len)))
    }

    /// A request whose payload is a path (or `path,mode` for SEND).
    pub fn request(id: [u8; 4], payload: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(8 + payload.len());
        out.extend_from_slice(&id);
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(payload);
        out
    }
}

/// What `lstat` says about a path, in the `sync_stat_v2` shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FileStat {
    /// 0 when the path exists, else an errno ([`ENOENT`], [`EACCES`]).
    pub error: u32,
    pub mode: u32,
    pub size: u64,
    pub mtime: i64,
}

impl FileStat {
    pub fn missing(errno: u32) -> FileStat {
        FileStat {
            error: errno,
            ..FileStat::default()
        }
    }

    pub fn is_dir(&self) -> bool {
        self.error == 0 && self.mode & 0o170000 == S_IFDIR
    }

    /// The 16-byte v1 `STAT` reply (all zero for a missing path, sizes truncated to 32 bits).
    pub fn encode_v1(&self) -> Vec<u8> {
        let mut out = STAT.to_vec();
        for word in [self.mode, self.size as u32, self.mtime as u32] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out
    }

    /// The 72-byte `sync_stat_v2` reply under `id` (`STA2`, `LST2` or `DNT2`).
    pub fn encode_v2(&self, id: [u8; 4]) -> Vec<u8> {
        let mut out = Vec::with_capacity(72);
        out.extend_from_slice(&id);
        out.extend_from_slice(&self.error.to_le_bytes());
        out.extend_from_slice(&0u64.to_le_bytes()); // dev
        out.extend_from_slice(&0u64.to_le_bytes()); // ino
        out.extend_from_slice(&self.mode.to_le_bytes());
        out.extend_from_slice(&1u32.to_le_bytes()); // nlink
        out.extend_from_slice(&0u32.to_le_bytes()); // uid: root, as on the embedded phone
        out.extend_from_slice(&0u32.to_le_bytes()); // gid
        out.extend_from_slice(&self.size.to_le_bytes());
        for time in [self.mtime, self.mtime, self.mtime] {
            out.extend_from_slice(&time.to_le_bytes());
        }
        out
    }

    fn decode_v2(bytes: &[u8; 72]) -> FileStat {
        let u32_at = |at: usize| {
            u32::from_le_bytes(
                bytes[at..at + 4]
                    .try_into()
                    .expect("4-byte slice of a fixed array"),
            )
        };
        let u64_at = |at: usize| {
            u64::from_le_bytes(
                bytes[at..at + 8]
                    .try_into()
                    .expect("8-byte slice of a fixed array"),
            )
        };
        FileStat {
            error: u32_at(4),
            mode: u32_at(24),
            size: u64_at(40),
            mtime: u64_at(56) as i64,
        }
    }
}

/// A `DENT` reply for one directory entry (v1 shape).
pub fn encode_dent(name: &str, stat: &FileStat) -> Vec<u8> {
    let mut out = DENT.to_vec();
    for word in [
        stat.mode,
        stat.size as u32,
        stat.mtime as u32,
        name.len() as u32,
    ] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(name.as_bytes());
    out
}

/// A `DNT2` reply for one directory entry (v2 shape).
pub fn encode_dent_v2(name: &str, stat: &FileStat) -> Vec<u8> {
    let mut out = stat.encode_v2(DNT2);
    out.extend_from_slice(&(name.len() as u32).to_le_bytes());
    out.extend_from_slice(name.as_bytes());
    out
}

/// The entry that ends a listing: a zeroed `DENT` (or `DNT2` for `LIS2`) whose id is `DONE`.
pub fn encode_list_end(v2: bool) -> Vec<u8> {
    let mut out = if v2 {
        encode_dent_v2("", &FileStat::default())
    } else {
        encode_dent("", &FileStat::default())
    };
    out[..4].copy_from_slice(&DONE);
    out
}

/// A reply with an id and a value and no payload (`DONE 0`, `OKAY 0`).
pub fn encode_status(id: [u8; 4], value: u32) -> Vec<u8> {
    let mut out = id.to_vec();
    out.extend_from_slice(&value.to_le_bytes());
    out
}

/// A `FAIL` reply carrying a message.
pub fn encode_fail(message: &str) -> Vec<u8> {
    SyncFrame::request(FAIL, message.as_bytes())
}

/// Why a client-side sync command failed.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    /// The device refused (`FAIL message`), e.g. `open failed: Permission denied`.
    #[error("{0}")]
    Failed(String),
    #[error("unexpected sync reply {0:?}")]
    Unexpected(String),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

async fn read_id_and_u32<S: AsyncRead + Unpin>(stream: &mut S) -> std::io::Result<([u8; 4], u32)> {
    let mut header = [0u8; 8];
    stream.read_exact(&mut header).await?;
    let id = [header[0], header[1], header[2], header[3]];
    Ok((
        id,
        u32::from_le_bytes([header[4], header[5], header[6], header[7]]),
    ))
}

async fn read_fail<S: AsyncRead + Unpin>(stream: &mut S, len: u32) -> SyncError {
    let mut message = vec![0u8; (len as usize).min(PATH_MAX * 4)];
    match stream.read_exact(&mut message).await {
        Ok(_) => SyncError::Failed(String::from_utf8_lossy(&message).into_owned()),
        Err(e) => SyncError::Io(e),
    }
}

/// `STA2`: the v2 stat of a path (64-bit sizes, errno on failure).
pub async fn stat_v2<S>(stream: &mut S, path: &str) -> Result<FileStat, SyncError>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    stream
        .write_all(&SyncFrame::request(STA2, path.as_bytes()))
        .await?;
    let mut reply = [0u8; 72];
    stream.read_exact(&mut reply[..8]).await?;
    if reply[..4] == FAIL {
        let len = u32::from_le_bytes([reply[4], reply[5], reply[6], reply[7]]);
        return Err(read_fail(stream, len).await);
    }
    if reply[..4] != STA2 {
        return Err(SyncError::Unexpected(id_text([
            reply[0], reply[1], reply[2], reply[3],
        ])));
    }
    stream.read_exact(&mut reply[8..]).await?;
    Ok(FileStat::decode_v2(&reply))
}

/// `STAT`: the v1 stat (for devices without `stat_v2`); a missing path is all zeros, reported as ENOENT.
pub async fn stat_v1<S>(stream: &mut S, path: &str) -> Result<FileStat, SyncError>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    stream
        .write_all(&SyncFrame::request(STAT, path.as_bytes()))
        .await?;
    let mut reply = [0u8; 16];
    stream.read_exact(&mut reply).await?;
    if reply[..4] != STAT {
        return Err(SyncError::Unexpected(id_text([
            reply[0], reply[1], reply[2], reply[3],
        ])));
    }
    let word =
        |at: usize| u32::from_le_bytes([reply[at], reply[at + 1], reply[at + 2], reply[at + 3]]);
    let (mode, size, mtime) = (word(4), word(8), word(12));
    if mode == 0 && size == 0 && mtime == 0 {
        return Ok(FileStat::missing(ENOENT));
    }
    Ok(FileStat {
        error: 0,
        mode,
        size: u64::from(size),
        mtime: i64::from(mtime),
    })
}

/// `LIST`: the names in a directory (without `.` and `..`) with their v1 stats.
pub async fn list<S>(stream: &mut S, path: &str) -> Result<Vec<(String, FileStat)>, SyncError>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    stream
        .write_all(&SyncFrame::request(LIST, path.as_bytes()))
        .await?;
    let mut entries = Vec::new();
    loop {
        let mut reply = [0u8; 20];
        stream.read_exact(&mut reply[..8]).await?;
        match [reply[0], reply[1], reply[2], reply[3]] {
            DONE => {
                // DONE in a listing is a full 20-byte dent of zeros.
                stream.read_exact(&mut reply[8..]).await?;
                return Ok(entries);
            }
            DENT => {
                stream.read_exact(&mut reply[8..]).await?;
                let word = |at: usize| {
                    u32::from_le_bytes([reply[at], reply[at + 1], reply[at + 2], reply[at + 3]])
                };
                let name_len = (word(16) as usize).min(PATH_MAX);
                let mut name = vec![0u8; name_len];
                stream.read_exact(&mut name).await?;
                let name = String::from_utf8_lossy(&name).into_owned();
                if name != "." && name != ".." {
                    let stat = FileStat {
                        error: 0,
                        mode: word(4),
                        size: u64::from(word(8)),
                        mtime: i64::from(word(12)),
                    };
                    entries.push((name, stat));
                }
            }
            FAIL => {
                let len = u32::from_le_bytes([reply[4], reply[5], reply[6], reply[7]]);
                return Err(read_fail(stream, len).await);
            }
            other => return Err(SyncError::Unexpected(id_text(other))),
        }
    }
}

/// `RECV`: the whole content of a file.
pub async fn recv<S>(stream: &mut S, path: &str) -> Result<Vec<u8>, SyncError>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    stream
        .write_all(&SyncFrame::request(RECV, path.as_bytes()))
        .await?;
    let mut content = Vec::new();
    loop {
        let (id, len) = read_id_and_u32(stream).await?;
        match id {
            DATA => {
                if len as usize > DATA_MAX {
                    return Err(SyncError::Unexpected(format!("DATA of {len} bytes")));
                }
                let start = content.len();
                content.resize(start + len as usize, 0);
                stream.read_exact(&mut content[start..]).await?;
            }
            DONE => return Ok(content),
            FAIL => return Err(read_fail(stream, len).await),
            other => return Err(SyncError::Unexpected(id_text(other))),
        }
    }
}

/// `SEND`: writes a whole file with `mode` and `mtime`; the request, data and DONE go out in one write,
/// as adb 29 does, then the device's OKAY or FAIL is read.
pub async fn send<S>(
    stream: &mut S,
    path: &str,
    mode: u32,
    data: &[u8],
    mtime: u32,
) -> Result<(), SyncError>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let target = format!("{path},{mode}");
    let mut out = SyncFrame::request(SEND, target.as_bytes());
    for chunk in data.chunks(DATA_MAX) {
        out.extend_from_slice(&SyncFrame::request(DATA, chunk));
    }
    out.extend_from_slice(&encode_status(DONE, mtime));
    stream.write_all(&out).await?;
    let (id, len) = read_id_and_u32(stream).await?;
    match id {
        OKAY => Ok(()),
        FAIL => Err(read_fail(stream, len).await),
        other => Err(SyncError::Unexpected(id_text(other))),
    }
}

/// `QUIT`: ends the sync session politely.
pub async fn quit<S>(stream: &mut S) -> Result<(), SyncError>
where
    S: AsyncWrite + Unpin,
{
    stream.write_all(&encode_status(QUIT, 0)).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_requests_split_or_batched() {
        let mut bytes = SyncFrame::request(SEND, b"/sdcard/a,33188");
        bytes.extend(SyncFrame::request(DATA, b"hi"));
        bytes.extend(encode_status(DONE, 7));
        let mut frames = Vec::new();
        let mut at = 0;
        while let Some((frame, used)) = SyncFrame::parse_request(&bytes[at..]).unwrap() {
            frames.push(frame);
            at += used;
        }
        assert_eq!(at, bytes.len());
        assert_eq!(frames.len(), 3);
        assert_eq!(frames[2].arg, 7);
        for cut in 0..23 {
            assert_eq!(
                SyncFrame::parse_request(&bytes[..cut]),
                Ok(None),
                "cut {cut}"
            );
        }
    }

    #[test]
    fn rejects_unknown_and_oversized() {
        assert!(SyncFrame::parse_request(b"XXXX\0\0\0\0").is_err());
        assert!(SyncFrame::parse_request(&SyncFrame::request(RECV, &[b'a'; 2000])).is_err());
    }

    #[test]
    fn stat_v2_layout_is_72_bytes() {
        let stat = FileStat {
            error: 0,
            mode: S_IFREG | 0o644,
            size: 5,
            mtime: 9,
        };
        let bytes: [u8; 72] = stat.encode_v2(STA2).try_into().unwrap();
        assert_eq!(FileStat::decode_v2(&bytes), stat);
    }
}
