//! Pixel Launcher (com.google.android.apps.nexuslauncher).

use crate::sim::app::{App, AppInfo, UiEvent};
use crate::sim::system::System;
use crate::sim::view::{class, View};

pub const PACKAGE: &str = "com.google.android.apps.nexuslauncher";

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        labels: &[("en", "Pixel Launcher")],
        launch_activity: "com.google.android.apps.nexuslauncher.NexusLauncherActivity",
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
        "com.google.android.apps.nexuslauncher.NexusLauncherActivity".to_string()
    }

    fn render(&self, sys: &System) -> View {
        View::new(class::FRAME_LAYOUT, sys.metrics.content)
    }

    fn handle(&mut self, _event: &UiEvent, _sys: &mut System) -> bool {
        false
    }
}
