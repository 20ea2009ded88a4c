//! Audio and video files as media apps and MediaStore read them: what a file's headers say (title,
//! artist, album, duration, frame size) and small real files to push in task setup.
//!
//! MediaProvider's scanner takes an MP3's title and artist from its ID3v2 tag and its length from
//! the frames (the Xing/Info header's frame count less the LAME tag's encoder delay and padding, as
//! the frames a decoder plays; a file without one by its bitrate), and an MP4's length from the
//! movie header. AndroidWorld's songs are pydub exports (MPEG-2.5 layer III, an Info frame, ID3v2.4)
//! and its videos OpenCV's (`mp4v`, the movie box after the media data); both are read here from the
//! header bytes, never by decoding.

use std::io::{Read, Seek, SeekFrom};

/// What the headers of a media file say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tags {
    pub title: Option<String>,
    pub artist: Option<String>,
    pub album: Option<String>,
    pub duration_ms: Option<i64>,
    pub width: Option<i64>,
    pub height: Option<i64>,
}

/// Reads what the headers of the file at `path` say, by its extension; `None` for a file that is
/// neither MP3 nor MP4 or whose headers do not parse.
pub fn probe(path: &std::path::Path) -> Option<Tags> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)?;
    let mut file = std::fs::File::open(path).ok()?;
    let size = file.metadata().ok()?.len();
    match ext.as_str() {
        "mp3" => {
            // The tag and the first frames: an ID3v2 tag larger than this carries pictures, whose
            // frames come after the text ones.
            let mut head = Vec::new();
            (&mut file).take(256 * 1024).read_to_end(&mut head).ok()?;
            mp3_tags(&head, size)
        }
        "mp4" | "m4v" | "m4a" | "3gp" => mp4_tags(&mut file, size),
        _ => None,
    }
}

/// An ID3v2 tag's size in bytes (header, frames and footer), 0 when the data has none.
fn id3_len(data: &[u8]) -> usize {
    if data.len() < 10 || &data[..3] != b"ID3" {
        return 0;
    }
    let size = syncsafe(&data[6..10]) as usize;
    let footer = if data[5] & 0x10 != 0 { 10 } else { 0 };
    10 + size + footer
}

fn syncsafe(b: &[u8]) -> u32 {
    b.iter().fold(0, |n, &x| (n << 7) | u32::from(x & 0x7f))
}

/// An ID3v2 text frame's value: its encoding byte, then the text (ISO-8859-1, UTF-16 with BOM,
/// UTF-16BE or UTF-8), ending at the first terminator.
fn id3_text(body: &[u8]) -> Option<String> {
    let (&encoding, text) = body.split_first()?;
    let s = match encoding {
        0 => text.iter().map(|&b| char::from(b)).collect(),
        1 | 2 => {
            let (big, text) = match text {
                [0xff, 0xfe, rest @ ..] => (false, rest),
                [0xfe, 0xff, rest @ ..] => (true, rest),
                _ => (encoding == 2, text),
            };
            let units: Vec<u16> = text
                .chunks_exact(2)
                .map(|c| {
                    if big {
                        u16::from_be_bytes([c[0], c[1]])
                    } else {
                        u16::from_le_bytes([c[0], c[1]])
                    }
                })
                .collect();
            String::from_utf16_lossy(&units)
        }
        _ => String::from_utf8_lossy(text).into_owned(),
    };
    let s = s.split('\0').next().unwrap_or("").trim().to_string();
    (!s.is_empty()).then_some(s)
}

/// Title, artist and album from an ID3v2.3 or v2.4 tag at the start of `data`.
fn id3_fields(data: &[u8], tags: &mut Tags) {
    let end = id3_len(data).min(data.len());
    if end == 0 {
        return;
    }
    let version = data[3];
    let mut at = 10;
    // An extended header comes first when flagged.
    if data[5] & 0x40 != 0 && at + 4 <= end {
        let n = if version >= 4 {
            syncsafe(&data[at..at + 4])
        } else {
            u32::from_be_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]]) + 4
        };
        at += n as usize;
    }
    while at + 10 <= end {
        let id = &data[at..at + 4];
        if id[0] == 0 {
            break;
        }
        let raw = &data[at + 4..at + 8];
        let size = if version >= 4 {
            syncsafe(raw)
        } else {
            u32::from_be_bytes([raw[0], raw[1], raw[2], raw[3]])
        } as usize;
        let body = &data[(at + 10).min(end)..(at + 10 + size).min(end)];
        let slot = match id {
            b"TIT2" => Some(&mut tags.title),
            b"TPE1" => Some(&mut tags.artist),
            b"TALB" => Some(&mut tags.album),
            _ => None,
        };
        if let Some(slot) = slot {
            *slot = id3_text(body);
        }
        at += 10 + size;
    }
}

/// An MPEG audio frame header's fields.
#[derive(Debug, Clone, Copy)]
struct Frame {
    /// 1 for MPEG-1, 2 for MPEG-2 and MPEG-2.5.
    mpeg1: bool,
    sample_rate: u32,
    bitrate: u32,
    mono: bool,
    samples: u32,
}

fn frame_header(h: &[u8]) -> Option<Frame> {
    if h.len() < 4 || h[0] != 0xff || h[1] & 0xe0 != 0xe0 {
        return None;
    }
    let version = (h[1] >> 3) & 3; // 0 = 2.5, 2 = 2, 3 = 1
    let layer = (h[1] >> 1) & 3; // 1 = III
    if version == 1 || layer != 1 {
        return None;
    }
    let mpeg1 = version == 3;
    let bitrate_index = usize::from(h[2] >> 4);
    let rate_index = usize::from((h[2] >> 2) & 3);
    if bitrate_index == 0 || bitrate_index == 15 || rate_index == 3 {
        return None;
    }
    const V1: [u32; 15] = [
        0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320,
    ];
    const V2: [u32; 15] = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
    let bitrate = if mpeg1 { V1 } else { V2 }[bitrate_index] * 1000;
    let base = [44100, 48000, 32000][rate_index];
    let sample_rate = match version {
        3 => base,
        2 => base / 2,
        _ => base / 4,
    };
    Some(Frame {
        mpeg1,
        sample_rate,
        bitrate,
        mono: h[3] >> 6 == 3,
        samples: if mpeg1 { 1152 } else { 576 },
    })
}

/// The Xing/Info header's offset in a frame: after the header and the side information.
fn xing_offset(f: &Frame) -> usize {
    4 + match (f.mpeg1, f.mono) {
        (true, false) => 32,
        (true, true) | (false, false) => 17,
        (false, true) => 9,
    }
}

fn mp3_tags(data: &[u8], file_size: u64) -> Option<Tags> {
    let mut tags = Tags::default();
    id3_fields(data, &mut tags);
    let mut at = id3_len(data);
    // The first frame: the sync word after the tag (and any padding).
    let frame = loop {
        let h = data.get(at..at + 4)?;
        if let Some(f) = frame_header(h) {
            break f;
        }
        at += 1;
    };
    let x = at + xing_offset(&frame);
    let duration_ms = match data.get(x..x + 4) {
        Some(b"Xing") | Some(b"Info") => {
            let flags = u32::from_be_bytes(data.get(x + 4..x + 8)?.try_into().ok()?);
            let frames = if flags & 1 != 0 {
                u32::from_be_bytes(data.get(x + 8..x + 12)?.try_into().ok()?)
            } else {
                0
            };
            // The LAME extension follows the fields the flags say are there.
            let mut lame = x + 8;
            for (bit, len) in [(1u32, 4usize), (2, 4), (4, 100), (8, 4)] {
                if flags & bit != 0 {
                    lame += len;
                }
            }
            let (delay, padding) = match data.get(lame..lame + 24) {
                Some(ext) if ext[..4].iter().all(u8::is_ascii_alphanumeric) => {
                    let b = &ext[21..24];
                    (
                        (u32::from(b[0]) << 4) | u32::from(b[1] >> 4),
                        (u32::from(b[1] & 0x0f) << 8) | u32::from(b[2]),
                    )
                }
                _ => (0, 0),
            };
            let samples = (u64::from(frames) * u64::from(frame.samples))
                .saturating_sub(u64::from(delay + padding));
            (samples * 1000 / u64::from(frame.sample_rate)) as i64
        }
        // A constant bitrate: the audio's bytes at that rate.
        _ => ((file_size.saturating_sub(at as u64)) * 8000 / u64::from(frame.bitrate)) as i64,
    };
    tags.duration_ms = Some(duration_ms);
    Some(tags)
}

/// Reads an MP4's top-level boxes (seeking past the media data) for the movie header's duration
/// and the first video track's size.
fn mp4_tags<R: Read + Seek>(file: &mut R, size: u64) -> Option<Tags> {
    let mut at = 0u64;
    while at + 8 <= size {
        file.seek(SeekFrom::Start(at)).ok()?;
        let mut h = [0u8; 16];
        file.read_exact(&mut h[..8]).ok()?;
        let mut len = u64::from(u32::from_be_bytes([h[0], h[1], h[2], h[3]]));
        let mut header = 8;
        if len == 1 {
            file.read_exact(&mut h[8..16]).ok()?;
            len = u64::from_be_bytes(h[8..16].try_into().ok()?);
            header = 16;
        } else if len == 0 {
            len = size - at;
        }
        if len < header {
            return None;
        }
        if &h[4..8] == b"moov" {
            let mut moov = vec![0u8; (len - header).min(16 << 20) as usize];
            file.read_exact(&mut moov).ok()?;
            return Some(moov_tags(&moov));
        }
        at += len;
    }
    None
}

/// The boxes directly inside `data`: (type, body).
fn boxes(data: &[u8]) -> Vec<(&[u8], &[u8])> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 8 <= data.len() {
        let len = u32::from_be_bytes(data[at..at + 4].try_into().unwrap_or([0; 4])) as usize;
        if len < 8 || at + len > data.len() {
            break;
        }
        out.push((&data[at + 4..at + 8], &data[at + 8..at + len]));
        at += len;
    }
    out
}

fn be32(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u32::from_be_bytes(
        b.get(at..at + 4)?.try_into().ok()?,
    )))
}

fn be64(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_be_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

fn moov_tags(moov: &[u8]) -> Tags {
    let mut tags = Tags::default();
    for (kind, body) in boxes(moov) {
        match kind {
            b"mvhd" => {
                let parsed = if body.first() == Some(&1) {
                    be32(body, 20).zip(be64(body, 24))
                } else {
                    be32(body, 12).zip(be32(body, 16))
                };
                if let Some((scale, duration)) = parsed.filter(|(s, _)| *s > 0) {
                    tags.duration_ms = Some((duration * 1000 / scale) as i64);
                }
            }
            b"trak" if tags.width.is_none() => {
                for (inner, tkhd) in boxes(body) {
                    if inner != b"tkhd" {
                        continue;
                    }
                    // Width and height (16.16 fixed point) end the track header.
                    let n = tkhd.len();
                    if n >= 8 {
                        let w = be32(tkhd, n - 8).unwrap_or(0) >> 16;
                        let h = be32(tkhd, n - 4).unwrap_or(0) >> 16;
                        if w > 0 && h > 0 {
                            tags.width = Some(w as i64);
                            tags.height = Some(h as i64);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    tags
}

/// An ID3v2.4 text frame (UTF-8).
fn id3_frame(id: &[u8; 4], text: &str) -> Vec<u8> {
    let mut body = vec![3u8];
    body.extend_from_slice(text.as_bytes());
    let mut out = id.to_vec();
    out.extend_from_slice(&syncsafe_bytes(body.len() as u32));
    out.extend_from_slice(&[0, 0]);
    out.extend(body);
    out
}

fn syncsafe_bytes(n: u32) -> [u8; 4] {
    [
        ((n >> 21) & 0x7f) as u8,
        ((n >> 14) & 0x7f) as u8,
        ((n >> 7) & 0x7f) as u8,
        (n & 0x7f) as u8,
    ]
}

/// Sample rate and frame length of the generated songs: MPEG-2.5 layer III mono at 11025 Hz, as
/// pydub's silent exports are, 16 kb/s (104-byte frames), the Info frame at 32 kb/s (208 bytes).
const MP3_RATE: u64 = 11025;
const MP3_FRAME_SAMPLES: u64 = 576;
/// The encoder delay LAME reports (its 576 plus the decoder's 529 samples, as ffmpeg writes).
const MP3_DELAY: u64 = 576;

/// A silent MP3 of `duration_ms` with an ID3v2.4 tag (title, artist) and a LAME Info frame whose
/// frame count (the audio frames after it), delay and padding give exactly that length; every
/// frame decodes (to silence).
pub fn mp3(title: &str, artist: &str, duration_ms: u64) -> Vec<u8> {
    let samples = duration_ms * MP3_RATE / 1000;
    let frames = (samples + MP3_DELAY).div_ceil(MP3_FRAME_SAMPLES) + 1;
    let padding = frames * MP3_FRAME_SAMPLES - samples - MP3_DELAY;
    let mut frames_body = Vec::new();
    frames_body.extend(id3_frame(b"TPE1", artist));
    frames_body.extend(id3_frame(b"TIT2", title));
    let mut out = b"ID3\x04\x00\x00".to_vec();
    out.extend_from_slice(&syncsafe_bytes(frames_body.len() as u32));
    out.extend(frames_body);
    // The Info frame: header, 9 bytes of side information, then the tag.
    let mut info = vec![0xff, 0xe3, 0x40, 0xc0];
    info.extend_from_slice(&[0; 9]);
    info.extend_from_slice(b"Info");
    info.extend_from_slice(&0x0fu32.to_be_bytes());
    info.extend_from_slice(&(frames as u32).to_be_bytes());
    let audio_bytes = frames * 104 + 208;
    info.extend_from_slice(&(audio_bytes as u32).to_be_bytes());
    info.extend((0..100u32).map(|i| (i * 256 / 100) as u8));
    info.extend_from_slice(&0u32.to_be_bytes());
    info.extend_from_slice(b"Lavc59.37");
    info.extend_from_slice(&[0; 12]);
    info.push((MP3_DELAY >> 4) as u8);
    info.push((((MP3_DELAY & 0x0f) << 4) | (padding >> 8)) as u8);
    info.push((padding & 0xff) as u8);
    info.resize(208, 0);
    out.extend(info);
    let mut silent = vec![0xff, 0xe3, 0x20, 0xc0];
    silent.resize(104, 0);
    for _ in 0..frames {
        out.extend_from_slice(&silent);
    }
    out
}

fn mp4_box(kind: &[u8; 4], parts: &[&[u8]]) -> Vec<u8> {
    let len: usize = 8 + parts.iter().map(|p| p.len()).sum::<usize>();
    let mut out = (len as u32).to_be_bytes().to_vec();
    out.extend_from_slice(kind);
    for p in parts {
        out.extend_from_slice(p);
    }
    out
}

/// An MP4 of `duration_ms` with one video track of `width`×`height` at one frame a second, as
/// AndroidWorld's OpenCV videos are laid out (media data, then the movie box): its headers give
/// the length and size; the frames are empty samples.
pub fn mp4(duration_ms: u64, width: u32, height: u32) -> Vec<u8> {
    const SCALE: u32 = 1000;
    let frames = duration_ms.div_ceil(1000).max(1) as u32;
    let sample = 16u32;
    let ftyp = mp4_box(b"ftyp", &[b"isom", &512u32.to_be_bytes(), b"isomiso2mp41"]);
    let mdat = mp4_box(b"mdat", &[&vec![0u8; (frames * sample) as usize]]);
    let matrix: [u32; 9] = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x4000_0000];
    let matrix: Vec<u8> = matrix.iter().flat_map(|v| v.to_be_bytes()).collect();
    let mut mvhd = vec![0u8; 4 + 8];
    mvhd.extend_from_slice(&SCALE.to_be_bytes());
    mvhd.extend_from_slice(&(duration_ms as u32).to_be_bytes());
    mvhd.extend_from_slice(&0x10000u32.to_be_bytes());
    mvhd.extend_from_slice(&0x0100u16.to_be_bytes());
    mvhd.extend_from_slice(&[0; 10]);
    mvhd.extend_from_slice(&matrix);
    mvhd.extend_from_slice(&[0; 24]);
    mvhd.extend_from_slice(&2u32.to_be_bytes());
    let mut tkhd = vec![0, 0, 0, 3];
    tkhd.extend_from_slice(&[0; 8]);
    tkhd.extend_from_slice(&1u32.to_be_bytes());
    tkhd.extend_from_slice(&[0; 4]);
    tkhd.extend_from_slice(&(duration_ms as u32).to_be_bytes());
    tkhd.extend_from_slice(&[0; 16]);
    tkhd.extend_from_slice(&matrix);
    tkhd.extend_from_slice(&(width << 16).to_be_bytes());
    tkhd.extend_from_slice(&(height << 16).to_be_bytes());
    let mut mdhd = vec![0u8; 4 + 8];
    mdhd.extend_from_slice(&1u32.to_be_bytes());
    mdhd.extend_from_slice(&frames.to_be_bytes());
    mdhd.extend_from_slice(&[0x55, 0xc4, 0, 0]);
    let hdlr = [&[0u8; 8][..], b"vide", &[0; 12], b"VideoHandler\0"].concat();
    let stts = [
        &[0u8; 4][..],
        &1u32.to_be_bytes(),
        &frames.to_be_bytes(),
        &1u32.to_be_bytes(),
    ]
    .concat();
    let stsz = [&[0u8; 4][..], &sample.to_be_bytes(), &frames.to_be_bytes()].concat();
    let stsc = [
        &[0u8; 4][..],
        &1u32.to_be_bytes(),
        &1u32.to_be_bytes(),
        &frames.to_be_bytes(),
        &1u32.to_be_bytes(),
    ]
    .concat();
    let stco = [
        &[0u8; 4][..],
        &1u32.to_be_bytes(),
        &((ftyp.len() + 8) as u32).to_be_bytes(),
    ]
    .concat();
    let stbl = mp4_box(
        b"stbl",
        &[
            &mp4_box(b"stts", &[&stts]),
            &mp4_box(b"stsc", &[&stsc]),
            &mp4_box(b"stsz", &[&stsz]),
            &mp4_box(b"stco", &[&stco]),
        ],
    );
    let minf = mp4_box(
        b"minf",
        &[
            &mp4_box(b"vmhd", &[&[0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]]),
            &stbl,
        ],
    );
    let mdia = mp4_box(
        b"mdia",
        &[
            &mp4_box(b"mdhd", &[&mdhd]),
            &mp4_box(b"hdlr", &[&hdlr]),
            &minf,
        ],
    );
    let trak = mp4_box(b"trak", &[&mp4_box(b"tkhd", &[&tkhd]), &mdia]);
    let moov = mp4_box(b"moov", &[&mp4_box(b"mvhd", &[&mvhd]), &trak]);
    [ftyp, mdat, moov].concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe_bytes(name: &str, data: &[u8]) -> Option<Tags> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, data).unwrap();
        probe(&path)
    }

    #[test]
    fn generated_songs_read_back_with_their_tags_and_exact_length() {
        for ms in [1_000, 180_000, 299_999, 2_850_000] {
            let tags = probe_bytes("s.mp3", &mp3("Dreamer's Awake", "Ana", ms)).unwrap();
            assert_eq!(tags.title.as_deref(), Some("Dreamer's Awake"));
            assert_eq!(tags.artist.as_deref(), Some("Ana"));
            let got = tags.duration_ms.unwrap();
            assert!((got - ms as i64).abs() <= 1, "{ms} ms read as {got}");
        }
    }

    #[test]
    fn a_pydub_export_reads_as_its_requested_length() {
        // The first bytes of pydub's 200 s silent export (ffmpeg's ID3v2.4 and Info frame),
        // whose Info frame counts 3831 frames with 576 samples of delay and 1080 of padding.
        let mut data = b"ID3\x04\x00\x00\x00\x00\x00\x4d".to_vec();
        data.extend(id3_frame(b"TPE1", "Ana"));
        data.extend(id3_frame(b"TIT2", "Night Drive"));
        data.resize(10 + 0x4d, 0);
        let mut frame = vec![0xff, 0xe3, 0x40, 0xc0];
        frame.extend_from_slice(&[0; 9]);
        frame.extend_from_slice(b"Info\x00\x00\x00\x0f\x00\x00\x0e\xf7\x00\x06\x1c\x7c");
        frame.extend_from_slice(&[0; 104]);
        frame.extend_from_slice(b"Lavc59.37");
        frame.extend_from_slice(&[0; 12]);
        frame.extend_from_slice(&[0x24, 0x04, 0x38]);
        frame.resize(208, 0);
        data.extend(frame);
        let tags = mp3_tags(&data, 400_595).unwrap();
        assert_eq!(tags.title.as_deref(), Some("Night Drive"));
        assert_eq!(tags.duration_ms, Some(200_000));
    }

    #[test]
    fn a_constant_bitrate_file_without_info_frame_is_timed_by_its_size() {
        let mut data = vec![0xff, 0xfb, 0x90, 0x64]; // MPEG-1, 128 kb/s, 44.1 kHz
        data.resize(16_000, 0);
        let tags = mp3_tags(&data, 160_000).unwrap();
        assert_eq!(tags.duration_ms, Some(10_000));
        assert_eq!(tags.title, None);
    }

    #[test]
    fn generated_videos_read_back_with_length_and_size() {
        let tags = probe_bytes("clip.mp4", &mp4(37_000, 320, 240)).unwrap();
        assert_eq!(tags.duration_ms, Some(37_000));
        assert_eq!((tags.width, tags.height), (Some(320), Some(240)));
    }

    #[test]
    fn other_files_and_garbage_have_no_tags() {
        assert_eq!(probe_bytes("a.txt", b"hello"), None);
        assert_eq!(probe_bytes("a.mp3", b"not audio at all"), None);
        assert_eq!(probe_bytes("a.mp4", b"\0\0\0\x02xxxx"), None);
    }
}
