//! The success expression that composes checks: `all(a, b)`, `any(a, b)`, `not(a)`,
//! `k_of_n(2, a, b, c)`, nested freely; bare names are check ids.

/// A parsed success expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Check(String),
    All(Vec<Expr>),
    Any(Vec<Expr>),
    Not(Box<Expr>),
    KOfN(usize, Vec<Expr>),
}

impl Expr {
    /// Parses an expression; the error names the byte offset and what was expected.
    pub fn parse(src: &str) -> Result<Expr, String> {
        let mut p = Parser { src, pos: 0 };
        let e = p.expr()?;
        p.skip_ws();
        if p.pos != src.len() {
            return Err(format!(
                "unexpected {:?} at offset {}",
                &src[p.pos..],
                p.pos
            ));
        }
        Ok(e)
    }

    /// Every check id the expression names, in order of appearance.
    pub fn names(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Expr::Check(n) => out.push(n),
            Expr::All(v) | Expr::Any(v) | Expr::KOfN(_, v) => v.iter().for_each(|e| e.collect(out)),
            Expr::Not(e) => e.collect(out),
        }
    }

    /// Evaluates with `passed(id)` giving each check's result.
    pub fn eval(&self, passed: &dyn Fn(&str) -> bool) -> bool {
        match self {
            Expr::Check(n) => passed(n),
            Expr::All(v) => v.iter().all(|e| e.eval(passed)),
            Expr::Any(v) => v.iter().any(|e| e.eval(passed)),
            Expr::Not(e) => !e.eval(passed),
            Expr::KOfN(k, v) => v.iter().filter(|e| e.eval(passed)).count() >= *k,
        }
    }

    /// Evaluates with checks that may be unknown (`None`: the check could not read the device), in
    /// Kleene's three-valued logic: the answer is `None` only when the unknown checks could change it.
    pub fn eval_known(&self, known: &dyn Fn(&str) -> Option<bool>) -> Option<bool> {
        match self {
            Expr::Check(n) => known(n),
            Expr::All(v) => {
                let r: Vec<Option<bool>> = v.iter().map(|e| e.eval_known(known)).collect();
                if r.contains(&Some(false)) {
                    Some(false)
                } else if r.iter().all(|x| *x == Some(true)) {
                    Some(true)
                } else {
                    None
                }
            }
            Expr::Any(v) => {
                let r: Vec<Option<bool>> = v.iter().map(|e| e.eval_known(known)).collect();
                if r.contains(&Some(true)) {
                    Some(true)
                } else if r.iter().all(|x| *x == Some(false)) {
                    Some(false)
                } else {
                    None
                }
            }
            Expr::Not(e) => e.eval_known(known).map(|b| !b),
            Expr::KOfN(k, v) => {
                let r: Vec<Option<bool>> = v.iter().map(|e| e.eval_known(known)).collect();
                let yes = r.iter().filter(|x| **x == Some(true)).count();
                let unknown = r.iter().filter(|x| x.is_none()).count();
                if yes >= *k {
                    Some(true)
                } else if yes + unknown < *k {
                    Some(false)
                } else {
                    None
                }
            }
        }
    }
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.src[self.pos..].starts_with(char::is_whitespace) {
            self.pos += self.src[self.pos..]
                .chars()
                .next()
                .map_or(1, char::len_utf8);
        }
    }

    fn ident(&mut self) -> Result<String, String> {
        self.skip_ws();
        let rest = &self.src[self.pos..];
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.'))
            .unwrap_or(rest.len());
        if len == 0 {
            return Err(format!(
                "expected a check id or all/any/not/k_of_n at offset {}",
                self.pos
            ));
        }
        self.pos += len;
        Ok(rest[..len].to_string())
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_ws();
        if self.src[self.pos..].starts_with(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expr(&mut self) -> Result<Expr, String> {
        let name = self.ident()?;
        if !self.eat('(') {
            return Ok(Expr::Check(name));
        }
        let mut k = None;
        if name == "k_of_n" {
            let n = self.ident()?;
            k = Some(
                n.parse::<usize>()
                    .map_err(|_| format!("k_of_n needs a count first, got {n:?}"))?,
            );
            if !self.eat(',') {
                return Err(format!(
                    "expected ',' after the count at offset {}",
                    self.pos
                ));
            }
        }
        let mut args = vec![self.expr()?];
        while self.eat(',') {
            args.push(self.expr()?);
        }
        if !self.eat(')') {
            return Err(format!("expected ',' or ')' at offset {}", self.pos));
        }
        match name.as_str() {
            "all" => Ok(Expr::All(args)),
            "any" => Ok(Expr::Any(args)),
            "not" if args.len() == 1 => Ok(Expr::Not(Box::new(args.remove(0)))),
            "not" => Err("not() takes exactly one argument".into()),
            "k_of_n" => {
                let k = k.expect("k parsed above for k_of_n");
                if k > args.len() {
                    return Err(format!("k_of_n({k}, …) has only {} arguments", args.len()));
                }
                Ok(Expr::KOfN(k, args))
            }
            other => Err(format!(
                "unknown function {other:?} (all, any, not, k_of_n)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_evaluates() {
        let e = Expr::parse("all(db, any(vol, not(log)), k_of_n(2, a, b, c))").unwrap();
        assert_eq!(e.names(), ["db", "vol", "log", "a", "b", "c"]);
        let yes = ["db", "a", "c"];
        assert!(e.eval(&|n| yes.contains(&n)));
        let no = ["db", "log", "a", "c"];
        assert!(!e.eval(&|n| no.contains(&n)));
    }

    #[test]
    fn errors_name_the_problem() {
        for (src, needle) in [
            ("all(a,", "expected a check id"),
            ("all(a b)", "expected ',' or ')'"),
            ("most(a)", "unknown function"),
            ("k_of_n(3, a, b)", "only 2"),
            ("not(a, b)", "exactly one"),
            ("a b", "unexpected"),
            ("k_of_n(x, a)", "count first"),
        ] {
            let err = Expr::parse(src).unwrap_err();
            assert!(err.contains(needle), "{src}: {err}");
        }
    }
}
