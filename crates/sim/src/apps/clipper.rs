//! Clipper (`ca.zgrs.clipper`, majido/clipper 1.1): the helper app AndroidWorld installs to reach the
//! clipboard over adb. Its one activity, `Main` (`launchMode="singleInstance"`), shows `main.xml`'s
//! two texts and starts the app's service; its broadcast receiver is
//! [`clipboard::clipper_receive`](crate::clipboard::clipper_receive).

use crate::app::{App, AppInfo, UiEvent};
use crate::apps::communication::{at, palette, root, text_style};
use crate::clipboard::CLIPPER_PACKAGE;
use crate::locale;
use crate::system::System;
use crate::view::{class, Style, View};

pub const PACKAGE: &str = CLIPPER_PACKAGE;
const MAIN_ACTIVITY: &str = "ca.zgrs.clipper.Main";

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: MAIN_ACTIVITY,
        create: |_| Box::new(Clipper),
        install: |_| {},
        on_home_screen: false,
    }
}

#[derive(Debug, Clone)]
struct Clipper;

impl App for Clipper {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        MAIN_ACTIVITY.to_string()
    }

    /// `main.xml`: a vertical LinearLayout with the bold large `head` and the medium `sub`.
    fn render(&self, sys: &System) -> View {
        let m = sys.metrics;
        let p = palette(sys);
        let c = m.content;
        let s = |name| locale::string(&sys.locale, PACKAGE, name);
        let head_height = m.sp(30.0) + m.dp(40.0);
        let usage = s("usage");
        let usage_lines = usage.lines().count().max(1) as i32 + 3;
        root(sys).child(
            View::new(class::LINEAR_LAYOUT, c)
                .child(
                    View::new(class::TEXT_VIEW, at(c, 0, 0, c.width(), head_height))
                        .id(format!("{PACKAGE}:id/head"))
                        .text(s("started"))
                        .style(Style {
                            bold: true,
                            ..text_style(22.0, p.on_surface)
                        }),
                )
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        at(c, 0, head_height, c.width(), m.sp(24.0) * usage_lines),
                    )
                    .id(format!("{PACKAGE}:id/sub"))
                    .text(usage)
                    .style(text_style(18.0, p.on_surface)),
                ),
        )
    }

    fn handle(&mut self, _event: &UiEvent, _sys: &mut System) -> bool {
        false
    }
}
