//! A minimal, valid H.264 (Baseline) stream of a still picture: sequence and picture parameter
//! sets, one IDR picture whose every macroblock is I_PCM (the raw samples, so the frame is exact
//! without a transform coder), and P pictures whose macroblocks are all skipped (each repeats the
//! one before). A decoder shows the picture for as long as the stream runs.

use super::bits::BitWriter;

/// Frame numbers use 16 bits (`log2_max_frame_num_minus4` = 12); they wrap, as the standard allows.
const FRAME_NUM_BITS: u32 = 16;

/// A picture in 4:2:0 (Y full size, Cb and Cr at half size each way), 8 bits a sample.
#[derive(Debug, Clone)]
pub struct Yuv420 {
    pub width: u32,
    pub height: u32,
    pub y: Vec<u8>,
    pub cb: Vec<u8>,
    pub cr: Vec<u8>,
}

impl Yuv420 {
    /// Converts RGB pixels (row-major, 3 bytes each) with BT.601 limited-range coefficients, as a
    /// camera's encoder input is. `width` and `height` must be multiples of 16.
    pub fn from_rgb(width: u32, height: u32, rgb: &[u8]) -> Yuv420 {
        let (w, h) = (width as usize, height as usize);
        let px = |x: usize, y: usize| {
            let i = (y * w + x) * 3;
            (
                f32::from(rgb[i]),
                f32::from(rgb[i + 1]),
                f32::from(rgb[i + 2]),
            )
        };
        let clamp = |v: f32| v.round().clamp(1.0, 254.0) as u8;
        let mut y = Vec::with_capacity(w * h);
        for row in 0..h {
            for col in 0..w {
                let (r, g, b) = px(col, row);
                y.push(clamp(16.0 + 0.257 * r + 0.504 * g + 0.098 * b));
            }
        }
        let (cw, ch) = (w / 2, h / 2);
        let mut cb = Vec::with_capacity(cw * ch);
        let mut cr = Vec::with_capacity(cw * ch);
        for row in 0..ch {
            for col in 0..cw {
                let (r, g, b) = px(col * 2, row * 2);
                cb.push(clamp(128.0 - 0.148 * r - 0.291 * g + 0.439 * b));
                cr.push(clamp(128.0 + 0.439 * r - 0.368 * g - 0.071 * b));
            }
        }
        Yuv420 {
            width,
            height,
            y,
            cb,
            cr,
        }
    }

    fn mbs_wide(&self) -> u32 {
        self.width / 16
    }

    fn mbs_high(&self) -> u32 {
        self.height / 16
    }
}

/// The stream's parameter sets and pictures as NAL units (header byte included, emulation
/// prevention applied), ready to be length-prefixed into MP4 samples.
pub struct Stream {
    pub sps: Vec<u8>,
    pub pps: Vec<u8>,
    /// `frames[0]` is the IDR picture; the rest are skipped P pictures.
    pub frames: Vec<Vec<u8>>,
}

/// `profile_idc` 66 (Baseline), constraint sets 0 and 1, level 3.0 (640×480 at 30 fps).
pub const PROFILE: u8 = 66;
pub const COMPATIBILITY: u8 = 0xC0;
pub const LEVEL: u8 = 30;

/// Encodes `picture` held still for `frames` frames (at least one).
pub fn encode_still(picture: &Yuv420, frames: u32) -> Stream {
    let mut list = vec![idr(picture)];
    for n in 1..frames.max(1) {
        list.push(skipped(picture, n));
    }
    Stream {
        sps: sps(picture),
        pps: pps(),
        frames: list,
    }
}

fn sps(p: &Yuv420) -> Vec<u8> {
    let mut w = BitWriter::new();
    w.bits(8, u64::from(PROFILE));
    w.bits(8, u64::from(COMPATIBILITY));
    w.bits(8, u64::from(LEVEL));
    w.ue(0); // seq_parameter_set_id
    w.ue(FRAME_NUM_BITS - 4); // log2_max_frame_num_minus4
    w.ue(2); // pic_order_cnt_type 2: output order is decoding order
    w.ue(1); // max_num_ref_frames
    w.bit(false); // gaps_in_frame_num_value_allowed_flag
    w.ue(p.mbs_wide() - 1);
    w.ue(p.mbs_high() - 1);
    w.bit(true); // frame_mbs_only_flag
    w.bit(true); // direct_8x8_inference_flag
    w.bit(false); // frame_cropping_flag
    w.bit(false); // vui_parameters_present_flag
    w.trailing();
    nal(3, 7, w.into_bytes())
}

fn pps() -> Vec<u8> {
    let mut w = BitWriter::new();
    w.ue(0); // pic_parameter_set_id
    w.ue(0); // seq_parameter_set_id
    w.bit(false); // entropy_coding_mode_flag: CAVLC
    w.bit(false); // bottom_field_pic_order_in_frame_present_flag
    w.ue(0); // num_slice_groups_minus1
    w.ue(0); // num_ref_idx_l0_default_active_minus1
    w.ue(0); // num_ref_idx_l1_default_active_minus1
    w.bit(false); // weighted_pred_flag
    w.bits(2, 0); // weighted_bipred_idc
    w.se(0); // pic_init_qp_minus26
    w.se(0); // pic_init_qs_minus26
    w.se(0); // chroma_qp_index_offset
    w.bit(true); // deblocking_filter_control_present_flag
    w.bit(false); // constrained_intra_pred_flag
    w.bit(false); // redundant_pic_cnt_present_flag
    w.trailing();
    nal(3, 8, w.into_bytes())
}

/// The key frame: one I slice of I_PCM macroblocks.
fn idr(p: &Yuv420) -> Vec<u8> {
    let mut w = BitWriter::new();
    w.ue(0); // first_mb_in_slice
    w.ue(7); // slice_type: I (every slice of the picture)
    w.ue(0); // pic_parameter_set_id
    w.bits(FRAME_NUM_BITS, 0); // frame_num
    w.ue(0); // idr_pic_id
    w.bit(false); // no_output_of_prior_pics_flag
    w.bit(false); // long_term_reference_flag
    w.se(0); // slice_qp_delta
    w.ue(1); // disable_deblocking_filter_idc: off (I_PCM is exact anyway)
    let (cw, width) = (p.width as usize / 2, p.width as usize);
    for mby in 0..p.mbs_high() as usize {
        for mbx in 0..p.mbs_wide() as usize {
            w.ue(25); // mb_type I_PCM
            w.align_zero(); // pcm_alignment_zero_bit
            for row in 0..16 {
                let start = (mby * 16 + row) * width + mbx * 16;
                for &s in &p.y[start..start + 16] {
                    w.byte(s);
                }
            }
            for plane in [&p.cb, &p.cr] {
                for row in 0..8 {
                    let start = (mby * 8 + row) * cw + mbx * 8;
                    for &s in &plane[start..start + 8] {
                        w.byte(s);
                    }
                }
            }
        }
    }
    w.trailing();
    nal(3, 5, w.into_bytes())
}

/// A P picture that skips every macroblock (a copy of the picture before).
fn skipped(p: &Yuv420, frame_num: u32) -> Vec<u8> {
    let mut w = BitWriter::new();
    w.ue(0); // first_mb_in_slice
    w.ue(5); // slice_type: P (every slice of the picture)
    w.ue(0); // pic_parameter_set_id
    w.bits(FRAME_NUM_BITS, u64::from(frame_num));
    w.bit(false); // num_ref_idx_active_override_flag
    w.bit(false); // ref_pic_list_modification_flag_l0
    w.bit(false); // adaptive_ref_pic_marking_mode_flag
    w.se(0); // slice_qp_delta
    w.ue(1); // disable_deblocking_filter_idc
    w.ue(p.mbs_wide() * p.mbs_high()); // mb_skip_run: the whole picture
    w.trailing();
    nal(2, 1, w.into_bytes())
}

/// A NAL unit: the header byte, then the payload with emulation prevention (a 0x03 after any two
/// zero bytes that a byte ≤ 3 would follow), so no start code can appear inside it.
fn nal(ref_idc: u8, kind: u8, rbsp: Vec<u8>) -> Vec<u8> {
    let mut out = Vec::with_capacity(rbsp.len() + rbsp.len() / 64 + 1);
    out.push(ref_idc << 5 | kind);
    let mut zeros = 0;
    for b in rbsp {
        if zeros == 2 && b <= 3 {
            out.push(3);
            zeros = 0;
        }
        out.push(b);
        zeros = if b == 0 { zeros + 1 } else { 0 };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grey(width: u32, height: u32) -> Yuv420 {
        Yuv420::from_rgb(width, height, &vec![128; (width * height * 3) as usize])
    }

    #[test]
    fn parameter_sets_carry_the_profile_and_nal_types() {
        let s = encode_still(&grey(32, 16), 3);
        assert_eq!(s.sps[0] & 0x1f, 7);
        assert_eq!(&s.sps[1..4], &[PROFILE, COMPATIBILITY, LEVEL]);
        assert_eq!(s.pps[0] & 0x1f, 8);
        assert_eq!(s.frames.len(), 3);
        assert_eq!(s.frames[0][0] & 0x1f, 5, "an IDR picture first");
        assert!(s.frames[1..].iter().all(|f| f[0] & 0x1f == 1));
    }

    #[test]
    fn the_key_frame_holds_every_sample() {
        // Two macroblocks of 384 samples each, plus headers.
        let s = encode_still(&grey(32, 16), 1);
        assert!(s.frames[0].len() > 2 * 384);
        assert!(s.frames[0].len() < 2 * 384 + 32);
    }

    #[test]
    fn emulation_prevention_breaks_start_codes() {
        assert_eq!(
            nal(0, 1, vec![0, 0, 1, 0, 0, 0]),
            vec![1, 0, 0, 3, 1, 0, 0, 3, 0]
        );
        assert_eq!(nal(0, 1, vec![0, 0, 4]), vec![1, 0, 0, 4]);
    }
}
