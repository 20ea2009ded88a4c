//! Media files the phone's recorders write: an MP4 container ([`mp4`]) holding AAC-LC audio
//! ([`aac`]) and H.264 video ([`h264`]), as Android's `MediaRecorder` writes them, so a recording is
//! a real file any player opens and a reader measures, of the length the phone's clock ran.
//!
//! The phone has no microphone or sensor: audio is silence (the silent AAC frame an encoder emits
//! for a quiet room) and video is the camera's synthetic frame, held still. Both are coded simply but
//! validly: the silent frame has no spectral data; the video is one I_PCM key frame (raw samples)
//! followed by frames whose every macroblock is skipped.

pub mod aac;
mod bits;
pub mod h264;
pub mod mp4;
