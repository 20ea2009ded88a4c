//! Applying an environment to a running phone over its shell, the way an emulator or a real phone
//! can be changed through adb, and restoring it afterwards.
//!
//! What adb can do is done: `wm size`, `wm density`, `settings put system font_scale`,
//! `cmd uimode night`. What needs root is done when the shell is root (`id -u` is 0, as with
//! `adb root` on an emulator): the home-screen layout (Launcher3's `launcher.db`, then the launcher
//! is restarted), the wallpaper (the image in `/data/system/users/0/wallpaper` and
//! `wallpaper_info.xml`) and the locale (`persist.sys.locale`). Everything else is reported, never
//! pretended: each factor ends up [`Outcome::Applied`] or [`Outcome::NotApplied`] with the reason.

use std::sync::Arc;

use super::Environment;
use droidmcp_device::command::sh_quote;
use droidmcp_device::{Shell, ShellError};
use droidmcp_sim::apps::launcher::{self, home};

/// What happened to one factor.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Applied,
    /// Already as the environment wants it.
    Unchanged,
    NotApplied(String),
}

/// The result of applying an environment: per factor, and the commands that undo it.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    pub env: String,
    pub factors: Vec<(&'static str, Outcome)>,
    restore: Vec<Restore>,
}

#[derive(Debug, Clone, PartialEq)]
enum Restore {
    Exec(String),
    Push { path: String, data: Vec<u8> },
}

impl Applied {
    /// Factors that could not be set, with why.
    pub fn not_applied(&self) -> Vec<(&'static str, &str)> {
        self.factors
            .iter()
            .filter_map(|(f, o)| match o {
                Outcome::NotApplied(why) => Some((*f, why.as_str())),
                _ => None,
            })
            .collect()
    }

    /// One line per factor.
    pub fn describe(&self) -> String {
        self.factors
            .iter()
            .map(|(f, o)| match o {
                Outcome::Applied => format!("{f}: applied"),
                Outcome::Unchanged => format!("{f}: already so"),
                Outcome::NotApplied(why) => format!("{f}: NOT applied ({why})"),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

async fn run(shell: &dyn Shell, cmd: &str) -> Result<(bool, String), ShellError> {
    let out = shell.exec(cmd).await?;
    Ok((
        out.success(),
        format!("{}{}", out.stdout_text(), out.stderr_text())
            .trim()
            .to_string(),
    ))
}

/// Applies `env` to the phone behind `shell`. A lost device is an error; a factor the device
/// refuses is reported in the result.
pub async fn apply(shell: &dyn Shell, env: &Environment) -> Result<Applied, ShellError> {
    let mut factors = Vec::new();
    let mut restore = Vec::new();
    let root = run(shell, "id -u").await?.1 == "0";

    // Screen size and density: `wm` overrides, undone with `reset`.
    let size = format!("{}x{}", env.device.width, env.device.height);
    let (_, current) = run(shell, "wm size").await?;
    if current.lines().last().is_some_and(|l| l.ends_with(&size)) {
        factors.push(("device", Outcome::Unchanged));
    } else {
        let (ok, out) = run(shell, &format!("wm size {size}")).await?;
        factors.push((
            "device",
            if ok {
                Outcome::Applied
            } else {
                Outcome::NotApplied(out)
            },
        ));
        if ok {
            restore.push(Restore::Exec("wm size reset".into()));
        }
    }
    let (_, current) = run(shell, "wm density").await?;
    if current
        .lines()
        .last()
        .is_some_and(|l| l.ends_with(&format!(": {}", env.density)))
    {
        factors.push(("density", Outcome::Unchanged));
    } else {
        let (ok, out) = run(shell, &format!("wm density {}", env.density)).await?;
        factors.push((
            "density",
            if ok {
                Outcome::Applied
            } else {
                Outcome::NotApplied(out)
            },
        ));
        if ok {
            restore.push(Restore::Exec("wm density reset".into()));
        }
    }

    // Font scale: a system setting; restored to its old value (or deleted if it had none).
    let (_, old) = run(shell, "settings get system font_scale").await?;
    let (ok, out) = run(
        shell,
        &format!("settings put system font_scale {}", env.font_scale),
    )
    .await?;
    factors.push((
        "font_scale",
        if ok {
            Outcome::Applied
        } else {
            Outcome::NotApplied(out)
        },
    ));
    if ok {
        restore.push(Restore::Exec(if old.is_empty() || old == "null" {
            "settings delete system font_scale".into()
        } else {
            format!("settings put system font_scale {}", sh_quote(&old))
        }));
    }

    // Theme: UiModeManager's night mode.
    let (_, old) = run(shell, "cmd uimode night").await?;
    let want = if env.dark { "yes" } else { "no" };
    let (ok, out) = run(shell, &format!("cmd uimode night {want}")).await?;
    factors.push((
        "dark",
        if ok {
            Outcome::Applied
        } else {
            Outcome::NotApplied(out)
        },
    ));
    if ok {
        if let Some(was) = old.strip_prefix("Night mode: ") {
            restore.push(Restore::Exec(format!(
                "cmd uimode night {}",
                sh_quote(was.trim())
            )));
        }
    }

    let no_root = || Outcome::NotApplied("needs a root shell (adb root); this one is not".into());

    // Wallpaper: no shell command sets it on Android 14; as root, the image and its record.
    if !root {
        factors.push(("wallpaper", no_root()));
    } else {
        let image = droidmcp_sim::render::wallpaper_image(
            env.wallpaper,
            env.device.width as u32,
            env.device.height as u32,
            false,
        );
        let mut png = Vec::new();
        let pushed = image::DynamicImage::ImageRgba8(image)
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .is_ok();
        let info = home::wallpaper_info_xml(env.wallpaper, env.device.width, env.device.height);
        for path in [WALLPAPER, home::WALLPAPER_INFO] {
            if let Ok(old) = shell.pull(path).await {
                restore.push(Restore::Push {
                    path: path.into(),
                    data: old,
                });
            } else {
                restore.push(Restore::Exec(format!("rm -f {}", sh_quote(path))));
            }
        }
        let outcome = if !pushed {
            Outcome::NotApplied("could not encode the image".into())
        } else {
            shell.push(WALLPAPER, &png, 0o600).await?;
            shell
                .push(home::WALLPAPER_INFO, info.as_bytes(), 0o600)
                .await?;
            Outcome::Applied
        };
        factors.push(("wallpaper", outcome));
    }

    // Home screen: Launcher3's database, then the launcher restarts and reads it.
    match (&env.home, root) {
        (None, _) => factors.push(("home", Outcome::Unchanged)),
        (Some(_), false) => factors.push(("home", no_root())),
        (Some(layout), true) => {
            let layout = layout.to_home_screen();
            let db = launcher_db(&layout);
            for path in [home::DB_PATH, home::PREFS_PATH] {
                match shell.pull(path).await {
                    Ok(old) => restore.push(Restore::Push {
                        path: path.into(),
                        data: old,
                    }),
                    Err(_) => restore.push(Restore::Exec(format!("rm -f {}", sh_quote(path)))),
                }
            }
            let outcome = match db {
                Ok(bytes) => {
                    shell.push(home::DB_PATH, &bytes, 0o660).await?;
                    shell
                        .push(home::PREFS_PATH, home::prefs_xml(&layout).as_bytes(), 0o660)
                        .await?;
                    run(shell, &format!("am force-stop {}", launcher::PACKAGE)).await?;
                    Outcome::Applied
                }
                Err(e) => Outcome::NotApplied(format!("could not build launcher.db: {e}")),
            };
            factors.push(("home", outcome));
            restore.push(Restore::Exec(format!(
                "am force-stop {}",
                launcher::PACKAGE
            )));
        }
    }

    // Locale: the system locale property, as root; Android reads it when the framework starts.
    let (_, old) = run(shell, "getprop persist.sys.locale").await?;
    if old == env.locale {
        factors.push(("locale", Outcome::Unchanged));
    } else if !root {
        // Without root Android offers only per-app locales (`cmd locale set-app-locales`, 13+,
        // for apps that declare their languages); the system locale is a persisted property.
        factors.push((
            "locale",
            Outcome::NotApplied(
                "needs a root shell (adb root): the system locale is persist.sys.locale".into(),
            ),
        ));
    } else {
        let (ok, out) = run(
            shell,
            &format!("setprop persist.sys.locale {}", sh_quote(&env.locale)),
        )
        .await?;
        let (_, now) = run(shell, "getprop persist.sys.locale").await?;
        if ok && now == env.locale {
            factors.push(("locale", Outcome::Applied));
            restore.push(Restore::Exec(format!(
                "setprop persist.sys.locale {}",
                sh_quote(&old)
            )));
        } else {
            factors.push((
                "locale",
                Outcome::NotApplied(if out.is_empty() {
                    format!("persist.sys.locale stayed {now:?}")
                } else {
                    out
                }),
            ));
        }
    }
    Ok(Applied {
        env: env.name.clone(),
        factors,
        restore,
    })
}

/// Undoes what [`apply`] did, last change first.
pub async fn restore(shell: &dyn Shell, applied: &Applied) -> Result<(), ShellError> {
    for r in applied.restore.iter().rev() {
        match r {
            Restore::Exec(cmd) => {
                shell.exec(cmd).await?;
            }
            Restore::Push { path, data } => shell.push(path, data, 0o660).await?,
        }
    }
    Ok(())
}

/// Where the wallpaper service keeps the image.
const WALLPAPER: &str = "/data/system/users/0/wallpaper";

/// A `launcher.db` file with the layout's favorites.
fn launcher_db(layout: &home::HomeScreen) -> Result<Vec<u8>, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let path = dir.path().join("launcher.db");
    let db = rusqlite::Connection::open(&path).map_err(|e| e.to_string())?;
    home::write_db(&db, layout).map_err(|e| e.to_string())?;
    drop(db);
    std::fs::read(&path).map_err(|e| e.to_string())
}

/// A shell with an environment applied: episodes on it record the environment.
pub struct InEnvironment {
    inner: Arc<dyn Shell>,
    env: String,
}

impl InEnvironment {
    pub fn new(inner: Arc<dyn Shell>, applied: &Applied) -> InEnvironment {
        InEnvironment {
            inner,
            env: applied.env.clone(),
        }
    }
}

#[async_trait::async_trait]
impl Shell for InEnvironment {
    fn serial(&self) -> &str {
        self.inner.serial()
    }

    fn device_key(&self) -> String {
        self.inner.device_key()
    }

    fn environment(&self) -> Option<String> {
        Some(self.env.clone())
    }

    async fn exec(&self, command_line: &str) -> Result<droidmcp_device::ShellOutput, ShellError> {
        self.inner.exec(command_line).await
    }

    async fn pull(&self, path: &str) -> Result<Vec<u8>, ShellError> {
        self.inner.pull(path).await
    }

    async fn push(&self, path: &str, data: &[u8], mode: u32) -> Result<(), ShellError> {
        self.inner.push(path, data, mode).await
    }

    async fn console(&self, line: &str) -> Result<String, ShellError> {
        self.inner.console(line).await
    }
}
