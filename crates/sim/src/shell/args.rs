//! toybox's option parsing (`lib/args.c`), the part Android's tools share: options may come before,
//! between or after operands (`chmod 777 -R DIR`, `ls DIR -ll -au`), `-abc` is `-a -b -c`, `--` ends
//! options and a lone `-` is an operand. Two optstring prefixes change that: `?` passes an argument
//! with an unknown option letter through as an operand (`chmod -w FILE`, `find DIR -type f`), and
//! `^` stops option parsing at the first operand (`find`).

/// How one tool parses its options: the option letters it knows and the two prefixes.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub letters: &'static str,
    /// `?`: an argument with an unknown letter is an operand, not an error.
    pub pass_unknown: bool,
    /// `^`: everything from the first operand on is an operand.
    pub stop_early: bool,
}

impl Spec {
    pub const fn new(letters: &'static str) -> Spec {
        Spec {
            letters,
            pass_unknown: false,
            stop_early: false,
        }
    }
}

/// The options seen, in order (a repeated letter appears as often as it was given), and the
/// operands.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parsed {
    pub flags: Vec<char>,
    pub operands: Vec<String>,
}

impl Parsed {
    pub fn has(&self, letter: char) -> bool {
        self.flags.contains(&letter)
    }

    /// How many times `letter` was given (`ls -ll` is 2).
    pub fn count(&self, letter: char) -> usize {
        self.flags.iter().filter(|&&f| f == letter).count()
    }
}

/// Parses `args` by `spec`; an unknown letter (without `?`) is the error.
pub fn parse(args: &[String], spec: Spec) -> Result<Parsed, char> {
    let mut parsed = Parsed::default();
    let mut only_operands = false;
    for arg in args {
        let letters = arg.strip_prefix('-').filter(|l| !l.is_empty());
        match letters {
            Some("-") if !only_operands => only_operands = true,
            Some(letters) if !only_operands => {
                if let Some(bad) = letters.chars().find(|c| !spec.letters.contains(*c)) {
                    if !spec.pass_unknown {
                        return Err(bad);
                    }
                    parsed.operands.push(arg.clone());
                    only_operands |= spec.stop_early;
                } else {
                    parsed.flags.extend(letters.chars());
                }
            }
            _ => {
                parsed.operands.push(arg.clone());
                only_operands |= spec.stop_early;
            }
        }
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split(' ').map(String::from).collect()
    }

    #[test]
    fn options_may_follow_operands() {
        let p = parse(&args("777 -R /data/data/x"), Spec::new("cvfR")).unwrap();
        assert_eq!(p.flags, vec!['R']);
        assert_eq!(p.operands, args("777 /data/data/x"));
        let p = parse(
            &args("/sdcard -ll -au"),
            Spec::new("1ACFHLNRSUXZabcdfhiklmnopqrstuwx"),
        )
        .unwrap();
        assert_eq!((p.count('l'), p.has('a'), p.has('u')), (2, true, true));
        assert_eq!(p.operands, args("/sdcard"));
    }

    #[test]
    fn double_dash_and_lone_dash_are_operands_boundaries() {
        let p = parse(&args("-f -- -R -"), Spec::new("fR")).unwrap();
        assert_eq!(p.flags, vec!['f']);
        assert_eq!(p.operands, args("-R -"));
    }

    #[test]
    fn unknown_letters_error_or_pass_through() {
        assert_eq!(parse(&args("-x"), Spec::new("R")), Err('x'));
        let chmod = Spec {
            pass_unknown: true,
            ..Spec::new("cvfR")
        };
        let p = parse(&args("-w file"), chmod).unwrap();
        assert_eq!(p.operands, args("-w file"));
        let find = Spec {
            pass_unknown: true,
            stop_early: true,
            ..Spec::new("HL")
        };
        let p = parse(&args("-L /sdcard -type f -H"), find).unwrap();
        assert_eq!(p.flags, vec!['L']);
        assert_eq!(p.operands, args("/sdcard -type f -H"));
    }
}
