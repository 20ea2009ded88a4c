//! Calculator (com.google.android.calculator): Google Calculator's keypad (AC, ( ), %, digits,
//! operators, ⌫, =) with the collapsible advanced row (√ π ^ !, then DEG/RAD, sin cos tan, INV, e,
//! ln, log), the formula view, a live result preview and the final result after `=`.
//!
//! Resource ids are Google Calculator's (`formula`, `result_preview`, `result_final`, `digit_0`…,
//! `op_add`, `clr`, `del`, `eq`, …) so task checks such as B-MoCA's `id/formula` text work here as
//! on a phone. The expression itself lives in [`expr`].

mod expr;

use expr::{AngleMode, CalcError, Expr, Func, Key};

use super::widgets::{columns, columns_vertical, rid, Rows};
use crate::app::{App, AppInfo, UiEvent};
use crate::locale;
use crate::system::System;
use crate::view::{class, Role, Style, View};
use droidmcp_geom::Bounds;

pub const PACKAGE: &str = "com.google.android.calculator";
pub const ACTIVITY: &str = "com.android.calculator2.Calculator";

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: ACTIVITY,
        create: |_| Box::new(Calculator::default()),
        install: |_| {},
        on_home_screen: true,
    }
}

/// What the result line shows.
#[derive(Debug, Clone, PartialEq)]
enum Shown {
    /// Editing: the preview follows the formula.
    Editing,
    /// `=` was pressed and gave this value.
    Final(f64),
    /// `=` was pressed and failed.
    Error(CalcError),
}

#[derive(Debug, Clone)]
struct Calculator {
    expr: Expr,
    shown: Shown,
    mode: AngleMode,
    inverse: bool,
    advanced_open: bool,
}

impl Default for Calculator {
    fn default() -> Self {
        Calculator {
            expr: Expr::default(),
            shown: Shown::Editing,
            mode: AngleMode::Radians,
            inverse: false,
            advanced_open: false,
        }
    }
}

/// One keypad button: resource id name (also the event tag), label and the string resource of
/// its content-desc (empty for digits, which speak for themselves).
struct Pad {
    id: &'static str,
    text: &'static str,
    desc: &'static str,
}

const fn pad(id: &'static str, text: &'static str, desc: &'static str) -> Pad {
    Pad { id, text, desc }
}

const MAIN_PAD: [[Pad; 4]; 5] = [
    [
        pad("clr", "AC", "desc_clr"),
        pad("parens", "( )", "desc_parens"),
        pad("op_pct", "%", "desc_op_pct"),
        pad("op_div", "÷", "desc_op_div"),
    ],
    [
        pad("digit_7", "7", ""),
        pad("digit_8", "8", ""),
        pad("digit_9", "9", ""),
        pad("op_mul", "×", "desc_op_mul"),
    ],
    [
        pad("digit_4", "4", ""),
        pad("digit_5", "5", ""),
        pad("digit_6", "6", ""),
        pad("op_sub", "−", "desc_op_sub"),
    ],
    [
        pad("digit_1", "1", ""),
        pad("digit_2", "2", ""),
        pad("digit_3", "3", ""),
        pad("op_add", "+", "desc_op_add"),
    ],
    [
        pad("digit_0", "0", ""),
        pad("dec_point", ".", "desc_dec_point"),
        pad("del", "⌫", "desc_del"),
        pad("eq", "=", "desc_eq"),
    ],
];

const ADVANCED_FIRST_ROW: [Pad; 4] = [
    pad("op_sqrt", "√", "desc_op_sqrt"),
    pad("const_pi", "π", "desc_const_pi"),
    pad("op_pow", "^", "desc_op_pow"),
    pad("op_fact", "!", "desc_op_fact"),
];

/// Numbers as the Calculator shows them in the phone's locale, on the keypad and in the display
/// alike (AOSP Calculator's `KeyMaps` localizes both): the locale's digits and, with non-Latin
/// digits, their decimal separator (ar-EG: ٢٫٥). Latin-digit locales keep `.`, which the
/// formula checks of B-MoCA's calculator tasks compare against.
fn localized(sys: &System, text: &str) -> String {
    let symbols = locale::numbers::symbols(&sys.locale);
    if symbols.zero == '0' {
        return text.to_string();
    }
    locale::localize_digits(text, &sys.locale).replace('.', symbols.decimal)
}

/// The Calculator's string resource `name` in the phone's locale.
fn tr<'a>(sys: &System, name: &'a str) -> &'a str {
    locale::string(&sys.locale, PACKAGE, name)
}

impl Calculator {
    /// The key a button id types, given the INV state.
    fn key_for(&self, id: &str) -> Option<Key> {
        if let Some(d) = id.strip_prefix("digit_") {
            return d.parse::<u8>().ok().filter(|d| *d <= 9).map(Key::Digit);
        }
        let inv = self.inverse;
        Some(match id {
            "dec_point" => Key::Point,
            "op_add" => Key::Add,
            "op_sub" => Key::Sub,
            "op_mul" => Key::Mul,
            "op_div" => Key::Div,
            "op_pow" => Key::Pow,
            "op_pct" => Key::Percent,
            "op_fact" => Key::Factorial,
            "op_sqrt" => Key::Sqrt,
            "const_pi" => Key::Pi,
            "const_e" => Key::E,
            "lparen" => Key::LParen,
            "rparen" => Key::RParen,
            "fun_sin" => Key::Func(if inv { Func::Asin } else { Func::Sin }),
            "fun_cos" => Key::Func(if inv { Func::Acos } else { Func::Cos }),
            "fun_tan" => Key::Func(if inv { Func::Atan } else { Func::Tan }),
            "fun_ln" => Key::Func(if inv { Func::Exp } else { Func::Ln }),
            "fun_log" => Key::Func(if inv { Func::TenPow } else { Func::Log }),
            _ => return None,
        })
    }

    /// After `=`, a new number starts over while an operator continues from the result.
    fn leave_result(&mut self, continues_value: bool) {
        match self.shown {
            Shown::Final(v) => {
                self.expr = if continues_value {
                    Expr::from_value(v)
                } else {
                    Expr::default()
                };
            }
            Shown::Error(_) | Shown::Editing => {}
        }
        self.shown = Shown::Editing;
    }

    fn press(&mut self, id: &str) -> bool {
        match id {
            "clr" => {
                self.expr = Expr::default();
                self.shown = Shown::Editing;
            }
            "del" => {
                self.shown = Shown::Editing;
                self.expr.delete_last();
            }
            "eq" => {
                if !self.expr.is_plain_number() && matches!(self.shown, Shown::Editing) {
                    self.shown = match self.expr.evaluate(self.mode) {
                        Ok(v) => Shown::Final(v),
                        Err(e) => Shown::Error(e),
                    };
                }
            }
            "parens" => {
                self.leave_result(false);
                self.expr.push_paren();
            }
            "toggle_mode" => {
                self.mode = match self.mode {
                    AngleMode::Degrees => AngleMode::Radians,
                    AngleMode::Radians => AngleMode::Degrees,
                };
            }
            "toggle_inv" => self.inverse = !self.inverse,
            "collapse_expand" => self.advanced_open = !self.advanced_open,
            other => {
                let Some(key) = self.key_for(other) else {
                    return false;
                };
                let continues = matches!(
                    key,
                    Key::Add
                        | Key::Sub
                        | Key::Mul
                        | Key::Div
                        | Key::Pow
                        | Key::Percent
                        | Key::Factorial
                );
                self.leave_result(continues);
                self.expr.push(key);
            }
        }
        true
    }

    /// Text of the live preview, as Google Calculator shows it: the value once an operator stands
    /// before the trailing operand (`2+3` previews 5, `2+` and `2×(` nothing, a bare number nothing).
    fn preview(&self) -> String {
        if self.expr.is_plain_number() || !self.expr.ends_with_operand() {
            return String::new();
        }
        self.expr
            .evaluate(self.mode)
            .map(expr::format_result)
            .unwrap_or_default()
    }

    fn button(&self, sys: &System, b: Bounds, p: &Pad, tone: Role) -> View {
        let m = &sys.metrics;
        let text = match p.id {
            "fun_sin" if self.inverse => "sin⁻¹",
            "fun_cos" if self.inverse => "cos⁻¹",
            "fun_tan" if self.inverse => "tan⁻¹",
            "fun_ln" if self.inverse => "eˣ",
            "fun_log" if self.inverse => "10ˣ",
            _ => p.text,
        };
        let cell = Bounds::new(
            b.left + m.dp(4.0),
            b.top + m.dp(4.0),
            b.right - m.dp(4.0),
            b.bottom - m.dp(4.0),
        );
        // ⌫ is an icon button; the others are text buttons.
        let (view_class, text, icon) = if p.id == "del" {
            (class::IMAGE_BUTTON, String::new(), Some("desc_del"))
        } else if p.id.starts_with("digit_") || p.id == "dec_point" {
            (class::BUTTON, localized(sys, text), None)
        } else {
            (class::BUTTON, text.to_string(), None)
        };
        View::new(view_class, cell)
            .id(rid(PACKAGE, p.id))
            .text(text)
            .desc(if p.desc.is_empty() {
                ""
            } else {
                tr(sys, p.desc)
            })
            .on_click(p.id)
            .style(Style {
                background_role: Some(tone),
                text_role: (tone == Role::Accent).then_some(Role::OnAccent),
                corner_radius: cell.height().min(cell.width()) / 2,
                center_text: true,
                text_size_sp: Some(if p.id.starts_with("digit_") {
                    32.0
                } else {
                    26.0
                }),
                icon,
                ..Style::default()
            })
    }

    fn advanced(&self, sys: &System, area: Bounds) -> View {
        let m = &sys.metrics;
        let mode_pad = match self.mode {
            AngleMode::Radians => pad("toggle_mode", "DEG", "desc_switch_deg"),
            AngleMode::Degrees => pad("toggle_mode", "RAD", "desc_switch_rad"),
        };
        let rows: Vec<Vec<Pad>> = if self.advanced_open {
            vec![
                ADVANCED_FIRST_ROW.into_iter().collect(),
                vec![
                    mode_pad,
                    pad("fun_sin", "sin", "desc_fun_sin"),
                    pad("fun_cos", "cos", "desc_fun_cos"),
                    pad("fun_tan", "tan", "desc_fun_tan"),
                ],
                vec![
                    pad("toggle_inv", "INV", "desc_toggle_inv"),
                    pad("const_e", "e", "desc_const_e"),
                    pad("fun_ln", "ln", "desc_fun_ln"),
                    pad("fun_log", "log", "desc_fun_log"),
                ],
            ]
        } else {
            vec![ADVANCED_FIRST_ROW.into_iter().collect()]
        };
        let tone = Role::SurfaceVariant;
        let grid = Bounds::new(area.left, area.top, area.right - m.dp(56.0), area.bottom);
        let mut view = View::new(class::LINEAR_LAYOUT, area)
            .id(rid(PACKAGE, "pad_advanced"))
            .layout_ltr();
        for (row_b, row) in columns_vertical(grid, rows.len() as i32)
            .into_iter()
            .zip(&rows)
        {
            for (b, p) in columns(row_b, 4).into_iter().zip(row) {
                let mut v = self.button(sys, b, p, tone);
                if p.id == "toggle_inv" {
                    v = v.checked(self.inverse);
                }
                view = view.child(v);
            }
        }
        let toggle_b = Bounds::new(
            grid.right,
            area.top,
            area.right,
            area.top + m.dp(56.0).min(area.height()),
        );
        view.child(
            View::new(class::IMAGE_BUTTON, toggle_b)
                .id(rid(PACKAGE, "collapse_expand"))
                .desc(tr(
                    sys,
                    if self.advanced_open {
                        "collapse"
                    } else {
                        "expand"
                    },
                ))
                .on_click("collapse_expand")
                .style(Style {
                    icon: Some(if self.advanced_open {
                        "collapse"
                    } else {
                        "expand"
                    }),
                    ..Style::default()
                }),
        )
    }
}

impl App for Calculator {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        ACTIVITY.to_string()
    }

    fn render(&self, sys: &System) -> View {
        let m = &sys.metrics;
        let area = m.content;
        let mut rows = Rows::new(area);
        let advanced_rows = if self.advanced_open { 3 } else { 1 };
        let pad_h = (area.height() * 55 / 100).max(m.dp(300.0));
        let advanced_h = m.dp(52.0) * advanced_rows;
        let display_h = (area.height() - pad_h - advanced_h).max(m.dp(120.0));
        let display = rows.take(display_h);

        let inner = Bounds::new(
            display.left + m.dp(24.0),
            display.top,
            display.right - m.dp(24.0),
            display.bottom,
        );
        let mut drows = Rows::new(inner);
        drows.take(m.dp(8.0));
        let indicator = drows.take(m.sp(20.0));
        let mode_text = match self.mode {
            AngleMode::Degrees => "DEG",
            AngleMode::Radians => "RAD",
        };
        // After `=` the formula gives way to the result, which moves up into its place.
        let formula_text = match self.shown {
            Shown::Final(_) => String::new(),
            _ => localized(sys, &self.expr.formula()),
        };
        let final_state = !matches!(self.shown, Shown::Editing);
        let formula_b = drows.take(m.sp(if final_state { 40.0 } else { 64.0 }));
        let result_b = drows.take(m.sp(if final_state { 72.0 } else { 44.0 }));
        let (result_id, result_text, result_color) = match &self.shown {
            Shown::Editing => (
                "result_preview",
                localized(sys, &self.preview()),
                Role::Secondary,
            ),
            Shown::Final(v) => (
                "result_final",
                localized(sys, &expr::format_result(*v)),
                Role::Primary,
            ),
            Shown::Error(e) => ("result_final", e.to_string(), Role::Danger),
        };
        let display_view = View::new(class::LINEAR_LAYOUT, display)
            .id(rid(PACKAGE, "display"))
            .child(
                View::new(class::TEXT_VIEW, indicator)
                    .id(rid(PACKAGE, "deg_rad"))
                    .text(mode_text)
                    .desc(tr(
                        sys,
                        match self.mode {
                            AngleMode::Degrees => "desc_deg_mode",
                            AngleMode::Radians => "desc_rad_mode",
                        },
                    ))
                    .style(Style {
                        text_size_sp: Some(14.0),
                        ..Style::default()
                    }),
            )
            .child(
                View::new(class::TEXT_VIEW, formula_b)
                    .id(rid(PACKAGE, "formula"))
                    .text(formula_text)
                    .long_clickable()
                    .style(Style {
                        text_size_sp: Some(if final_state { 28.0 } else { 48.0 }),
                        ..Style::default()
                    }),
            )
            .child(
                View::new(class::TEXT_VIEW, result_b)
                    .id(rid(PACKAGE, result_id))
                    .text(result_text)
                    .selectable("result")
                    .style(Style {
                        text_size_sp: Some(if final_state { 56.0 } else { 32.0 }),
                        text_role: Some(result_color),
                        ..Style::default()
                    }),
            );

        let advanced_b = rows.take(advanced_h);
        let pad_b = rows.rest();
        // The keypad keeps 7 8 9 from the left in Arabic and Urdu, as the real layout forces
        // `layoutDirection="ltr"`.
        let mut numeric = View::new(class::LINEAR_LAYOUT, pad_b)
            .id(rid(PACKAGE, "pad_numeric"))
            .layout_ltr();
        for (row_b, row) in columns_vertical(pad_b, 5).into_iter().zip(&MAIN_PAD) {
            for (b, p) in columns(row_b, 4).into_iter().zip(row) {
                let tone = match p.id {
                    "eq" | "clr" => Role::Accent,
                    id if id.starts_with("digit_") || id == "dec_point" || id == "del" => {
                        Role::Surface
                    }
                    _ => Role::SurfaceVariant,
                };
                numeric = numeric.child(self.button(sys, b, p, tone));
            }
        }
        View::new(class::FRAME_LAYOUT, area)
            .child(display_view)
            .child(self.advanced(sys, advanced_b))
            .child(numeric)
    }

    fn handle(&mut self, event: &UiEvent, _sys: &mut System) -> bool {
        match event {
            UiEvent::Click(id) => self.press(id),
            UiEvent::LongClick(id) if id == "del" => self.press("clr"),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press_all(c: &mut Calculator, ids: &[&str]) {
        for id in ids {
            assert!(c.press(id), "{id} is a calculator key");
        }
    }

    /// Every (resource id, text) of a rendered tree.
    fn texts(v: &View, out: &mut Vec<(String, String)>) {
        out.push((v.resource_id.clone(), v.text.clone()));
        for c in &v.children {
            texts(c, out);
        }
    }

    #[test]
    fn arabic_indic_digits_on_the_keypad_and_the_display_in_arabic() {
        let mut sys = System::bare_at(chrono::NaiveDateTime::default());
        let mut c = Calculator::default();
        press_all(
            &mut c,
            &["digit_2", "dec_point", "digit_5", "op_mul", "digit_3"],
        );
        let shown = |sys: &System, c: &Calculator| {
            let mut out = Vec::new();
            texts(&c.render(sys), &mut out);
            let get = |id: &str| {
                out.iter()
                    .find(|(r, _)| r.ends_with(&format!(":id/{id}")))
                    .map(|(_, t)| t.clone())
                    .unwrap_or_else(|| panic!("no {id} in {out:?}"))
            };
            [
                get("digit_7"),
                get("dec_point"),
                get("formula"),
                get("result_preview"),
            ]
        };
        for (locale, want) in [
            ("ar-EG", ["٧", "٫", "٢٫٥×٣", "٧٫٥"]),
            ("ar-AE", ["7", ".", "2.5×3", "7.5"]),
            ("en-US", ["7", ".", "2.5×3", "7.5"]),
        ] {
            sys.locale = locale.into();
            assert_eq!(shown(&sys, &c), want, "{locale}");
        }
        // The ids stay, so goldens that tap `digit_7` work in every language.
        sys.locale = "ar-EG".into();
        press_all(&mut c, &["eq"]);
        let mut out = Vec::new();
        texts(&c.render(&sys), &mut out);
        assert!(out
            .iter()
            .any(|(r, t)| r.ends_with(":id/result_final") && t == "٧٫٥"));
    }

    #[test]
    fn equals_moves_the_value_to_the_final_result_and_operators_continue_from_it() {
        let mut c = Calculator::default();
        press_all(
            &mut c,
            &[
                "digit_2", "op_add", "digit_2", "digit_4", "op_div", "digit_3",
            ],
        );
        assert_eq!(c.expr.formula(), "2+24÷3");
        assert_eq!(c.preview(), "10");
        press_all(&mut c, &["op_sub"]);
        assert_eq!(c.preview(), "", "no preview while an operator trails");
        let mut two_plus = Calculator::default();
        press_all(&mut two_plus, &["digit_2", "op_add"]);
        assert_eq!(two_plus.preview(), "");
        press_all(&mut c, &["del"]);
        press_all(&mut c, &["eq"]);
        assert_eq!(c.shown, Shown::Final(10.0));
        press_all(&mut c, &["op_mul", "digit_2"]);
        assert_eq!(c.expr.formula(), "10×2");
        press_all(&mut c, &["eq", "digit_7"]);
        assert_eq!(c.expr.formula(), "7");
    }

    #[test]
    fn division_by_zero_shows_the_error_and_editing_continues() {
        let mut c = Calculator::default();
        press_all(&mut c, &["digit_5", "op_div", "digit_0"]);
        assert_eq!(c.preview(), "");
        press_all(&mut c, &["eq"]);
        assert_eq!(c.shown, Shown::Error(CalcError::DivideByZero));
        press_all(&mut c, &["del", "digit_5"]);
        assert_eq!(c.expr.formula(), "5÷5");
        assert_eq!(c.preview(), "1");
    }

    #[test]
    fn advanced_keys_follow_inv_and_angle_mode() {
        let mut c = Calculator::default();
        press_all(
            &mut c,
            &[
                "collapse_expand",
                "toggle_mode",
                "fun_cos",
                "digit_6",
                "digit_0",
            ],
        );
        assert_eq!(c.expr.formula(), "cos(60");
        assert_eq!(c.preview(), "0.5");
        press_all(&mut c, &["clr", "toggle_inv", "fun_sin", "digit_1"]);
        assert_eq!(c.expr.formula(), "sin⁻¹(1");
        assert_eq!(c.preview(), "90");
        assert!(!c.press("no_such_key"));
    }
}
