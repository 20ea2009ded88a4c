//! A receipt's transaction lines (`gen = "receipt_rows"`), drawn as AndroidWorld's
//! `receipt_generator.create_receipt` draws them: 1 to 5 lines of `YYYY-MM-DD, Item, $D.CC`, a
//! date in 2023 up to its frozen October 15, one of its six items at a price in that item's
//! range. An override (the lines AndroidWorld drew) must have that shape.

use chrono::{Duration, NaiveDate};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::params::Value;

/// `_random_transaction`'s items and their price ranges in dollars.
const ITEMS: [(&str, (u32, u32)); 6] = [
    ("USB-C Cable", (5, 20)),
    ("Wireless Mouse", (10, 50)),
    ("Bluetooth Keyboard", (30, 100)),
    ("External Hard Drive", (50, 150)),
    ("Webcam", (20, 70)),
    ("Monitor Stand", (15, 60)),
];

/// 1 to 5 transaction lines, one per line.
pub fn draw(rng: &mut ChaCha8Rng) -> Value {
    let start = NaiveDate::from_ymd_opt(2023, 1, 1).unwrap_or_default();
    let n = rng.gen_range(1..=5);
    let lines: Vec<String> = (0..n)
        .map(|_| {
            let day = start + Duration::days(rng.gen_range(0..287));
            let (item, (lo, hi)) = ITEMS[rng.gen_range(0..ITEMS.len())];
            let cents = rng.gen_range(lo * 100..hi * 100);
            format!("{day}, {item}, ${}.{:02}", cents / 100, cents % 100)
        })
        .collect();
    Value::plain(lines.join("\n"))
}

/// Lines given as text: each `YYYY-MM-DD, Item, $D.CC`.
pub fn parse(text: &str) -> Result<Value, String> {
    let line_ok = |line: &str| {
        let parts: Vec<&str> = line.split(", ").collect();
        parts.len() == 3
            && NaiveDate::parse_from_str(parts[0], "%Y-%m-%d").is_ok()
            && !parts[1].trim().is_empty()
            && parts[2]
                .strip_prefix('$')
                .and_then(|p| p.split_once('.'))
                .is_some_and(|(d, c)| {
                    !d.is_empty()
                        && d.bytes().all(|b| b.is_ascii_digit())
                        && c.len() == 2
                        && c.bytes().all(|b| b.is_ascii_digit())
                })
    };
    let lines: Vec<&str> = text.lines().collect();
    if (1..=5).contains(&lines.len()) && lines.iter().all(|l| line_ok(l)) {
        Ok(Value::plain(text))
    } else {
        Err(format!(
            "{text:?} is not 1 to 5 lines of \"YYYY-MM-DD, Item, $D.CC\""
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn drawn_lines_parse_back_and_malformed_ones_do_not() {
        for seed in 0..20 {
            let v = draw(&mut ChaCha8Rng::seed_from_u64(seed));
            assert!(parse(&v.text).is_ok(), "{}", v.text);
        }
        assert!(parse("2023-03-02, Webcam, $25.10\n2023-07-19, USB-C Cable, $7.05").is_ok());
        assert!(parse("2023-03-02, Webcam, 25.10").is_err());
        assert!(parse("yesterday, Webcam, $25.10").is_err());
        assert!(parse("").is_err());
    }
}
