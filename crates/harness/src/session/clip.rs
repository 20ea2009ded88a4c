//! Bounding what a reply or a step record echoes of a caller's input.

/// `s` cut to at most `max_chars` characters, with an ellipsis and the full length when cut, so an
/// error about a megabyte of input never carries the megabyte back.
pub fn clip(s: &str, max_chars: usize) -> String {
    match s.char_indices().nth(max_chars) {
        None => s.to_string(),
        Some((end, _)) => format!("{}… ({} chars)", &s[..end], s.chars().count()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_input_is_cut_with_its_length() {
        assert_eq!(clip("héllo", 10), "héllo");
        assert_eq!(clip("héllo", 2), "hé… (5 chars)");
        assert_eq!(clip(&"x".repeat(1_000_000), 3), "xxx… (1000000 chars)");
    }
}
