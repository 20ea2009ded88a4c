//! A small `sh` grammar: words with '…' and "…" quoting and backslash escapes, `$?` and `$VAR`,
//! pipelines joined by `|`, lists joined by `;`, `&`, `&&`, `||` and newlines, and `<`, `>`, `>>`,
//! `2>`, `2>>`, `2>&1`, `>&2` redirections. Never panics; malformed input is a [`SyntaxError`]
//! worded as mksh words it.

/// One piece of a word; variables stay unexpanded until the command runs (`false; echo $?`).
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    Lit(String),
    /// `$?`
    Status,
    /// `$NAME` or `${NAME}`
    Var(String),
}

pub type Word = Vec<Part>;

#[derive(Debug, Clone, PartialEq)]
pub enum Redirect {
    /// `[fd]> file` or `[fd]>> file`.
    ToFile { fd: u8, target: Word, append: bool },
    /// `2>&1` (fd 2 into fd 1) or `>&2`.
    Dup { fd: u8, to: u8 },
    /// `< file`
    FromFile(Word),
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Command {
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
}

/// How a pipeline joins the one before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Join {
    Always,
    IfOk,
    IfFailed,
}

pub type Pipeline = Vec<Command>;

/// A parse failure, printed as `/system/bin/sh: syntax error: …`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("syntax error: {0}")]
pub struct SyntaxError(pub String);

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(Word),
    Semi,
    And,
    Or,
    Pipe,
    Redirect { fd: u8, kind: RedirKind },
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum RedirKind {
    Out,
    Append,
    In,
    DupTo(u8),
}

/// Parses a command line into pipelines and how each joins the previous one.
pub fn parse(line: &str) -> Result<Vec<(Join, Pipeline)>, SyntaxError> {
    let tokens = tokenize(line)?;
    let mut list = Vec::new();
    let mut join = Join::Always;
    let mut pipeline: Pipeline = Vec::new();
    let mut cmd = Command::default();
    let mut iter = tokens.into_iter().peekable();
    while let Some(tok) = iter.next() {
        match tok {
            Token::Word(w) => cmd.words.push(w),
            Token::Redirect { fd, kind } => match kind {
                RedirKind::DupTo(to) => cmd.redirects.push(Redirect::Dup { fd, to }),
                _ => {
                    let Some(Token::Word(target)) = iter.next() else {
                        return Err(SyntaxError("newline unexpected".into()));
                    };
                    cmd.redirects.push(match kind {
                        RedirKind::In => Redirect::FromFile(target),
                        RedirKind::Append => Redirect::ToFile {
                            fd,
                            target,
                            append: true,
                        },
                        _ => Redirect::ToFile {
                            fd,
                            target,
                            append: false,
                        },
                    });
                }
            },
            Token::Pipe => {
                if cmd.words.is_empty() && cmd.redirects.is_empty() {
                    return Err(SyntaxError("'|' unexpected".into()));
                }
                pipeline.push(std::mem::take(&mut cmd));
            }
            Token::Semi | Token::And | Token::Or => {
                let empty = cmd.words.is_empty() && cmd.redirects.is_empty();
                if empty {
                    let sym = match tok {
                        Token::Semi => ";",
                        Token::And => "&&",
                        _ => "||",
                    };
                    return Err(SyntaxError(format!("'{sym}' unexpected")));
                }
                pipeline.push(std::mem::take(&mut cmd));
                list.push((join, std::mem::take(&mut pipeline)));
                join = match tok {
                    Token::And => Join::IfOk,
                    Token::Or => Join::IfFailed,
                    _ => Join::Always,
                };
                if tok != Token::Semi && iter.peek().is_none() {
                    return Err(SyntaxError("unexpected end of input".into()));
                }
            }
        }
    }
    if !cmd.words.is_empty() || !cmd.redirects.is_empty() {
        pipeline.push(cmd);
    } else if !pipeline.is_empty() {
        return Err(SyntaxError("unexpected end of input".into()));
    }
    if !pipeline.is_empty() {
        list.push((join, pipeline));
    }
    Ok(list)
}

fn tokenize(line: &str) -> Result<Vec<Token>, SyntaxError> {
    let chars: Vec<char> = line.chars().collect();
    let mut tokens = Vec::new();
    let mut word: Word = Vec::new();
    let mut in_word = false;
    let mut i = 0;
    let flush = |word: &mut Word, in_word: &mut bool, tokens: &mut Vec<Token>| {
        if *in_word {
            tokens.push(Token::Word(std::mem::take(word)));
            *in_word = false;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\t' | '\r' => {
                flush(&mut word, &mut in_word, &mut tokens);
                i += 1;
            }
            '\n' => {
                flush(&mut word, &mut in_word, &mut tokens);
                if !matches!(
                    tokens.last(),
                    None | Some(Token::Semi)
                        | Some(Token::And)
                        | Some(Token::Or)
                        | Some(Token::Pipe)
                ) {
                    tokens.push(Token::Semi);
                }
                i += 1;
            }
            '#' if !in_word => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            ';' | '&' | '|' => {
                flush(&mut word, &mut in_word, &mut tokens);
                let next = chars.get(i + 1).copied();
                let tok = match (c, next) {
                    ('&', Some('&')) => {
                        i += 1;
                        Token::And
                    }
                    ('|', Some('|')) => {
                        i += 1;
                        Token::Or
                    }
                    ('|', _) => Token::Pipe,
                    (';', Some(';')) => return Err(SyntaxError("';;' unexpected".into())),
                    _ => Token::Semi,
                };
                tokens.push(tok);
                i += 1;
            }
            '>' | '<' => {
                // A word made only of one digit right before `>` is the fd number (`2>`).
                let mut fd = if c == '<' { 0 } else { 1 };
                if in_word {
                    if let [Part::Lit(s)] = word.as_slice() {
                        if s.len() == 1
                            && (s == "1" || s == "2")
                            && chars
                                .get(i.wrapping_sub(1))
                                .is_some_and(|p| p.is_ascii_digit())
                        {
                            fd = s.parse().unwrap_or(1);
                            word.clear();
                            in_word = false;
                        }
                    }
                }
                flush(&mut word, &mut in_word, &mut tokens);
                i += 1;
                let kind = if c == '<' {
                    RedirKind::In
                } else if chars.get(i) == Some(&'>') {
                    i += 1;
                    RedirKind::Append
                } else if chars.get(i) == Some(&'&') {
                    match chars.get(i + 1) {
                        Some(d @ ('1' | '2')) => {
                            i += 2;
                            RedirKind::DupTo(if *d == '1' { 1 } else { 2 })
                        }
                        _ => return Err(SyntaxError("'&' unexpected".into())),
                    }
                } else {
                    RedirKind::Out
                };
                tokens.push(Token::Redirect { fd, kind });
            }
            '\'' => {
                in_word = true;
                let start = i + 1;
                let Some(len) = chars[start..].iter().position(|&c| c == '\'') else {
                    return Err(SyntaxError("unterminated string".into()));
                };
                push_lit(
                    &mut word,
                    chars[start..start + len]
                        .iter()
                        .collect::<String>()
                        .as_str(),
                );
                i = start + len + 1;
            }
            '"' => {
                in_word = true;
                i += 1;
                let mut closed = false;
                while i < chars.len() {
                    let c = chars[i];
                    match c {
                        '"' => {
                            closed = true;
                            i += 1;
                            break;
                        }
                        '\\' => {
                            match chars.get(i + 1) {
                                Some(n @ ('"' | '\\' | '$' | '`')) => {
                                    push_lit(&mut word, &n.to_string())
                                }
                                Some('\n') => {}
                                Some(n) => push_lit(&mut word, &format!("\\{n}")),
                                None => push_lit(&mut word, "\\"),
                            }
                            i += 2;
                        }
                        '$' => {
                            i = dollar(&chars, i, &mut word);
                        }
                        _ => {
                            push_lit(&mut word, &c.to_string());
                            i += 1;
                        }
                    }
                }
                if !closed {
                    return Err(SyntaxError("unterminated string".into()));
                }
            }
            '\\' => {
                in_word = true;
                match chars.get(i + 1) {
                    Some('\n') => {}
                    Some(n) => push_lit(&mut word, &n.to_string()),
                    None => {}
                }
                i += 2;
            }
            '$' => {
                in_word = true;
                i = dollar(&chars, i, &mut word);
            }
            _ => {
                in_word = true;
                push_lit(&mut word, &c.to_string());
                i += 1;
            }
        }
    }
    flush(&mut word, &mut in_word, &mut tokens);
    Ok(tokens)
}

/// Reads a `$…` at `i`; returns the index after it.
fn dollar(chars: &[char], i: usize, word: &mut Word) -> usize {
    match chars.get(i + 1) {
        Some('?') => {
            word.push(Part::Status);
            i + 2
        }
        Some('{') => {
            let start = i + 2;
            match chars[start..].iter().position(|&c| c == '}') {
                Some(len) => {
                    word.push(Part::Var(chars[start..start + len].iter().collect()));
                    start + len + 1
                }
                None => {
                    push_lit(word, "${");
                    start
                }
            }
        }
        Some(c) if c.is_ascii_alphabetic() || *c == '_' => {
            let start = i + 1;
            let len = chars[start..]
                .iter()
                .position(|c| !(c.is_ascii_alphanumeric() || *c == '_'))
                .unwrap_or(chars.len() - start);
            word.push(Part::Var(chars[start..start + len].iter().collect()));
            start + len
        }
        _ => {
            push_lit(word, "$");
            i + 1
        }
    }
}

fn push_lit(word: &mut Word, s: &str) {
    if let Some(Part::Lit(last)) = word.last_mut() {
        last.push_str(s);
    } else {
        word.push(Part::Lit(s.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Vec<String>> {
        parse(line)
            .unwrap()
            .into_iter()
            .flat_map(|(_, p)| p)
            .map(|c| {
                c.words
                    .into_iter()
                    .map(|w| {
                        w.into_iter()
                            .map(|p| match p {
                                Part::Lit(s) => s,
                                Part::Status => "$?".into(),
                                Part::Var(v) => format!("${v}"),
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn quoting_and_lists() {
        assert_eq!(
            words("echo 'a b' \"c\\\"d\" e\\ f"),
            vec![vec!["echo", "a b", "c\"d", "e f"]]
        );
        assert_eq!(words("a; b && c || d | e").len(), 5);
        assert_eq!(words("echo 'it'\\''s'"), vec![vec!["echo", "it's"]]);
        assert!(parse("echo 'x").is_err());
        assert!(parse("| a").is_err());
        assert!(parse("a &&").is_err());
        assert!(parse("").unwrap().is_empty());
    }

    #[test]
    fn redirections() {
        let list = parse("ls x 2>/dev/null >> /sdcard/o 2>&1").unwrap();
        assert_eq!(list[0].1[0].redirects.len(), 3);
        assert_eq!(list[0].1[0].words.len(), 2);
    }
}
