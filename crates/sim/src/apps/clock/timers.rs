//! The Clock's Timer and Stopwatch: state machines over the simulated clock (they store instants,
//! never tick), and the texts Google Clock shows for them.

use chrono::NaiveDateTime;

/// Milliseconds between two instants, never negative.
fn ms_between(from: NaiveDateTime, to: NaiveDateTime) -> i64 {
    (to - from).num_milliseconds().max(0)
}

/// The timer: digits typed on the setup keypad, then a countdown.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Timer {
    /// Up to six typed digits, shifted in from the right (`HHMMSS`).
    pub digits: String,
    pub run: Option<TimerRun>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimerRun {
    Running {
        ends_at: NaiveDateTime,
    },
    Paused {
        remaining_ms: i64,
    },
    /// Rang at `at` and rings until stopped; the display counts up from there.
    Expired {
        at: NaiveDateTime,
    },
}

impl Timer {
    /// (hours, minutes, seconds) as typed, without normalising 90 seconds to 1:30.
    pub fn typed(&self) -> (u32, u32, u32) {
        let padded = format!("{:0>6}", self.digits);
        let part = |r: std::ops::Range<usize>| padded[r].parse::<u32>().unwrap_or(0);
        (part(0..2), part(2..4), part(4..6))
    }

    pub fn press_digit(&mut self, d: u32) {
        if self.digits.len() < 6 && !(self.digits.is_empty() && d == 0) {
            self.digits.push(char::from_digit(d, 10).unwrap_or('0'));
        }
    }

    pub fn delete_digit(&mut self) {
        self.digits.pop();
    }

    /// The setup display, `00h 00m 00s`.
    pub fn setup_text(&self) -> String {
        let (h, m, s) = self.typed();
        format!("{h:02}h {m:02}m {s:02}s")
    }

    /// The setup display's content-desc, `1 hours, 2 minutes, 3 seconds`.
    pub fn setup_desc(&self) -> String {
        let (h, m, s) = self.typed();
        format!("{h} hours, {m} minutes, {s} seconds")
    }

    pub fn duration_ms(&self) -> i64 {
        let (h, m, s) = self.typed();
        (h as i64 * 3600 + m as i64 * 60 + s as i64) * 1000
    }

    pub fn start(&mut self, now: NaiveDateTime) {
        let remaining = match self.run {
            Some(TimerRun::Paused { remaining_ms }) => remaining_ms,
            Some(TimerRun::Running { .. }) | Some(TimerRun::Expired { .. }) => return,
            None => self.duration_ms(),
        };
        if remaining > 0 {
            self.run = Some(TimerRun::Running {
                ends_at: now + chrono::Duration::milliseconds(remaining),
            });
        }
    }

    pub fn pause(&mut self, now: NaiveDateTime) {
        if let Some(TimerRun::Running { ends_at }) = self.run {
            self.run = Some(TimerRun::Paused {
                remaining_ms: ms_between(now, ends_at),
            });
        }
    }

    /// When a running timer rings.
    pub fn ends_at(&self) -> Option<NaiveDateTime> {
        match self.run {
            Some(TimerRun::Running { ends_at }) => Some(ends_at),
            _ => None,
        }
    }

    /// The countdown reached zero: the timer rings. False when it was not running or has time left.
    pub fn expire(&mut self, now: NaiveDateTime) -> bool {
        match self.run {
            Some(TimerRun::Running { ends_at }) if ends_at <= now => {
                self.run = Some(TimerRun::Expired { at: ends_at });
                true
            }
            _ => false,
        }
    }

    pub fn expired(&self) -> bool {
        matches!(self.run, Some(TimerRun::Expired { .. }))
    }

    /// The "+1:00" button: a minute more on a running or paused timer; a ringing one restarts with
    /// one minute left.
    pub fn add_minute(&mut self, now: NaiveDateTime) {
        let minute = chrono::Duration::minutes(1);
        self.run = match self.run {
            Some(TimerRun::Running { ends_at }) => Some(TimerRun::Running {
                ends_at: ends_at + minute,
            }),
            Some(TimerRun::Paused { remaining_ms }) => Some(TimerRun::Paused {
                remaining_ms: remaining_ms + 60_000,
            }),
            Some(TimerRun::Expired { .. }) => Some(TimerRun::Running {
                ends_at: now + minute,
            }),
            None => None,
        };
    }

    /// Drops the running timer and its digits (the delete button).
    pub fn reset(&mut self) {
        *self = Timer::default();
    }

    pub fn remaining_ms(&self, now: NaiveDateTime) -> i64 {
        match self.run {
            Some(TimerRun::Running { ends_at }) => ms_between(now, ends_at),
            Some(TimerRun::Paused { remaining_ms }) => remaining_ms,
            Some(TimerRun::Expired { .. }) => 0,
            None => self.duration_ms(),
        }
    }

    /// The countdown text: `4:59`, `1:00:00`, rounded up to whole seconds as the app shows it; a
    /// ringing timer counts up from zero with a minus sign (`-0:05`).
    pub fn remaining_text(&self, now: NaiveDateTime) -> String {
        let (sign, secs) = match self.run {
            Some(TimerRun::Expired { at }) => ("-", ms_between(at, now) / 1000),
            _ => ("", (self.remaining_ms(now) + 999) / 1000),
        };
        let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
        if h > 0 {
            format!("{sign}{h}:{m:02}:{s:02}")
        } else {
            format!("{sign}{m}:{s:02}")
        }
    }
}

/// The stopwatch: accumulated time plus the instant of the current run, and laps.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Stopwatch {
    pub accumulated_ms: i64,
    pub started_at: Option<NaiveDateTime>,
    /// Total elapsed time at each lap, oldest first.
    pub laps: Vec<i64>,
}

impl Stopwatch {
    pub fn running(&self) -> bool {
        self.started_at.is_some()
    }

    pub fn elapsed_ms(&self, now: NaiveDateTime) -> i64 {
        self.accumulated_ms + self.started_at.map_or(0, |t| ms_between(t, now))
    }

    pub fn start(&mut self, now: NaiveDateTime) {
        if self.started_at.is_none() {
            self.started_at = Some(now);
        }
    }

    pub fn pause(&mut self, now: NaiveDateTime) {
        self.accumulated_ms = self.elapsed_ms(now);
        self.started_at = None;
    }

    pub fn lap(&mut self, now: NaiveDateTime) {
        if self.running() {
            self.laps.push(self.elapsed_ms(now));
        }
    }

    pub fn reset(&mut self) {
        *self = Stopwatch::default();
    }
}

/// Stopwatch text: `0:05.23`, `1:02:03.04` past an hour (hundredths of a second).
pub fn stopwatch_text(ms: i64) -> String {
    let hundredths = ms / 10 % 100;
    let secs = ms / 1000;
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}.{hundredths:02}")
    } else {
        format!("{m}:{s:02}.{hundredths:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn t0() -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, 11, 23)
            .unwrap()
            .and_hms_opt(9, 0, 0)
            .unwrap()
    }

    fn after(ms: i64) -> NaiveDateTime {
        t0() + chrono::Duration::milliseconds(ms)
    }

    #[test]
    fn timer_digits_shift_in_from_the_right() {
        let mut t = Timer::default();
        for d in [0, 1, 3, 0, 4, 5] {
            t.press_digit(d);
        }
        // The leading 0 is ignored, as on the real keypad.
        assert_eq!(t.setup_text(), "01h 30m 45s");
        assert_eq!(t.setup_desc(), "1 hours, 30 minutes, 45 seconds");
        t.delete_digit();
        assert_eq!(t.setup_text(), "00h 13m 04s");
    }

    #[test]
    fn timer_counts_down_on_the_sim_clock_and_pauses() {
        let mut t = Timer::default();
        t.press_digit(1);
        t.press_digit(0);
        t.start(t0());
        assert_eq!(t.remaining_text(after(2_500)), "0:08");
        t.pause(after(4_000));
        assert_eq!(t.remaining_text(after(60_000)), "0:06");
        t.start(after(60_000));
        assert_eq!(t.remaining_text(after(70_000)), "0:00");
        assert_eq!(t.ends_at(), Some(after(66_000)));
        assert!(!t.expire(after(65_999)));
        assert!(t.expire(after(70_000)));
        assert!(t.expired());
        assert_eq!(t.remaining_text(after(75_400)), "-0:09");
        t.add_minute(after(80_000));
        assert_eq!(t.remaining_text(after(80_000)), "1:00");
    }

    #[test]
    fn stopwatch_accumulates_across_pauses_and_laps() {
        let mut s = Stopwatch::default();
        s.start(t0());
        s.lap(after(1_230));
        s.pause(after(5_000));
        s.start(after(10_000));
        assert_eq!(stopwatch_text(s.elapsed_ms(after(12_340))), "0:07.34");
        assert_eq!(s.laps, vec![1_230]);
        assert_eq!(stopwatch_text(3_723_040), "1:02:03.04");
    }
}
