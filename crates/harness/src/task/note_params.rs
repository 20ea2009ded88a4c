//! Parameters of file and note tasks, drawn as AndroidWorld draws them
//! (`user_data_generation.generate_random_file_name`, `generate_random_string`): a file name is
//! an adjective and a noun joined by `_`, with a date (`2023_04_17`), four random characters or
//! one of backup/copy/final/edited before or after it, then an extension; random strings are
//! letters and digits. Overrides take any name or string of that shape, so a harness can hand
//! over the values AndroidWorld itself drew (`scripts/android-world-drive`).

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::params::Value;

const ADJECTIVES: &[&str] = &[
    "quiet", "bright", "rapid", "gentle", "hidden", "golden", "silver", "lucky", "brave", "calm",
    "clever", "fancy", "humble", "nimble", "proud", "shiny", "sturdy", "tidy", "witty", "zesty",
];
const NOUNS: &[&str] = &[
    "garden", "rocket", "harbor", "lantern", "meadow", "pencil", "compass", "kettle", "violin",
    "glacier", "canyon", "falcon", "orchard", "pebble", "quilt", "saddle", "teapot", "tunnel",
    "walnut", "window",
];
const MARKS: &[&str] = &["backup", "copy", "final", "edited"];
const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/// The longest text a `text` override may carry.
const MAX_TEXT: usize = 2000;

/// `len` letters and digits.
pub fn random_string(rng: &mut ChaCha8Rng, len: usize) -> String {
    (0..len)
        .map(|_| char::from(ALNUM[rng.gen_range(0..ALNUM.len())]))
        .collect()
}

/// A file name as AndroidWorld draws one, ending in one of `extensions` (none when empty).
pub fn draw_file_name(rng: &mut ChaCha8Rng, extensions: &[String]) -> Value {
    let base = format!(
        "{}_{}",
        ADJECTIVES[rng.gen_range(0..ADJECTIVES.len())],
        NOUNS[rng.gen_range(0..NOUNS.len())]
    );
    let mark = match rng.gen_range(0..3) {
        0 => format!(
            "2023_{:02}_{:02}",
            rng.gen_range(1..=10u32),
            rng.gen_range(1..=28u32)
        ),
        1 => random_string(rng, 4),
        _ => MARKS[rng.gen_range(0..MARKS.len())].to_string(),
    };
    let stem = if rng.gen_bool(0.5) {
        format!("{mark}_{base}")
    } else {
        format!("{base}_{mark}")
    };
    let ext = if extensions.is_empty() {
        String::new()
    } else {
        extensions[rng.gen_range(0..extensions.len())].clone()
    };
    file_value(&stem, &ext)
}

fn file_value(stem: &str, ext: &str) -> Value {
    let mut v = Value::plain(format!("{stem}{ext}"));
    v.fields.insert("stem".into(), stem.into());
    v.fields.insert("ext".into(), ext.into());
    v
}

/// A file name given as text: letters, digits, `_`, `-` and `.`, ending in one of `extensions`
/// when there are any.
pub fn parse_file_name(text: &str, extensions: &[String]) -> Result<Value, String> {
    let shaped = !text.is_empty()
        && text.len() <= 100
        && !text.starts_with('.')
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c));
    if !shaped {
        return Err(format!(
            "{text:?} is not a file name of letters, digits, _, - and ."
        ));
    }
    if extensions.is_empty() {
        return Ok(file_value(text, ""));
    }
    extensions
        .iter()
        .find_map(|e| {
            text.strip_suffix(e.as_str())
                .map(|stem| file_value(stem, e))
        })
        .filter(|v| !v.fields["stem"].is_empty())
        .ok_or_else(|| format!("{text:?} does not end in {}", extensions.join(" or ")))
}

/// `len` letters and digits given as text.
pub fn parse_random_string(text: &str, len: usize) -> Result<Value, String> {
    if text.chars().count() == len && text.chars().all(|c| c.is_ascii_alphanumeric()) {
        Ok(Value::plain(text))
    } else {
        Err(format!("{text:?} is not {len} letters and digits"))
    }
}

/// A note's text given as text: anything printable (new lines too), up to [`MAX_TEXT`] characters.
pub fn parse_text(text: &str) -> Result<Value, String> {
    let printable = text.chars().all(|c| c == '\n' || !c.is_control());
    if !text.trim().is_empty() && printable && text.chars().count() <= MAX_TEXT {
        Ok(Value::plain(text))
    } else {
        Err(format!(
            "{text:?} is not a text of 1 to {MAX_TEXT} printable characters"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn drawn_names_parse_back_with_their_fields() {
        let exts = vec![".md".to_string(), ".txt".to_string()];
        for seed in 0..50 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let v = draw_file_name(&mut rng, &exts);
            assert_eq!(parse_file_name(&v.text, &exts), Ok(v.clone()), "{}", v.text);
            let s = random_string(&mut rng, 20);
            assert!(parse_random_string(&s, 20).is_ok(), "{s}");
        }
        assert!(parse_file_name("2023_03_01_tempting_pizza.txt", &exts).is_ok());
        assert!(parse_file_name("a/b.md", &exts).is_err());
        assert!(parse_file_name("notes.pdf", &exts).is_err());
        assert!(parse_file_name("folder_20241201_101500", &[]).is_ok());
        assert!(parse_random_string("abc", 4).is_err());
        assert!(parse_text("Line one.\nLine two.").is_ok());
        assert!(parse_text("").is_err());
    }
}
