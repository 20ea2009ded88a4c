//! AAC-LC silence: the raw data block an encoder emits for a frame of silence (a channel pair with
//! no scale-factor bands, so no spectral data), and the AudioSpecificConfig that describes the
//! stream, as MediaRecorder's default AAC encoder writes into an `.m4a`.

use super::bits::BitWriter;

/// Samples per AAC-LC frame.
pub const FRAME_SAMPLES: u32 = 1024;

/// The sampling frequencies AudioSpecificConfig can name by index (ISO/IEC 14496-3, 1.6.3.4).
const RATES: [u32; 12] = [
    96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000,
];

/// An AAC-LC stream's parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    pub sample_rate: u32,
    /// 1 (mono) or 2 (stereo).
    pub channels: u8,
}

impl Format {
    /// Audio Recorder's and Camera2's default: 44.1 kHz stereo.
    pub const DEFAULT: Format = Format {
        sample_rate: 44100,
        channels: 2,
    };

    /// `AudioSpecificConfig`: object type 2 (AAC LC), the rate's index, the channel configuration,
    /// and a GASpecificConfig of 1024-sample frames without core coder or extension.
    pub fn audio_specific_config(self) -> Vec<u8> {
        let index = RATES
            .iter()
            .position(|&r| r == self.sample_rate)
            .unwrap_or(4) as u64;
        let mut w = BitWriter::new();
        w.bits(5, 2);
        w.bits(4, index);
        w.bits(4, u64::from(self.channels));
        w.bits(3, 0);
        w.into_bytes()
    }

    /// How many frames cover `ms` milliseconds (rounded up: a recorder writes whole frames).
    pub fn frames_for_ms(self, ms: u64) -> u32 {
        let samples = ms * u64::from(self.sample_rate) / 1000;
        samples.div_ceil(u64::from(FRAME_SAMPLES)) as u32
    }

    /// One frame of silence (`raw_data_block`).
    pub fn silent_frame(self) -> Vec<u8> {
        let mut w = BitWriter::new();
        if self.channels == 2 {
            // channel_pair_element, tag 0, common_window with an empty long-window ics_info
            // (max_sfb 0), no M/S, then each channel's empty stream.
            w.bits(3, 1);
            w.bits(4, 0);
            w.bit(true);
            ics_info(&mut w);
            w.bits(2, 0);
            empty_channel_stream(&mut w);
            empty_channel_stream(&mut w);
        } else {
            // single_channel_element, tag 0.
            w.bits(3, 0);
            w.bits(4, 0);
            w.bits(8, GLOBAL_GAIN);
            ics_info(&mut w);
            pulse_tns_gain_absent(&mut w);
        }
        // ID_END, then byte alignment.
        w.bits(3, 7);
        w.align_zero();
        w.into_bytes()
    }
}

/// A global gain no decoder uses here (there are no bands to scale), the value encoders write for
/// silence.
const GLOBAL_GAIN: u64 = 100;

/// `ics_info` of a long window with no scale-factor bands.
fn ics_info(w: &mut BitWriter) {
    w.bit(false); // ics_reserved_bit
    w.bits(2, 0); // ONLY_LONG_SEQUENCE
    w.bit(false); // window_shape
    w.bits(6, 0); // max_sfb
    w.bit(false); // predictor_data_present
}

/// `individual_channel_stream` under a common window: global gain and no tools.
fn empty_channel_stream(w: &mut BitWriter) {
    w.bits(8, GLOBAL_GAIN);
    pulse_tns_gain_absent(w);
}

fn pulse_tns_gain_absent(w: &mut BitWriter) {
    w.bit(false);
    w.bit(false);
    w.bit(false);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn audio_specific_config_is_aac_lc_44k_stereo() {
        // 00010 0100 0010 000: the two bytes every 44.1 kHz stereo AAC-LC .m4a carries.
        assert_eq!(Format::DEFAULT.audio_specific_config(), vec![0x12, 0x10]);
    }

    #[test]
    fn frames_cover_the_duration() {
        let f = Format::DEFAULT;
        assert_eq!(f.frames_for_ms(0), 0);
        // 1 s at 44.1 kHz is 44100 samples: 43 frames and a part.
        assert_eq!(f.frames_for_ms(1000), 44);
        let frame_ms = 1000.0 * f64::from(FRAME_SAMPLES) / 44100.0;
        assert!(f64::from(f.frames_for_ms(5000)) * frame_ms - 5000.0 < frame_ms);
    }

    #[test]
    fn silent_frames_start_with_their_element_and_end_aligned() {
        let stereo = Format::DEFAULT.silent_frame();
        assert_eq!(stereo[0] >> 5, 1, "a channel pair element");
        let mono = Format {
            sample_rate: 44100,
            channels: 1,
        }
        .silent_frame();
        assert_eq!(mono[0] >> 5, 0, "a single channel element");
        assert!(stereo.len() > mono.len());
    }
}
