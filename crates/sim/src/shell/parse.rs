//! The `sh` grammar as tools use mksh on Android: words with '…', "…" and backslash quoting;
//! `$?`, `$$`, `$NAME`, `${NAME}`, `$(…)` and backquote substitution; pipelines; lists joined by `;`,
//! `&`, `&&`, `||` and newlines; `!`; `if/then/elif/else/fi`, `for … in … do … done`,
//! `while`/`until`, `{ …; }` and `( … )`; and the `<`, `>`, `>>`, `N>`, `N>&M` redirections.
//! Never panics; malformed input is a [`SyntaxError`] worded as mksh words it.

/// One piece of a word; expansions stay unexpanded until the command runs (`false; echo $?`).
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// Literal text outside quotes.
    Lit(String),
    /// Literal text from inside quotes (or escaped): never an assignment, never split.
    Quoted(String),
    /// `$?`
    Status,
    /// `$NAME` or `${NAME}`; `quoted` when inside "…" (no field splitting).
    Var { name: String, quoted: bool },
    /// `$(…)` or `` `…` ``: the script to run; its output replaces it.
    Subst { script: String, quoted: bool },
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

/// One stage of a pipeline.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Simple {
        words: Vec<Word>,
        redirects: Vec<Redirect>,
    },
    Compound {
        body: Box<Compound>,
        redirects: Vec<Redirect>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum Compound {
    /// `if c; then b; [elif c; then b;]… [else b;] fi`
    If {
        branches: Vec<(List, List)>,
        otherwise: Option<List>,
    },
    /// `for NAME [in WORDS]; do LIST; done`
    For {
        name: String,
        words: Vec<Word>,
        body: List,
    },
    /// `while LIST; do LIST; done` (or `until`).
    While { cond: List, body: List, until: bool },
    /// `{ LIST; }` or `( LIST )` (a subshell: its variables do not leak out).
    Group { body: List, subshell: bool },
}

/// How a pipeline joins the one before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Join {
    Always,
    IfOk,
    IfFailed,
}

/// A pipeline; `negate` for a leading `!`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pipeline {
    pub stages: Vec<Command>,
    pub negate: bool,
}

pub type List = Vec<(Join, Pipeline)>;

/// A parse failure, printed as `/system/bin/sh: syntax error: …`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("syntax error: {0}")]
pub struct SyntaxError(pub String);

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(Word),
    /// `;` or a newline.
    Semi,
    /// `&`
    Amp,
    And,
    Or,
    Pipe,
    Open,
    Close,
    Redirect {
        fd: u8,
        kind: RedirKind,
    },
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum RedirKind {
    Out,
    Append,
    In,
    DupTo(u8),
}

/// How deep `$(…)` and compound commands may nest before the input is refused.
const MAX_DEPTH: usize = 64;

/// Parses a command line into a list of pipelines.
pub fn parse(line: &str) -> Result<List, SyntaxError> {
    parse_at(line, 0)
}

fn parse_at(line: &str, depth: usize) -> Result<List, SyntaxError> {
    if depth > MAX_DEPTH {
        return Err(SyntaxError("nesting too deep".into()));
    }
    let tokens = tokenize(line)?;
    let mut p = Parser {
        tokens,
        pos: 0,
        depth,
    };
    let list = p.list(&[])?;
    match p.peek() {
        None => Ok(list),
        Some(t) => Err(SyntaxError(format!("'{}' unexpected", describe(t)))),
    }
}

fn describe(t: &Token) -> String {
    match t {
        Token::Word(w) => plain(w).unwrap_or("word").to_string(),
        Token::Semi => ";".into(),
        Token::Amp => "&".into(),
        Token::And => "&&".into(),
        Token::Or => "||".into(),
        Token::Pipe => "|".into(),
        Token::Open => "(".into(),
        Token::Close => ")".into(),
        Token::Redirect { .. } => "redirection".into(),
    }
}

/// The text of a word made of one unquoted literal (a reserved word candidate).
fn plain(w: &Word) -> Option<&str> {
    match w.as_slice() {
        [Part::Lit(s)] => Some(s.as_str()),
        _ => None,
    }
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn peek_reserved(&self) -> Option<&str> {
        match self.peek() {
            Some(Token::Word(w)) => plain(w),
            _ => None,
        }
    }

    fn skip_separators(&mut self) {
        while matches!(self.peek(), Some(Token::Semi) | Some(Token::Amp)) {
            self.pos += 1;
        }
    }

    fn expect_reserved(&mut self, word: &str) -> Result<(), SyntaxError> {
        self.skip_separators();
        match self.peek_reserved() {
            Some(w) if w == word => {
                self.pos += 1;
                Ok(())
            }
            Some(w) => Err(SyntaxError(format!("'{w}' unexpected"))),
            None => match self.peek() {
                None => Err(SyntaxError(format!("unexpected EOF, expecting '{word}'"))),
                Some(t) => Err(SyntaxError(format!("'{}' unexpected", describe(t)))),
            },
        }
    }

    /// A list up to (not including) one of the `stops` reserved words, `)` or the end.
    fn list(&mut self, stops: &[&str]) -> Result<List, SyntaxError> {
        let mut list = List::new();
        let mut join = Join::Always;
        loop {
            self.skip_separators();
            match self.peek() {
                None | Some(Token::Close) => break,
                _ => {}
            }
            if let Some(w) = self.peek_reserved() {
                if stops.contains(&w) {
                    break;
                }
            }
            // A pipeline ended by `&` runs like any other (see `shell::run_list`).
            let pipeline = self.pipeline()?;
            list.push((join, pipeline));
            join = Join::Always;
            match self.peek() {
                Some(Token::And) | Some(Token::Or) => {
                    join = if self.peek() == Some(&Token::And) {
                        Join::IfOk
                    } else {
                        Join::IfFailed
                    };
                    self.pos += 1;
                    self.skip_separators();
                    if self.peek().is_none() {
                        return Err(SyntaxError("unexpected end of input".into()));
                    }
                }
                Some(Token::Semi) | Some(Token::Amp) => self.pos += 1,
                _ => {}
            }
        }
        Ok(list)
    }

    fn pipeline(&mut self) -> Result<Pipeline, SyntaxError> {
        let mut pipeline = Pipeline::default();
        if self.peek_reserved() == Some("!") {
            self.pos += 1;
            pipeline.negate = true;
        }
        loop {
            pipeline.stages.push(self.command()?);
            if self.peek() == Some(&Token::Pipe) {
                self.pos += 1;
                self.skip_separators();
                if self.peek().is_none() {
                    return Err(SyntaxError("unexpected end of input".into()));
                }
            } else {
                return Ok(pipeline);
            }
        }
    }

    fn nested(&mut self, stops: &[&str]) -> Result<List, SyntaxError> {
        if self.depth >= MAX_DEPTH {
            return Err(SyntaxError("nesting too deep".into()));
        }
        self.depth += 1;
        let list = self.list(stops);
        self.depth -= 1;
        list
    }

    fn command(&mut self) -> Result<Command, SyntaxError> {
        let compound = match (self.peek(), self.peek_reserved()) {
            (Some(Token::Open), _) => {
                self.pos += 1;
                let body = self.nested(&[])?;
                if self.peek() != Some(&Token::Close) {
                    return Err(SyntaxError("unexpected EOF, expecting ')'".into()));
                }
                self.pos += 1;
                Some(Compound::Group {
                    body,
                    subshell: true,
                })
            }
            (_, Some("{")) => {
                self.pos += 1;
                let body = self.nested(&["}"])?;
                self.expect_reserved("}")?;
                Some(Compound::Group {
                    body,
                    subshell: false,
                })
            }
            (_, Some("if")) => {
                self.pos += 1;
                let mut branches = Vec::new();
                let mut otherwise = None;
                loop {
                    let cond = self.nested(&["then"])?;
                    self.expect_reserved("then")?;
                    let body = self.nested(&["elif", "else", "fi"])?;
                    branches.push((cond, body));
                    match self.peek_reserved() {
                        Some("elif") => self.pos += 1,
                        Some("else") => {
                            self.pos += 1;
                            otherwise = Some(self.nested(&["fi"])?);
                            self.expect_reserved("fi")?;
                            break;
                        }
                        _ => {
                            self.expect_reserved("fi")?;
                            break;
                        }
                    }
                }
                Some(Compound::If {
                    branches,
                    otherwise,
                })
            }
            (_, Some("for")) => {
                self.pos += 1;
                let name = match self.peek() {
                    Some(Token::Word(w)) => plain(w)
                        .filter(|n| is_name(n))
                        .map(str::to_string)
                        .ok_or_else(|| SyntaxError("bad for loop variable".into()))?,
                    _ => return Err(SyntaxError("missing for loop variable".into())),
                };
                self.pos += 1;
                let mut words = Vec::new();
                if self.peek_reserved() == Some("in") {
                    self.pos += 1;
                    while let Some(Token::Word(w)) = self.peek() {
                        words.push(w.clone());
                        self.pos += 1;
                    }
                }
                self.expect_reserved("do")?;
                let body = self.nested(&["done"])?;
                self.expect_reserved("done")?;
                Some(Compound::For { name, words, body })
            }
            (_, Some(kw @ ("while" | "until"))) => {
                let until = kw == "until";
                self.pos += 1;
                let cond = self.nested(&["do"])?;
                self.expect_reserved("do")?;
                let body = self.nested(&["done"])?;
                self.expect_reserved("done")?;
                Some(Compound::While { cond, body, until })
            }
            (_, Some(w @ ("then" | "elif" | "else" | "fi" | "do" | "done" | "}"))) => {
                return Err(SyntaxError(format!("'{w}' unexpected")));
            }
            _ => None,
        };
        let mut words = Vec::new();
        let mut redirects = Vec::new();
        loop {
            match self.peek().cloned() {
                Some(Token::Word(w)) if compound.is_none() => {
                    words.push(w);
                    self.pos += 1;
                }
                Some(Token::Redirect { fd, kind }) => {
                    self.pos += 1;
                    redirects.push(match kind {
                        RedirKind::DupTo(to) => Redirect::Dup { fd, to },
                        _ => {
                            let Some(Token::Word(target)) = self.peek().cloned() else {
                                return Err(SyntaxError("newline unexpected".into()));
                            };
                            self.pos += 1;
                            match kind {
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
                            }
                        }
                    });
                }
                _ => break,
            }
        }
        match compound {
            Some(body) => Ok(Command::Compound {
                body: Box::new(body),
                redirects,
            }),
            None if words.is_empty() && redirects.is_empty() => {
                Err(SyntaxError(match self.peek() {
                    Some(t) => format!("'{}' unexpected", describe(t)),
                    None => "unexpected end of input".into(),
                }))
            }
            None => Ok(Command::Simple { words, redirects }),
        }
    }
}

/// A valid variable name (`[A-Za-z_][A-Za-z0-9_]*`).
pub fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
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
                        | Some(Token::Amp)
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
            '(' | ')' => {
                flush(&mut word, &mut in_word, &mut tokens);
                tokens.push(if c == '(' { Token::Open } else { Token::Close });
                i += 1;
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
                    ('&', _) => Token::Amp,
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
                        if let Some(d) = s.parse::<u8>().ok().filter(|d| *d <= 9 && s.len() == 1) {
                            fd = d;
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
                    match chars.get(i + 1).and_then(|d| d.to_digit(10)) {
                        Some(d) => {
                            i += 2;
                            RedirKind::DupTo(d as u8)
                        }
                        None => return Err(SyntaxError("'&' unexpected".into())),
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
                push_quoted(
                    &mut word,
                    &chars[start..start + len].iter().collect::<String>(),
                );
                i = start + len + 1;
            }
            '"' => {
                in_word = true;
                // An empty "" still makes a (quoted, empty) word.
                push_quoted(&mut word, "");
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
                                    push_quoted(&mut word, &n.to_string())
                                }
                                Some('\n') => {}
                                Some(n) => push_quoted(&mut word, &format!("\\{n}")),
                                None => push_quoted(&mut word, "\\"),
                            }
                            i += 2;
                        }
                        '$' => i = dollar(&chars, i, &mut word, true)?,
                        '`' => i = backquote(&chars, i, &mut word, true)?,
                        _ => {
                            push_quoted(&mut word, &c.to_string());
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
                    Some(n) => push_quoted(&mut word, &n.to_string()),
                    None => {}
                }
                i += 2;
            }
            '$' => {
                in_word = true;
                i = dollar(&chars, i, &mut word, false)?;
            }
            '`' => {
                in_word = true;
                i = backquote(&chars, i, &mut word, false)?;
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
fn dollar(chars: &[char], i: usize, word: &mut Word, quoted: bool) -> Result<usize, SyntaxError> {
    let lit = |word: &mut Word, s: &str| {
        if quoted {
            push_quoted(word, s)
        } else {
            push_lit(word, s)
        }
    };
    Ok(match chars.get(i + 1) {
        Some('?') => {
            word.push(Part::Status);
            i + 2
        }
        Some(c @ ('$' | '#' | '0' | '!' | '-')) => {
            word.push(Part::Var {
                name: c.to_string(),
                quoted,
            });
            i + 2
        }
        Some('(') => {
            let start = i + 2;
            let end = closing_paren(chars, start)?;
            word.push(Part::Subst {
                script: chars[start..end].iter().collect(),
                quoted,
            });
            end + 1
        }
        Some('{') => {
            let start = i + 2;
            match chars[start..].iter().position(|&c| c == '}') {
                Some(len) => {
                    let name: String = chars[start..start + len].iter().collect();
                    if !is_name(&name) && !matches!(name.as_str(), "?" | "$" | "#" | "0" | "!") {
                        return Err(SyntaxError(format!("${{{name}}}: bad substitution")));
                    }
                    if name == "?" {
                        word.push(Part::Status);
                    } else {
                        word.push(Part::Var { name, quoted });
                    }
                    start + len + 1
                }
                None => return Err(SyntaxError("missing '}'".into())),
            }
        }
        Some(c) if c.is_ascii_alphabetic() || *c == '_' => {
            let start = i + 1;
            let len = chars[start..]
                .iter()
                .position(|c| !(c.is_ascii_alphanumeric() || *c == '_'))
                .unwrap_or(chars.len() - start);
            word.push(Part::Var {
                name: chars[start..start + len].iter().collect(),
                quoted,
            });
            start + len
        }
        Some(c) if c.is_ascii_digit() => {
            // Positional parameters: `sh -c` here has none.
            word.push(Part::Var {
                name: c.to_string(),
                quoted,
            });
            i + 2
        }
        _ => {
            lit(word, "$");
            i + 1
        }
    })
}

/// Index of the `)` closing a `$(` whose body starts at `start`, skipping quotes and nesting.
fn closing_paren(chars: &[char], start: usize) -> Result<usize, SyntaxError> {
    let mut depth = 0usize;
    let mut i = start;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '\'' => match chars[i + 1..].iter().position(|&c| c == '\'') {
                Some(len) => i += len + 1,
                None => return Err(SyntaxError("unterminated string".into())),
            },
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            '(' => depth += 1,
            ')' if depth == 0 => return Ok(i),
            ')' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    Err(SyntaxError("unexpected EOF, expecting ')'".into()))
}

/// Reads a `` `…` `` at `i`; returns the index after it.
fn backquote(
    chars: &[char],
    i: usize,
    word: &mut Word,
    quoted: bool,
) -> Result<usize, SyntaxError> {
    let mut script = String::new();
    let mut j = i + 1;
    while j < chars.len() {
        match chars[j] {
            '`' => {
                word.push(Part::Subst { script, quoted });
                return Ok(j + 1);
            }
            '\\' if matches!(chars.get(j + 1), Some('`' | '\\' | '$')) => {
                script.push(chars[j + 1]);
                j += 2;
            }
            c => {
                script.push(c);
                j += 1;
            }
        }
    }
    Err(SyntaxError("unterminated `".into()))
}

fn push_lit(word: &mut Word, s: &str) {
    if let Some(Part::Lit(last)) = word.last_mut() {
        last.push_str(s);
    } else {
        word.push(Part::Lit(s.to_string()));
    }
}

fn push_quoted(word: &mut Word, s: &str) {
    if let Some(Part::Quoted(last)) = word.last_mut() {
        last.push_str(s);
    } else {
        word.push(Part::Quoted(s.to_string()));
    }
}

/// Parses the script of a `$(…)`; kept here so nesting depth is bounded.
pub fn parse_nested(script: &str, depth: usize) -> Result<List, SyntaxError> {
    parse_at(script, depth + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn simple_words(line: &str) -> Vec<Vec<String>> {
        parse(line)
            .unwrap()
            .into_iter()
            .flat_map(|(_, p)| p.stages)
            .map(|c| match c {
                Command::Simple { words, .. } => words
                    .into_iter()
                    .map(|w| {
                        w.into_iter()
                            .map(|p| match p {
                                Part::Lit(s) | Part::Quoted(s) => s,
                                Part::Status => "$?".into(),
                                Part::Var { name, .. } => format!("${name}"),
                                Part::Subst { script, .. } => format!("$({script})"),
                            })
                            .collect()
                    })
                    .collect(),
                Command::Compound { .. } => vec!["<compound>".to_string()],
            })
            .collect()
    }

    #[test]
    fn quoting_and_lists() {
        assert_eq!(
            simple_words("echo 'a b' \"c\\\"d\" e\\ f"),
            vec![vec!["echo", "a b", "c\"d", "e f"]]
        );
        assert_eq!(simple_words("a; b && c || d | e").len(), 5);
        assert_eq!(simple_words("echo 'it'\\''s'"), vec![vec!["echo", "it's"]]);
        assert!(parse("echo 'x").is_err());
        assert!(parse("| a").is_err());
        assert!(parse("a &&").is_err());
        assert!(parse("").unwrap().is_empty());
    }

    #[test]
    fn substitutions_and_compounds() {
        assert_eq!(
            simple_words("kill $(pidof x) `echo y`"),
            vec![vec!["kill", "$(pidof x)", "$(echo y)"]]
        );
        assert_eq!(
            simple_words("echo $(echo \")\" (a))"),
            vec![vec!["echo", "$(echo \")\" (a))"]]
        );
        let list = parse("if [ -f x ]; then echo a; elif true; then :; else b; fi; for i in 1 2; do echo $i; done").unwrap();
        assert_eq!(list.len(), 2);
        assert!(parse("if true; then echo").is_err());
        assert!(parse("fi").is_err());
        assert!(parse("echo $(ls").is_err());
        assert!(parse("( echo a; echo b ) | wc -l").is_ok());
        assert!(parse("{ echo a; }").is_ok());
    }

    #[test]
    fn redirections() {
        let list = parse("ls x 2>/dev/null >> /sdcard/o 2>&1").unwrap();
        let Command::Simple { words, redirects } = &list[0].1.stages[0] else {
            panic!("simple command expected");
        };
        assert_eq!(redirects.len(), 3);
        assert_eq!(words.len(), 2);
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let deep = "$(".repeat(200) + &")".repeat(200);
        let _ = parse(&format!("echo {deep}"));
        let ifs = "if true; then ".repeat(500) + &"fi; ".repeat(500);
        assert!(parse(&ifs).is_err());
    }
}
