//! Where a slider's thumb sits, read from the screen.
//!
//! `uiautomator dump` writes no value for a SeekBar (its RangeInfo and state description never reach
//! the XML), so a text-only agent cannot see what a slider is set to. The frame can: the thumb is the
//! tallest mark across the bar (taller than the track), and the track's visible ends bound its
//! travel. [`thumb_fraction`] returns the thumb's position from the bar's start as a fraction, which
//! callers present as read from the screen, never as the value Android holds.

use image::RgbaImage;

use droidmcp_geom::Bounds;

/// How far (sum of channel differences) a pixel must be from the bar's background to count as drawn.
const INK: u32 = 60;

/// The thumb's position along the bar in `bounds` (screen pixels of `img`), 0.0 at the left end and
/// 1.0 at the right; `None` when the bar shows no thumb taller than its track (nothing to read).
pub fn thumb_fraction(img: &RgbaImage, bounds: Bounds) -> Option<f64> {
    let bar = read(img, bounds)?;
    Some(((bar.thumb - bar.start) / (bar.end - bar.start)).clamp(0.0, 1.0))
}

/// The x pixel `fraction` (0.0–1.0) of the way along the bar's track in `bounds`, on the scale
/// [`thumb_fraction`] reads: a touch there sets the slider to what a later reading calls
/// `fraction`. The track's ends are where Android reads a touch on a SeekBar (its padding), not the
/// view's edges. `None` when the bar cannot be read.
pub fn track_x(img: &RgbaImage, bounds: Bounds, fraction: f64) -> Option<i32> {
    let bar = read(img, bounds)?;
    Some((bar.start + (bar.end - bar.start) * fraction.clamp(0.0, 1.0)).round() as i32)
}

/// `compact` (an element list, one element a line, each opening with its id) with each slider of
/// `readings` (id, thumb fraction) given the state word `at~42%` before its strings: the `~` says it
/// was read from the screen.
pub fn annotate(compact: &str, readings: &[(u32, f64)]) -> String {
    if readings.is_empty() {
        return compact.to_string();
    }
    let mut out = String::with_capacity(compact.len() + readings.len() * 8);
    for full in compact.split_inclusive('\n') {
        let line = full.trim_end_matches('\n');
        let id = line.split(' ').next().and_then(|t| t.parse::<u32>().ok());
        match readings.iter().find(|(i, _)| Some(*i) == id) {
            Some((_, f)) => {
                let word = format!(" at~{:.0}%", f * 100.0);
                match line.find(": ") {
                    Some(at) => {
                        out.push_str(&line[..at]);
                        out.push_str(&word);
                        out.push_str(&line[at..]);
                    }
                    None => {
                        out.push_str(line);
                        out.push_str(&word);
                    }
                }
            }
            None => out.push_str(line),
        }
        out.push_str(&full[line.len()..]);
    }
    out
}

/// A bar as the frame shows it, in the image's x pixels: the track's ends and the thumb's centre.
struct Bar {
    start: f64,
    end: f64,
    thumb: f64,
}

fn read(img: &RgbaImage, bounds: Bounds) -> Option<Bar> {
    let b = bounds.intersect(&Bounds::new(0, 0, img.width() as i32, img.height() as i32));
    if b.width() < 8 || b.height() < 4 {
        return None;
    }
    let bg = *img.get_pixel(b.left as u32, b.top as u32);
    let inked = |x: i32, y: i32| {
        let p = img.get_pixel(x as u32, y as u32);
        (0..3)
            .map(|c| (p[c] as i32 - bg[c] as i32).unsigned_abs())
            .sum::<u32>()
            > INK
    };
    let columns: Vec<u32> = (b.left..b.right)
        .map(|x| (b.top..b.bottom).filter(|&y| inked(x, y)).count() as u32)
        .collect();
    let tallest = *columns.iter().max()?;
    let peak = columns.iter().position(|&c| c == tallest)?;
    let drawn: Vec<usize> = (0..columns.len()).filter(|&i| columns[i] > 0).collect();
    let (&first, &last) = (drawn.first()?, drawn.last()?);
    let track = {
        let mut heights: Vec<u32> = drawn.iter().map(|&i| columns[i]).collect();
        heights.sort_unstable();
        heights[heights.len() / 4]
    };
    if tallest < track * 2 {
        return None;
    }
    // The thumb's extent: the run around the peak that stands above the track; its centre from
    // the columns nearly as tall as the peak (the round thumb is symmetric there).
    let run = |tall: u32| {
        let lo = (0..=peak).rev().take_while(|&i| columns[i] > tall).last()?;
        let hi = (peak..columns.len())
            .take_while(|&i| columns[i] > tall)
            .last()?;
        Some((lo, hi))
    };
    let (t0, t1) = run(track)?;
    let (c0, c1) = run(tallest * 8 / 10)?;
    if (t1 - t0 + 1) * 2 > drawn.len() {
        return None;
    }
    let centre = (c0 + c1) as f64 / 2.0;
    // A track end hidden under the thumb means the thumb is at that end.
    let start = if first + 1 < t0 { first as f64 } else { centre };
    let end = if last > t1 + 1 { last as f64 } else { centre };
    if end <= start {
        return None;
    }
    let left = b.left as f64;
    Some(Bar {
        start: left + start,
        end: left + end,
        thumb: left + centre,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    /// A bar like Material's: a 4 px track from x0 to x1 and a 20 px thumb at `frac`.
    fn bar(frac: f64) -> RgbaImage {
        let mut img = RgbaImage::from_pixel(400, 40, Rgba([255, 255, 255, 255]));
        let (x0, x1, cy) = (30.0, 370.0, 20.0);
        let xv = x0 + (x1 - x0) * frac;
        for y in 0..40 {
            for x in 0..400 {
                let (fx, fy) = (x as f64, y as f64);
                let on_track = fx >= x0 && fx <= x1 && (fy - cy).abs() < 2.0;
                let on_thumb = (fx - xv).powi(2) + (fy - cy).powi(2) <= 100.0;
                if on_thumb || (on_track && fx <= xv) {
                    img.put_pixel(x, y, Rgba([26, 115, 232, 255]));
                } else if on_track {
                    img.put_pixel(x, y, Rgba([200, 200, 200, 255]));
                }
            }
        }
        img
    }

    #[test]
    fn the_thumb_position_is_read_from_the_track_ends() {
        let whole = Bounds::new(0, 0, 400, 40);
        for frac in [0.0, 0.25, 0.5, 0.9, 1.0] {
            let got = thumb_fraction(&bar(frac), whole).unwrap();
            assert!((got - frac).abs() < 0.02, "{frac}: {got}");
        }
    }

    #[test]
    fn a_point_along_the_track_is_on_the_reading_scale() {
        let whole = Bounds::new(100, 0, 500, 40);
        let mut img = RgbaImage::from_pixel(600, 40, Rgba([255, 255, 255, 255]));
        image::imageops::overlay(&mut img, &bar(0.5), 100, 0);
        // The track runs from x 30 to 370 of the bar, which sits 100 px into the image.
        assert_eq!(track_x(&img, whole, 0.0), Some(130));
        assert_eq!(track_x(&img, whole, 0.25), Some(215));
        assert_eq!(track_x(&img, whole, 1.0), Some(470));
    }

    #[test]
    fn a_bar_without_a_thumb_reads_nothing() {
        let blank = RgbaImage::from_pixel(400, 40, Rgba([255, 255, 255, 255]));
        assert_eq!(thumb_fraction(&blank, Bounds::new(0, 0, 400, 40)), None);
        assert_eq!(
            thumb_fraction(&blank, Bounds::new(500, 500, 600, 600)),
            None
        );
    }
}
