//! The MP4 (ISO base media) container: [`write`] lays out tracks of equal-duration samples as
//! MediaRecorder's MPEG4Writer does (`ftyp`, `moov` with one `trak` per stream, `mdat`), and
//! [`probe`] reads a file's tracks back (handler, codec, sample count, duration), which the apps'
//! lists show and the tests check.

use super::aac;
use super::h264;

/// One stream of a file.
pub struct Track {
    pub codec: Codec,
    /// Ticks per second of the track's media clock.
    pub timescale: u32,
    /// Ticks each sample lasts.
    pub sample_ticks: u32,
    pub samples: Vec<Vec<u8>>,
}

pub enum Codec {
    Aac(aac::Format),
    /// H.264 with its parameter sets (NAL units with header bytes).
    Avc {
        width: u16,
        height: u16,
        sps: Vec<u8>,
        pps: Vec<u8>,
    },
}

impl Track {
    /// An AAC track of silence lasting `ms` (whole frames).
    pub fn silence(format: aac::Format, ms: u64) -> Track {
        let frame = format.silent_frame();
        Track {
            codec: Codec::Aac(format),
            timescale: format.sample_rate,
            sample_ticks: aac::FRAME_SAMPLES,
            samples: vec![frame; format.frames_for_ms(ms) as usize],
        }
    }

    /// An H.264 track showing `picture` for `ms` at `fps` frames a second (at least one frame).
    pub fn still_video(picture: &h264::Yuv420, ms: u64, fps: u32) -> Track {
        let frames = (ms * u64::from(fps)).div_ceil(1000).max(1) as u32;
        let stream = h264::encode_still(picture, frames);
        Track {
            codec: Codec::Avc {
                width: picture.width as u16,
                height: picture.height as u16,
                sps: stream.sps,
                pps: stream.pps,
            },
            timescale: 90_000,
            sample_ticks: 90_000 / fps,
            // Samples hold NAL units with a 4-byte length each (avcC's lengthSizeMinusOne = 3).
            samples: stream
                .frames
                .into_iter()
                .map(|nal| {
                    let mut s = (nal.len() as u32).to_be_bytes().to_vec();
                    s.extend(nal);
                    s
                })
                .collect(),
        }
    }

    fn ticks(&self) -> u64 {
        self.samples.len() as u64 * u64::from(self.sample_ticks)
    }

    fn duration_ms(&self) -> u64 {
        self.ticks() * 1000 / u64::from(self.timescale.max(1))
    }
}

/// The brand a file declares: `M4A ` for audio-only files (`.m4a`), `mp42` for video.
pub fn write(tracks: &[Track], created: i64) -> Vec<u8> {
    let audio_only = tracks.iter().all(|t| matches!(t.codec, Codec::Aac(_)));
    let mut ftyp = Vec::new();
    ftyp.extend(if audio_only { b"M4A " } else { b"mp42" });
    ftyp.extend(0u32.to_be_bytes());
    for brand in [b"isom", b"mp42"] {
        ftyp.extend(brand);
    }
    if audio_only {
        ftyp.extend(b"M4A ");
    }
    let ftyp = boxed(b"ftyp", &ftyp);
    // The moov's size does not depend on the chunk offsets it holds, so lay it out once to learn
    // where mdat's payload starts.
    let draft = moov(tracks, created, &vec![0; tracks.len()]);
    let mut offset = (ftyp.len() + draft.len() + 8) as u32;
    let mut offsets = Vec::new();
    for t in tracks {
        offsets.push(offset);
        offset += t.samples.iter().map(|s| s.len() as u32).sum::<u32>();
    }
    let moov = moov(tracks, created, &offsets);
    let payload: usize = tracks
        .iter()
        .flat_map(|t| &t.samples)
        .map(|s| s.len())
        .sum();
    let mut out = Vec::with_capacity(ftyp.len() + moov.len() + payload + 8);
    out.extend(ftyp);
    out.extend(moov);
    out.extend(((payload + 8) as u32).to_be_bytes());
    out.extend(b"mdat");
    for t in tracks {
        for s in &t.samples {
            out.extend(s);
        }
    }
    out
}

/// Seconds from 1904-01-01 (MP4's epoch) for a Unix time in seconds.
fn mp4_time(unix_s: i64) -> u32 {
    (unix_s + 2_082_844_800).clamp(0, i64::from(u32::MAX)) as u32
}

fn boxed(kind: &[u8; 4], body: &[u8]) -> Vec<u8> {
    let mut out = ((body.len() + 8) as u32).to_be_bytes().to_vec();
    out.extend(kind);
    out.extend(body);
    out
}

/// A full box: version 0 and `flags`.
fn full(kind: &[u8; 4], flags: u32, body: &[u8]) -> Vec<u8> {
    let mut b = flags.to_be_bytes().to_vec();
    b.extend(body);
    boxed(kind, &b)
}

fn concat(parts: &[Vec<u8>]) -> Vec<u8> {
    parts.concat()
}

fn be32(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_be_bytes()).collect()
}

const UNITY_MATRIX: [u32; 9] = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x4000_0000];

fn moov(tracks: &[Track], created: i64, offsets: &[u32]) -> Vec<u8> {
    let t = mp4_time(created);
    let duration_ms = tracks.iter().map(Track::duration_ms).max().unwrap_or(0) as u32;
    let mut mvhd = be32(&[t, t, 1000, duration_ms, 0x10000]);
    mvhd.extend([0x01, 0x00, 0, 0]); // volume 1.0, reserved
    mvhd.extend([0; 8]);
    mvhd.extend(be32(&UNITY_MATRIX));
    mvhd.extend([0; 24]); // pre_defined
    mvhd.extend(be32(&[tracks.len() as u32 + 1])); // next_track_ID
    let mut parts = vec![full(b"mvhd", 0, &mvhd)];
    for (i, (track, &offset)) in tracks.iter().zip(offsets).enumerate() {
        parts.push(trak(track, i as u32 + 1, t, offset));
    }
    boxed(b"moov", &concat(&parts))
}

fn trak(track: &Track, id: u32, t: u32, offset: u32) -> Vec<u8> {
    let (is_audio, width, height) = match &track.codec {
        Codec::Aac(_) => (true, 0, 0),
        Codec::Avc { width, height, .. } => (false, u32::from(*width), u32::from(*height)),
    };
    let mut tkhd = be32(&[t, t, id, 0, track.duration_ms() as u32, 0, 0]);
    tkhd.extend([0, 0, 0, 0]); // layer, alternate_group
    tkhd.extend(if is_audio { [0x01, 0x00] } else { [0, 0] }); // volume
    tkhd.extend([0, 0]);
    tkhd.extend(be32(&UNITY_MATRIX));
    tkhd.extend(be32(&[width << 16, height << 16]));
    // Flags 3: enabled and in the movie.
    let tkhd = full(b"tkhd", 3, &tkhd);

    let mut mdhd = be32(&[t, t, track.timescale, track.ticks() as u32]);
    mdhd.extend([0x55, 0xC4, 0, 0]); // language "und", pre_defined
    let mdhd = full(b"mdhd", 0, &mdhd);
    let (handler, name): (&[u8; 4], &[u8]) = if is_audio {
        (b"soun", b"SoundHandle\0")
    } else {
        (b"vide", b"VideoHandle\0")
    };
    let mut hdlr = vec![0; 4];
    hdlr.extend(handler);
    hdlr.extend([0; 12]);
    hdlr.extend(name);
    let hdlr = full(b"hdlr", 0, &hdlr);

    let media_header = if is_audio {
        full(b"smhd", 0, &[0; 4])
    } else {
        full(b"vmhd", 1, &[0; 8])
    };
    let dref = full(b"dref", 0, &concat(&[be32(&[1]), full(b"url ", 1, &[])]));
    let dinf = boxed(b"dinf", &dref);
    let minf = boxed(b"minf", &concat(&[media_header, dinf, stbl(track, offset)]));
    let mdia = boxed(b"mdia", &concat(&[mdhd, hdlr, minf]));
    boxed(b"trak", &concat(&[tkhd, mdia]))
}

fn stbl(track: &Track, offset: u32) -> Vec<u8> {
    let entry = match &track.codec {
        Codec::Aac(format) => mp4a(*format),
        Codec::Avc {
            width,
            height,
            sps,
            pps,
        } => avc1(*width, *height, sps, pps),
    };
    let stsd = full(b"stsd", 0, &concat(&[be32(&[1]), entry]));
    let n = track.samples.len() as u32;
    let stts = full(
        b"stts",
        0,
        &if n == 0 {
            be32(&[0])
        } else {
            be32(&[1, n, track.sample_ticks])
        },
    );
    // Every sample in one chunk.
    let stsc = full(
        b"stsc",
        0,
        &if n == 0 {
            be32(&[0])
        } else {
            be32(&[1, 1, n, 1])
        },
    );
    let mut sizes = be32(&[0, n]);
    sizes.extend(be32(
        &track
            .samples
            .iter()
            .map(|s| s.len() as u32)
            .collect::<Vec<_>>(),
    ));
    let stsz = full(b"stsz", 0, &sizes);
    let stco = full(
        b"stco",
        0,
        &if n == 0 {
            be32(&[0])
        } else {
            be32(&[1, offset])
        },
    );
    let mut parts = vec![stsd, stts, stsc, stsz, stco];
    if matches!(track.codec, Codec::Avc { .. }) && n > 0 {
        // Only the first picture is a key frame.
        parts.push(full(b"stss", 0, &be32(&[1, 1])));
    }
    boxed(b"stbl", &concat(&parts))
}

fn mp4a(format: aac::Format) -> Vec<u8> {
    let mut b = vec![0; 6];
    b.extend(1u16.to_be_bytes()); // data_reference_index
    b.extend([0; 8]);
    b.extend(u16::from(format.channels).to_be_bytes());
    b.extend(16u16.to_be_bytes()); // sample size
    b.extend([0; 4]);
    b.extend((format.sample_rate << 16).to_be_bytes());
    b.extend(esds(format));
    boxed(b"mp4a", &b)
}

/// `esds`: an ES descriptor with the decoder config (object type 0x40, audio stream) and the
/// AudioSpecificConfig.
fn esds(format: aac::Format) -> Vec<u8> {
    let asc = format.audio_specific_config();
    let descriptor = |tag: u8, body: Vec<u8>| {
        let mut d = vec![tag, body.len() as u8];
        d.extend(body);
        d
    };
    let decoder_specific = descriptor(0x05, asc);
    let mut config = vec![0x40, 0x15, 0, 0, 0];
    config.extend(be32(&[128_000, 128_000]));
    config.extend(decoder_specific);
    let decoder_config = descriptor(0x04, config);
    let sl = descriptor(0x06, vec![0x02]);
    let mut es = vec![0, 1, 0]; // ES_ID 1, no flags
    es.extend(decoder_config);
    es.extend(sl);
    full(b"esds", 0, &descriptor(0x03, es))
}

fn avc1(width: u16, height: u16, sps: &[u8], pps: &[u8]) -> Vec<u8> {
    let mut b = vec![0; 6];
    b.extend(1u16.to_be_bytes());
    b.extend([0; 16]);
    b.extend(width.to_be_bytes());
    b.extend(height.to_be_bytes());
    b.extend(be32(&[0x0048_0000, 0x0048_0000, 0]));
    b.extend(1u16.to_be_bytes()); // frame_count
    b.extend([0; 32]); // compressorname
    b.extend(0x18u16.to_be_bytes()); // depth
    b.extend((-1i16).to_be_bytes());
    let mut avcc = vec![
        1,
        h264::PROFILE,
        h264::COMPATIBILITY,
        h264::LEVEL,
        0xFF, // lengthSizeMinusOne 3
        0xE1, // one SPS
    ];
    avcc.extend((sps.len() as u16).to_be_bytes());
    avcc.extend(sps);
    avcc.push(1);
    avcc.extend((pps.len() as u16).to_be_bytes());
    avcc.extend(pps);
    b.extend(boxed(b"avcC", &avcc));
    boxed(b"avc1", &b)
}

/// A track as [`probe`] reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackInfo {
    /// `soun` or `vide`.
    pub handler: String,
    /// The sample entry: `mp4a` or `avc1`.
    pub codec: String,
    pub timescale: u32,
    /// In `timescale` ticks (`mdhd`).
    pub duration: u64,
    /// Sample count (`stsz`).
    pub samples: u32,
    /// Sum of the sample sizes; every sample lies inside the file.
    pub bytes: u64,
    /// Width and height in pixels (video).
    pub size: Option<(u16, u16)>,
}

impl TrackInfo {
    pub fn duration_ms(&self) -> u64 {
        self.duration * 1000 / u64::from(self.timescale.max(1))
    }
}

/// A file as [`probe`] reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileInfo {
    pub brand: String,
    pub duration_ms: u64,
    pub tracks: Vec<TrackInfo>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ProbeError {
    #[error("not an MP4 file: {0}")]
    Format(&'static str),
}

/// Reads an MP4 file's structure: the brand, the movie's duration, and each track's handler,
/// codec, clock, duration and samples (whose chunk must lie inside the file).
pub fn probe(data: &[u8]) -> Result<FileInfo, ProbeError> {
    let top = children(data).ok_or(ProbeError::Format("bad box sizes"))?;
    let ftyp = find(&top, b"ftyp").ok_or(ProbeError::Format("no ftyp"))?;
    let brand =
        String::from_utf8_lossy(ftyp.get(..4).ok_or(ProbeError::Format("short ftyp"))?).to_string();
    let moov = find(&top, b"moov").ok_or(ProbeError::Format("no moov"))?;
    let moov = children(moov).ok_or(ProbeError::Format("bad moov"))?;
    let mvhd = find(&moov, b"mvhd").ok_or(ProbeError::Format("no mvhd"))?;
    let (scale, duration) = (u32_at(mvhd, 12), u32_at(mvhd, 16));
    let mut tracks = Vec::new();
    for (kind, body) in &moov {
        if kind == b"trak" {
            tracks.push(track_info(body, data.len()).ok_or(ProbeError::Format("bad trak"))?);
        }
    }
    Ok(FileInfo {
        brand,
        duration_ms: u64::from(duration) * 1000 / u64::from(scale.max(1)),
        tracks,
    })
}

fn track_info(trak: &[u8], file_len: usize) -> Option<TrackInfo> {
    let mdia = find(&children(trak)?, b"mdia")?;
    let mdia = children(mdia)?;
    let mdhd = find(&mdia, b"mdhd")?;
    let hdlr = find(&mdia, b"hdlr")?;
    let handler = String::from_utf8_lossy(hdlr.get(8..12)?).to_string();
    let minf = children(find(&mdia, b"minf")?)?;
    let stbl = children(find(&minf, b"stbl")?)?;
    let stsd = find(&stbl, b"stsd")?;
    let entries = children(stsd.get(8..)?)?;
    let (codec, entry) = entries.first()?;
    let size = (codec == b"avc1" && entry.len() >= 28).then(|| {
        (
            u16::from_be_bytes([entry[24], entry[25]]),
            u16::from_be_bytes([entry[26], entry[27]]),
        )
    });
    let stsz = find(&stbl, b"stsz")?;
    let samples = u32_at(stsz, 8);
    let bytes: u64 = if u32_at(stsz, 4) != 0 {
        u64::from(u32_at(stsz, 4)) * u64::from(samples)
    } else {
        (0..samples as usize)
            .map(|i| u64::from(u32_at(stsz, 12 + 4 * i)))
            .sum()
    };
    let stco = find(&stbl, b"stco")?;
    if u32_at(stco, 4) > 0 {
        let first = u64::from(u32_at(stco, 8));
        if first + bytes > file_len as u64 {
            return None;
        }
    }
    Some(TrackInfo {
        handler,
        codec: String::from_utf8_lossy(codec).to_string(),
        timescale: u32_at(mdhd, 12),
        duration: u64::from(u32_at(mdhd, 16)),
        samples,
        bytes,
        size,
    })
}

/// Big-endian u32 at `at`, 0 past the end (a short box reads as empty).
fn u32_at(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4)
        .map(|s| u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
        .unwrap_or(0)
}

/// The boxes in `data`: type and body; `None` when a size runs past the end.
fn children(data: &[u8]) -> Option<Vec<([u8; 4], &[u8])>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 8 <= data.len() {
        let size = u32_at(data, at) as usize;
        if size < 8 || at + size > data.len() {
            return None;
        }
        let kind = [data[at + 4], data[at + 5], data[at + 6], data[at + 7]];
        out.push((kind, &data[at + 8..at + size]));
        at += size;
    }
    Some(out)
}

fn find<'a>(boxes: &[([u8; 4], &'a [u8])], kind: &[u8; 4]) -> Option<&'a [u8]> {
    boxes.iter().find(|(k, _)| k == kind).map(|(_, b)| *b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_audio_file_reads_back_with_its_duration() {
        let data = write(&[Track::silence(aac::Format::DEFAULT, 3000)], 1_700_000_000);
        let info = probe(&data).unwrap();
        assert_eq!(info.brand, "M4A ");
        assert_eq!(info.tracks.len(), 1);
        let t = &info.tracks[0];
        assert_eq!((t.handler.as_str(), t.codec.as_str()), ("soun", "mp4a"));
        assert_eq!(t.timescale, 44100);
        assert_eq!(t.samples, aac::Format::DEFAULT.frames_for_ms(3000));
        // Whole frames: at most one frame (23 ms) over.
        assert!(
            (3000..3024).contains(&t.duration_ms()),
            "{}",
            t.duration_ms()
        );
        assert_eq!(info.duration_ms, t.duration_ms());
    }

    #[test]
    fn a_video_file_has_a_picture_track_and_a_sound_track() {
        let picture = h264::Yuv420::from_rgb(32, 32, &[90; 32 * 32 * 3]);
        let data = write(
            &[
                Track::still_video(&picture, 2000, 30),
                Track::silence(aac::Format::DEFAULT, 2000),
            ],
            1_700_000_000,
        );
        let info = probe(&data).unwrap();
        assert_eq!(info.brand, "mp42");
        let video = &info.tracks[0];
        assert_eq!(
            (video.handler.as_str(), video.codec.as_str()),
            ("vide", "avc1")
        );
        assert_eq!(video.size, Some((32, 32)));
        assert_eq!(video.samples, 60);
        assert_eq!(video.duration_ms(), 2000);
        assert_eq!(info.tracks[1].codec, "mp4a");
    }

    #[test]
    fn truncated_files_are_refused() {
        let data = write(&[Track::silence(aac::Format::DEFAULT, 1000)], 0);
        assert!(probe(&data[..data.len() - 1]).is_err());
        assert!(probe(b"RIFF....WAVE").is_err());
    }
}
