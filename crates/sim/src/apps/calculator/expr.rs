//! The Calculator's expression: the keys typed so far, the formula text Google Calculator shows for
//! them (`2+24÷3`, `√25`, `cos(60`), and their value.
//!
//! Evaluation follows Google Calculator: × and ÷ bind tighter than + and −, `^` is right
//! associative, `!` and `%` are postfix (`50%28` is 0.5×28), a number followed by `(`, a constant,
//! a function or `√` multiplies implicitly, and unclosed parentheses are closed at the end.

use std::fmt;

/// One key of the expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Digit(u8),
    Point,
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Percent,
    Factorial,
    Sqrt,
    Func(Func),
    LParen,
    RParen,
    Pi,
    E,
}

/// Functions that open a parenthesis when typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Ln,
    Log,
    Exp,
    TenPow,
}

impl Func {
    fn text(self) -> &'static str {
        match self {
            Func::Sin => "sin(",
            Func::Cos => "cos(",
            Func::Tan => "tan(",
            Func::Asin => "sin⁻¹(",
            Func::Acos => "cos⁻¹(",
            Func::Atan => "tan⁻¹(",
            Func::Ln => "ln(",
            Func::Log => "log(",
            Func::Exp => "exp(",
            Func::TenPow => "10^(",
        }
    }
}

impl Key {
    /// How the key appears in the formula view.
    pub fn text(self) -> &'static str {
        const DIGITS: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
        match self {
            Key::Digit(d) => DIGITS[(d as usize).min(9)],
            Key::Point => ".",
            Key::Add => "+",
            Key::Sub => "−",
            Key::Mul => "×",
            Key::Div => "÷",
            Key::Pow => "^",
            Key::Percent => "%",
            Key::Factorial => "!",
            Key::Sqrt => "√",
            Key::Func(f) => f.text(),
            Key::LParen => "(",
            Key::RParen => ")",
            Key::Pi => "π",
            Key::E => "e",
        }
    }

    fn is_binary(self) -> bool {
        matches!(self, Key::Add | Key::Sub | Key::Mul | Key::Div | Key::Pow)
    }

    fn is_number_part(self) -> bool {
        matches!(self, Key::Digit(_) | Key::Point)
    }

    /// Keys after which a value has ended (so a following value multiplies).
    fn ends_value(self) -> bool {
        matches!(
            self,
            Key::Digit(_)
                | Key::Point
                | Key::RParen
                | Key::Pi
                | Key::E
                | Key::Factorial
                | Key::Percent
        )
    }

    fn opens(self) -> bool {
        matches!(self, Key::LParen | Key::Func(_))
    }
}

/// Angle unit for trigonometric functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AngleMode {
    Degrees,
    Radians,
}

/// Why an expression has no value, worded as Google Calculator words it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CalcError {
    DivideByZero,
    Domain,
    TooLarge,
    BadExpression,
}

impl fmt::Display for CalcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CalcError::DivideByZero => "Can't divide by 0",
            CalcError::Domain => "Domain error",
            CalcError::TooLarge => "Value too large",
            CalcError::BadExpression => "Bad expression",
        })
    }
}

/// The typed expression.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Expr {
    pub keys: Vec<Key>,
}

impl Expr {
    /// The formula text (`2+24÷3`).
    pub fn formula(&self) -> String {
        self.keys.iter().map(|k| k.text()).collect()
    }

    /// Adds a key the way the keypad does: a second binary operator replaces the first (except
    /// `−` after ×, ÷ or ^, which negates), a number takes one decimal point, `)` needs an open `(`.
    pub fn push(&mut self, key: Key) {
        let last = self.keys.last().copied();
        match key {
            k if k.is_binary() => match last {
                None => {
                    if k == Key::Sub {
                        self.keys.push(k);
                    }
                }
                Some(prev) if prev.opens() => {
                    if k == Key::Sub {
                        self.keys.push(k);
                    }
                }
                Some(prev) if prev.is_binary() => {
                    if k == Key::Sub && matches!(prev, Key::Mul | Key::Div | Key::Pow) {
                        self.keys.push(k);
                    } else {
                        // Replace the trailing operator run (e.g. "×−" then "+" gives "+").
                        while self.keys.last().is_some_and(|p| p.is_binary()) {
                            self.keys.pop();
                        }
                        if self.keys.is_empty() && k != Key::Sub {
                            return;
                        }
                        self.keys.push(k);
                    }
                }
                Some(_) => self.keys.push(k),
            },
            Key::Point => {
                let in_number: Vec<Key> = self
                    .keys
                    .iter()
                    .rev()
                    .take_while(|k| k.is_number_part())
                    .copied()
                    .collect();
                if !in_number.contains(&Key::Point) {
                    self.keys.push(key);
                }
            }
            Key::Percent | Key::Factorial => {
                if last.is_some_and(|k| k.ends_value()) {
                    self.keys.push(key);
                }
            }
            Key::RParen => {
                if self.open_parens() > 0 && last.is_some_and(|k| k.ends_value()) {
                    self.keys.push(key);
                }
            }
            _ => self.keys.push(key),
        }
    }

    /// The single "( )" key: opens unless a value can close an open parenthesis.
    pub fn push_paren(&mut self) {
        let last = self.keys.last().copied();
        if self.open_parens() > 0 && last.is_some_and(|k| k.ends_value()) {
            self.keys.push(Key::RParen);
        } else {
            self.keys.push(Key::LParen);
        }
    }

    pub fn delete_last(&mut self) {
        self.keys.pop();
    }

    fn open_parens(&self) -> i32 {
        self.keys.iter().fold(0, |n, k| match k {
            k if k.opens() => n + 1,
            Key::RParen => n - 1,
            _ => n,
        })
    }

    /// True when the last key completes an operand (a digit, `)`, a constant, `!` or `%`), so the
    /// expression has a value as typed.
    pub fn ends_with_operand(&self) -> bool {
        self.keys.last().is_some_and(|k| k.ends_value())
    }

    /// True when the expression is only a number (no operator to preview).
    pub fn is_plain_number(&self) -> bool {
        let body: &[Key] = match self.keys.first() {
            Some(Key::Sub) => &self.keys[1..],
            _ => &self.keys,
        };
        body.iter().all(|k| k.is_number_part())
    }

    /// The value, ignoring trailing operators and closing open parentheses.
    pub fn evaluate(&self, mode: AngleMode) -> Result<f64, CalcError> {
        let mut keys = self.keys.as_slice();
        while let Some((last, rest)) = keys.split_last() {
            if last.is_binary() || last.opens() {
                keys = rest;
            } else {
                break;
            }
        }
        if keys.is_empty() {
            return Err(CalcError::BadExpression);
        }
        let mut p = Parser { keys, pos: 0, mode };
        let v = p.expr()?;
        // Anything left over is an unmatched `)`; the keypad never produces one.
        if p.pos != keys.len() {
            return Err(CalcError::BadExpression);
        }
        if v.is_nan() {
            return Err(CalcError::Domain);
        }
        if v.is_infinite() {
            return Err(CalcError::TooLarge);
        }
        Ok(v)
    }

    /// Replaces the expression with a number (after `=`, typing an operator continues from it).
    pub fn from_value(v: f64) -> Expr {
        let mut e = Expr::default();
        let text = format_plain(v);
        for c in text.chars() {
            match c {
                '-' => e.keys.push(Key::Sub),
                '.' => e.keys.push(Key::Point),
                d if d.is_ascii_digit() => e.keys.push(Key::Digit(d as u8 - b'0')),
                _ => {}
            }
        }
        e
    }
}

struct Parser<'a> {
    keys: &'a [Key],
    pos: usize,
    mode: AngleMode,
}

impl Parser<'_> {
    fn peek(&self) -> Option<Key> {
        self.keys.get(self.pos).copied()
    }

    fn expr(&mut self) -> Result<f64, CalcError> {
        let mut v = self.term()?;
        while let Some(k @ (Key::Add | Key::Sub)) = self.peek() {
            self.pos += 1;
            let rhs = self.term()?;
            v = if k == Key::Add { v + rhs } else { v - rhs };
        }
        Ok(v)
    }

    fn term(&mut self) -> Result<f64, CalcError> {
        let mut v = self.unary()?;
        loop {
            match self.peek() {
                Some(k @ (Key::Mul | Key::Div)) => {
                    self.pos += 1;
                    let rhs = self.unary()?;
                    if k == Key::Mul {
                        v *= rhs;
                    } else if rhs == 0.0 {
                        return Err(CalcError::DivideByZero);
                    } else {
                        v /= rhs;
                    }
                }
                // Implicit multiplication: "2π", "3(4)", "2√9", "5sin(30)", "50%28".
                Some(
                    Key::Digit(_)
                    | Key::Point
                    | Key::Pi
                    | Key::E
                    | Key::LParen
                    | Key::Func(_)
                    | Key::Sqrt,
                ) => {
                    v *= self.unary()?;
                }
                _ => return Ok(v),
            }
        }
    }

    fn unary(&mut self) -> Result<f64, CalcError> {
        if self.peek() == Some(Key::Sub) {
            self.pos += 1;
            return Ok(-self.unary()?);
        }
        self.power()
    }

    fn power(&mut self) -> Result<f64, CalcError> {
        let base = self.postfix()?;
        if self.peek() == Some(Key::Pow) {
            self.pos += 1;
            let exp = self.unary()?;
            return Ok(base.powf(exp));
        }
        Ok(base)
    }

    fn postfix(&mut self) -> Result<f64, CalcError> {
        let mut v = self.primary()?;
        loop {
            match self.peek() {
                Some(Key::Factorial) => {
                    self.pos += 1;
                    v = factorial(v)?;
                }
                Some(Key::Percent) => {
                    self.pos += 1;
                    v /= 100.0;
                }
                _ => return Ok(v),
            }
        }
    }

    fn primary(&mut self) -> Result<f64, CalcError> {
        let Some(key) = self.peek() else {
            return Err(CalcError::BadExpression);
        };
        self.pos += 1;
        match key {
            Key::Digit(_) | Key::Point => {
                let start = self.pos - 1;
                while self.peek().is_some_and(|k| k.is_number_part()) {
                    self.pos += 1;
                }
                let text: String = self.keys[start..self.pos]
                    .iter()
                    .map(|k| k.text())
                    .collect();
                if text == "." {
                    return Err(CalcError::BadExpression);
                }
                text.parse::<f64>().map_err(|_| CalcError::BadExpression)
            }
            Key::Pi => Ok(std::f64::consts::PI),
            Key::E => Ok(std::f64::consts::E),
            Key::LParen => self.group(),
            Key::Func(f) => {
                let arg = self.group()?;
                self.apply(f, arg)
            }
            Key::Sqrt => {
                let v = self.unary_operand()?;
                if v < 0.0 {
                    Err(CalcError::Domain)
                } else {
                    Ok(v.sqrt())
                }
            }
            _ => Err(CalcError::BadExpression),
        }
    }

    /// The operand of √: a postfixed primary, or a negated one (`√−4` is a domain error).
    fn unary_operand(&mut self) -> Result<f64, CalcError> {
        if self.peek() == Some(Key::Sub) {
            self.pos += 1;
            return Ok(-self.unary_operand()?);
        }
        self.postfix()
    }

    /// The inside of a parenthesis already opened; the closing `)` may be missing at the end.
    fn group(&mut self) -> Result<f64, CalcError> {
        let v = self.expr()?;
        match self.peek() {
            Some(Key::RParen) => {
                self.pos += 1;
                Ok(v)
            }
            None => Ok(v),
            Some(_) => Err(CalcError::BadExpression),
        }
    }

    fn apply(&self, f: Func, x: f64) -> Result<f64, CalcError> {
        let to_rad = |x: f64| match self.mode {
            AngleMode::Degrees => x.to_radians(),
            AngleMode::Radians => x,
        };
        let from_rad = |x: f64| match self.mode {
            AngleMode::Degrees => x.to_degrees(),
            AngleMode::Radians => x,
        };
        let v = match f {
            Func::Sin => exact_trig(to_rad(x).sin()),
            Func::Cos => exact_trig(to_rad(x).cos()),
            Func::Tan => {
                let c = exact_trig(to_rad(x).cos());
                if c == 0.0 {
                    return Err(CalcError::Domain);
                }
                exact_trig(to_rad(x).sin()) / c
            }
            Func::Asin | Func::Acos if !(-1.0..=1.0).contains(&x) => return Err(CalcError::Domain),
            Func::Asin => from_rad(x.asin()),
            Func::Acos => from_rad(x.acos()),
            Func::Atan => from_rad(x.atan()),
            Func::Ln | Func::Log if x <= 0.0 => return Err(CalcError::Domain),
            Func::Ln => x.ln(),
            Func::Log => x.log10(),
            Func::Exp => x.exp(),
            Func::TenPow => 10f64.powf(x),
        };
        Ok(v)
    }
}

/// Trig results within rounding noise of 0, ±½ or ±1 are those exact values (cos 90° is 0).
fn exact_trig(v: f64) -> f64 {
    for exact in [0.0, 0.5, -0.5, 1.0, -1.0] {
        if (v - exact).abs() < 1e-12 {
            return exact;
        }
    }
    v
}

fn factorial(v: f64) -> Result<f64, CalcError> {
    if v < 0.0 || v.fract() != 0.0 {
        return Err(CalcError::Domain);
    }
    if v > 170.0 {
        return Err(CalcError::TooLarge);
    }
    Ok((1..=v as u64).fold(1.0, |acc, n| acc * n as f64))
}

/// Significant digits the display shows.
const DIGITS: usize = 12;

/// A value as the result views show it: up to 12 significant digits, trailing zeros dropped,
/// `E` notation for very large or small magnitudes, and the minus sign `−`.
pub fn format_result(v: f64) -> String {
    format_plain(v).replace('-', "−")
}

/// Like [`format_result`] with an ASCII minus (for re-reading the value as keys).
fn format_plain(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return "0".into();
    }
    let abs = v.abs();
    if !(1e-9..1e12).contains(&abs) {
        let s = format!("{:.*e}", DIGITS - 1, v);
        let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
        return format!("{}E{}", trim_zeros(mantissa), exp);
    }
    let int_digits = abs.log10().floor() as i32 + 1;
    let decimals = (DIGITS as i32 - int_digits).max(0) as usize;
    let s = format!("{:.*}", decimals, v);
    let s = trim_zeros(&s);
    if s == "-0" {
        "0".into()
    } else {
        s
    }
}

fn trim_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Types a formula written with the display's symbols (`c` is cos, `s` sin, `l` ln, `g` log,
    /// `r` √, `p` π, `(`/`)` the parenthesis keys).
    fn typed(s: &str) -> Expr {
        let mut e = Expr::default();
        type_into(&mut e, s);
        e
    }

    fn type_into(e: &mut Expr, s: &str) {
        for c in s.chars() {
            let key = match c {
                '0'..='9' => Key::Digit(c as u8 - b'0'),
                '.' => Key::Point,
                '+' => Key::Add,
                '−' | '-' => Key::Sub,
                '×' => Key::Mul,
                '÷' => Key::Div,
                '^' => Key::Pow,
                '%' => Key::Percent,
                '!' => Key::Factorial,
                'r' | '√' => Key::Sqrt,
                's' => Key::Func(Func::Sin),
                'c' => Key::Func(Func::Cos),
                't' => Key::Func(Func::Tan),
                'l' => Key::Func(Func::Ln),
                'g' => Key::Func(Func::Log),
                'p' | 'π' => Key::Pi,
                'e' => Key::E,
                '(' => Key::LParen,
                ')' => Key::RParen,
                other => panic!("test formula has unknown key {other}"),
            };
            e.push(key);
        }
    }

    #[test]
    fn formulas_and_values_match_google_calculator() {
        let cases: &[(&str, AngleMode, &str, &str)] = &[
            ("2+24÷3", AngleMode::Radians, "2+24÷3", "10"),
            ("1+1", AngleMode::Radians, "1+1", "2"),
            ("3×5", AngleMode::Radians, "3×5", "15"),
            ("17×23", AngleMode::Radians, "17×23", "391"),
            ("6!", AngleMode::Radians, "6!", "720"),
            ("√25", AngleMode::Radians, "√25", "5"),
            ("50%28", AngleMode::Radians, "50%28", "14"),
            ("5!÷(2!×3!)", AngleMode::Radians, "5!÷(2!×3!)", "10"),
            ("10!÷(2!×8!)", AngleMode::Radians, "10!÷(2!×8!)", "45"),
            ("45×π÷180", AngleMode::Radians, "45×π÷180", "0.785398163397"),
            ("c60", AngleMode::Degrees, "cos(60", "0.5"),
            ("c180", AngleMode::Degrees, "cos(180", "−1"),
            ("c90)", AngleMode::Degrees, "cos(90)", "0"),
            ("l1234", AngleMode::Radians, "ln(1234", "7.11801620447"),
            ("g1000", AngleMode::Radians, "log(1000", "3"),
            (
                "2×4×5÷(4+5)",
                AngleMode::Radians,
                "2×4×5÷(4+5)",
                "4.44444444444",
            ),
            (
                "(3×4×5)^(1÷3)",
                AngleMode::Radians,
                "(3×4×5)^(1÷3)",
                "3.91486764117",
            ),
            ("2^3^2", AngleMode::Radians, "2^3^2", "512"),
            ("−3+1", AngleMode::Radians, "−3+1", "−2"),
            ("2×−3", AngleMode::Radians, "2×−3", "−6"),
            ("2π", AngleMode::Radians, "2π", "6.28318530718"),
            ("0.1+0.2", AngleMode::Radians, "0.1+0.2", "0.3"),
            ("1÷3", AngleMode::Radians, "1÷3", "0.333333333333"),
            ("10^20", AngleMode::Radians, "10^20", "1E20"),
            ("0+1+1+2+3", AngleMode::Radians, "0+1+1+2+3", "7"),
        ];
        for (keys, mode, formula, value) in cases {
            let e = typed(keys);
            assert_eq!(e.formula(), *formula, "formula of {keys}");
            let v = e
                .evaluate(*mode)
                .unwrap_or_else(|err| panic!("{keys}: {err}"));
            assert_eq!(format_result(v), *value, "value of {keys}");
        }
    }

    #[test]
    fn errors_are_worded_like_the_app() {
        let cases: &[(&str, &str)] = &[
            ("5÷0", "Can't divide by 0"),
            ("√−4", "Domain error"),
            ("l0", "Domain error"),
            ("200!", "Value too large"),
            ("3.5!", "Domain error"),
        ];
        for (keys, msg) in cases {
            let err = typed(keys).evaluate(AngleMode::Radians).unwrap_err();
            assert_eq!(err.to_string(), *msg, "{keys}");
        }
        assert_eq!(
            Expr::default().evaluate(AngleMode::Radians),
            Err(CalcError::BadExpression)
        );
    }

    #[test]
    fn keypad_rules_keep_the_formula_well_formed() {
        // A second operator replaces the first; × then − negates.
        assert_eq!(typed("5+×3").formula(), "5×3");
        assert_eq!(typed("5×−3").formula(), "5×−3");
        // Leading × is ignored, leading − is a sign.
        assert_eq!(typed("×2").formula(), "2");
        assert_eq!(typed("−2").formula(), "−2");
        // One decimal point per number; ) needs an open (.
        assert_eq!(typed("1.2.3").formula(), "1.23");
        assert_eq!(typed("2)").formula(), "2");
        // Trailing operators and open parentheses do not stop evaluation.
        assert_eq!(typed("7+").evaluate(AngleMode::Radians), Ok(7.0));
        assert_eq!(typed("(2+3").evaluate(AngleMode::Radians), Ok(5.0));
        assert!(typed("12").is_plain_number());
        assert!(!typed("1+2").is_plain_number());
    }

    #[test]
    fn paren_key_opens_or_closes() {
        let mut e = typed("5!÷");
        e.push_paren();
        type_into(&mut e, "2!×3!");
        e.push_paren();
        assert_eq!(e.formula(), "5!÷(2!×3!)");
        assert_eq!(e.evaluate(AngleMode::Radians), Ok(10.0));
    }

    #[test]
    fn results_continue_as_keys() {
        let e = Expr::from_value(-2.5);
        assert_eq!(e.formula(), "−2.5");
        assert_eq!(format_result(1234567.0), "1234567");
        assert_eq!(format_result(1e-12), "1E−12");
    }
}
