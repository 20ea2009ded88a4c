//! Calculator (com.google.android.calculator).

use crate::sim::app::{App, AppInfo, UiEvent};
use crate::sim::system::System;
use crate::sim::view::{class, View};

pub const PACKAGE: &str = "com.google.android.calculator";

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        labels: &[("en", "Calculator")],
        launch_activity: "com.android.calculator2.Calculator",
        create: |_| Box::new(Screen),
        install: |_| {},
        on_home_screen: true,
    }
}

struct Screen;

impl App for Screen {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        "com.android.calculator2.Calculator".to_string()
    }

    fn render(&self, sys: &System) -> View {
        View::new(class::FRAME_LAYOUT, sys.metrics.content)
    }

    fn handle(&mut self, _event: &UiEvent, _sys: &mut System) -> bool {
        false
    }
}
