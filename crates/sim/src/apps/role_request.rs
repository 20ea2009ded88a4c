//! PermissionController's role request dialog (`RequestRoleActivity` with `RequestRoleFragment`,
//! packages/modules/Permission, Android 14), which an app starts for a result with
//! `RoleManager.createRequestRoleIntent`. It runs in the requesting app's task, so the app carries
//! it as state and shows it on top of its own screen.
//!
//! What it does follows the fragment: a framework `AlertDialog` with the requester's title
//! (`role_sms_request_title`), a single-choice list of the qualifying apps with the current holder
//! checked and subtitled "Current default", the checked other app subtitled with the role's
//! request description, "Don't ask again" once the user has cancelled before, and "Set as
//! default" (disabled while the holder is checked) / "Cancel". The ids of the fragment's own
//! layouts (`request_role_title.xml`, `request_role_view.xml`, `request_role_item.xml`) are from
//! the source; the `android:id/…` panels around them are `AlertDialog`'s layout as remembered, not
//! read from a source, as is the package name Google's builds give PermissionController.

use crate::app::UiEvent;
use crate::apps::communication::{at, filled, palette, text_style};
use crate::apps::widgets::DialogResult;
use crate::locale;
use crate::roles;
use crate::system::{pid, System};
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

/// PermissionController as Google's builds name it.
pub const PACKAGE: &str = "com.google.android.permissioncontroller";
pub const ACTIVITY: &str = "com.android.permissioncontroller.role.ui.RequestRoleActivity";
const TAG: &str = "RequestRoleFragment";

const SET_AS_DEFAULT: &str = "role:set_as_default";
const CANCEL: &str = "role:cancel";
const DONT_ASK_AGAIN: &str = "role:dont_ask_again";
const ITEM_PREFIX: &str = "role:item:";

fn tr(sys: &System, name: &'static str) -> &'static str {
    locale::string(&sys.locale, PACKAGE, name)
}

fn id(name: &str) -> String {
    format!("{PACKAGE}:id/{name}")
}

/// The dialog's state: which item the user checked, and the "Don't ask again" box.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoleRequest {
    role: &'static str,
    requester: &'static str,
    /// The package the user tapped; until then the current holder is checked.
    user_checked: Option<&'static str>,
    /// Shown once the requester was cancelled before (`UserDeniedManager.isDeniedOnce`).
    dont_ask_again_shown: bool,
    dont_ask_again: bool,
}

/// What `RequestRoleActivity` does with a request before any dialog shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// The requester already holds the role: RESULT_OK at once.
    AlreadyHolder,
    /// The user chose "Don't ask again" before: RESULT_CANCELED at once.
    DeniedAlways,
    Dialog(RoleRequest),
}

impl RoleRequest {
    /// `RequestRoleActivity.onCreate`'s checks, then the dialog.
    pub fn start(sys: &mut System, role: &'static str, requester: &'static str) -> Start {
        if sys.roles.holds(role, requester) {
            sys.log(
                pid::PERMISSION_CONTROLLER,
                'I',
                "RequestRoleActivity",
                format!("Application is already a role holder, role: {role}, package: {requester}"),
            );
            return Start::AlreadyHolder;
        }
        if sys.roles.denied(role, requester) == Some(roles::Denied::Always) {
            sys.log(
                pid::PERMISSION_CONTROLLER,
                'W',
                "RequestRoleActivity",
                format!(
                    "Application is denied always for role, role: {role}, package: {requester}"
                ),
            );
            return Start::DeniedAlways;
        }
        Start::Dialog(RoleRequest {
            role,
            requester,
            user_checked: None,
            dont_ask_again_shown: sys.roles.denied(role, requester).is_some(),
            dont_ask_again: false,
        })
    }

    /// The checked item: the user's choice, else the current holder.
    fn checked(&self, sys: &System) -> Option<&'static str> {
        self.user_checked.or_else(|| {
            roles::qualifying(self.role)
                .iter()
                .copied()
                .find(|p| sys.roles.holds(self.role, p))
        })
    }

    /// "Set as default" is enabled unless the current holder is checked (or nothing is), except
    /// with "Don't ask again" ticked, when it confirms the refusal.
    fn positive_enabled(&self, sys: &System) -> bool {
        self.dont_ask_again
            || self
                .checked(sys)
                .is_some_and(|p| !sys.roles.holds(self.role, p))
    }

    /// Taps and Back on the dialog. `Ok` means the requester now holds the role (RESULT_OK);
    /// `Cancel` that it does not (Cancel, Back, another app chosen, or "Don't ask again").
    pub fn handle(&mut self, event: &UiEvent, sys: &mut System) -> DialogResult<()> {
        let tag = match event {
            UiEvent::Back => CANCEL,
            UiEvent::Click(tag) => tag.as_str(),
            _ => return DialogResult::Pending,
        };
        if let Some(package) = tag.strip_prefix(ITEM_PREFIX) {
            // With "Don't ask again" ticked only the holder's row is enabled.
            if !self.dont_ask_again {
                self.user_checked = roles::qualifying(self.role)
                    .iter()
                    .copied()
                    .find(|p| *p == package);
            }
            return DialogResult::Pending;
        }
        match tag {
            DONT_ASK_AGAIN => {
                self.dont_ask_again = !self.dont_ask_again;
                if self.dont_ask_again {
                    self.user_checked = None;
                }
                DialogResult::Pending
            }
            CANCEL => {
                self.log(
                    sys,
                    format!(
                        "Dialog cancelled, role: {}, package: {}",
                        self.role, self.requester
                    ),
                );
                sys.roles
                    .set_denied(self.role, self.requester, roles::Denied::Once);
                DialogResult::Cancel
            }
            SET_AS_DEFAULT if self.positive_enabled(sys) => self.set_as_default(sys),
            _ => DialogResult::Pending,
        }
    }

    fn set_as_default(&mut self, sys: &mut System) -> DialogResult<()> {
        if self.dont_ask_again {
            self.log(
                sys,
                format!(
                    "Request denied with don't ask again, role: {}, package: {}",
                    self.role, self.requester
                ),
            );
            sys.roles
                .set_denied(self.role, self.requester, roles::Denied::Always);
            return DialogResult::Cancel;
        }
        let Some(package) = self.checked(sys) else {
            return DialogResult::Pending;
        };
        if roles::add_holder(sys, self.role, package, 0).is_err() {
            return DialogResult::Cancel;
        }
        if package == self.requester {
            self.log(
                sys,
                format!(
                    "Application added as a role holder, role: {}, package: {}",
                    self.role, self.requester
                ),
            );
            sys.roles.clear_denied(self.role, self.requester);
            DialogResult::Ok(())
        } else {
            self.log(
                sys,
                format!(
                    "Request denied with another application added as a role holder, role: {}, package: {}",
                    self.role, self.requester
                ),
            );
            sys.roles
                .set_denied(self.role, self.requester, roles::Denied::Once);
            DialogResult::Cancel
        }
    }

    fn log(&self, sys: &mut System, message: String) {
        sys.log(pid::PERMISSION_CONTROLLER, 'I', TAG, message);
    }

    /// The dialog window: a dimmed screen with the AlertDialog centred on it.
    pub fn render(&self, sys: &System) -> View {
        let m = sys.metrics;
        let p = palette(sys);
        let c = m.content;
        // `Utils.getAppLabel`: the app's own label resource.
        let label = |package: &str| locale::string(&sys.locale, package, "app_label");
        let apps = roles::qualifying(self.role);
        let checked = self.checked(sys);
        let item_h = m.dp(64.0);
        let title_h = m.dp(18.0 + 32.0 + 8.0) + 2 * m.sp(24.0);
        let check_h = if self.dont_ask_again_shown {
            m.dp(48.0)
        } else {
            0
        };
        let buttons_h = m.dp(64.0);
        let w = (c.width() - m.dp(48.0)).min(m.dp(560.0));
        let h = title_h + m.dp(8.0) + item_h * apps.len() as i32 + check_h + buttons_h;
        let card = Bounds::new(
            c.left + (c.width() - w) / 2,
            c.top + (c.height() - h) / 2,
            c.left + (c.width() + w) / 2,
            c.top + (c.height() + h) / 2,
        );
        let pad = m.dp(24.0);
        let title = locale::format(
            &sys.locale,
            PACKAGE,
            "role_sms_request_title",
            &[&label(self.requester)],
        );
        let top = Bounds::new(card.left, card.top, card.right, card.top + title_h);
        let title_panel = View::new(class::LINEAR_LAYOUT, top)
            .id("android:id/topPanel")
            .child(
                View::new(class::LINEAR_LAYOUT, top)
                    .child(
                        View::new(
                            class::IMAGE_VIEW,
                            at(
                                top,
                                (w - m.dp(32.0)) / 2,
                                m.dp(18.0),
                                m.dp(32.0),
                                m.dp(32.0),
                            ),
                        )
                        .id(id("icon")),
                    )
                    .child(
                        View::new(
                            class::TEXT_VIEW,
                            at(top, pad, m.dp(58.0), w - 2 * pad, 2 * m.sp(24.0)),
                        )
                        .id(id("title"))
                        .text(title)
                        .style(Style {
                            center_text: true,
                            ..text_style(24.0, p.on_surface)
                        }),
                    ),
            );
        let list_top = top.bottom + m.dp(8.0);
        let list = Bounds::new(
            card.left,
            list_top,
            card.right,
            list_top + item_h * apps.len() as i32,
        );
        let items = apps.iter().enumerate().map(|(i, package)| {
            let row = at(list, 0, item_h * i as i32, w, item_h);
            let holder = sys.roles.holds(self.role, package);
            let is_checked = checked == Some(*package);
            let subtitle = if holder {
                Some(tr(sys, "request_role_current_default"))
            } else if is_checked {
                Some(tr(sys, "role_sms_request_description"))
            } else {
                None
            };
            let text_left = pad + m.dp(32.0 + 16.0);
            let text_w = w - text_left - m.dp(64.0);
            let texts = at(row, text_left, m.dp(8.0), text_w, item_h - m.dp(16.0));
            let mut title_and_subtitle = View::new(class::LINEAR_LAYOUT, texts)
                .id(id("title_and_subtitle"))
                .child(
                    View::new(class::TEXT_VIEW, at(texts, 0, 0, text_w, m.sp(22.0)))
                        .id(id("title"))
                        .text(label(package))
                        .style(text_style(16.0, p.on_surface)),
                );
            if let Some(subtitle) = subtitle {
                title_and_subtitle = title_and_subtitle.child(
                    View::new(
                        class::TEXT_VIEW,
                        at(texts, 0, m.sp(22.0), text_w, m.sp(20.0)),
                    )
                    .id(id("subtitle"))
                    .text(subtitle)
                    .style(text_style(14.0, p.secondary_text)),
                );
            }
            let enabled = !self.dont_ask_again || holder;
            View::new(class::LINEAR_LAYOUT, row)
                .on_click(format!("{ITEM_PREFIX}{package}"))
                .checked(is_checked)
                .enabled(enabled)
                .child(
                    View::new(
                        class::IMAGE_VIEW,
                        at(row, pad, (item_h - m.dp(32.0)) / 2, m.dp(32.0), m.dp(32.0)),
                    )
                    .id(id("icon"))
                    .enabled(enabled),
                )
                .child(title_and_subtitle.enabled(enabled))
                .child(
                    View::new(
                        class::RADIO_BUTTON,
                        at(
                            row,
                            w - m.dp(56.0),
                            (item_h - m.dp(32.0)) / 2,
                            m.dp(32.0),
                            m.dp(32.0),
                        ),
                    )
                    .checked(is_checked)
                    .enabled(enabled),
                )
        });
        let mut view = View::new(
            class::LINEAR_LAYOUT,
            Bounds::new(card.left, list_top, card.right, list.bottom + check_h),
        )
        .child(
            View::new(class::LIST_VIEW, list)
                .id(id("list"))
                .children(items),
        );
        if self.dont_ask_again_shown {
            view = view.child(
                View::new(
                    class::CHECK_BOX,
                    Bounds::new(
                        card.left + pad,
                        list.bottom,
                        card.right - pad,
                        list.bottom + check_h,
                    ),
                )
                .id(id("dont_ask_again"))
                .text(tr(sys, "request_role_dont_ask_again"))
                .on_click(DONT_ASK_AGAIN)
                .checked(self.dont_ask_again)
                .style(text_style(16.0, p.on_surface)),
            );
        }
        let custom = Bounds::new(
            card.left,
            list_top - m.dp(8.0),
            card.right,
            list.bottom + check_h,
        );
        let custom_panel = View::new(class::FRAME_LAYOUT, custom)
            .id("android:id/customPanel")
            .child(
                View::new(class::FRAME_LAYOUT, custom)
                    .id("android:id/custom")
                    .child(view),
            );
        let bar = Bounds::new(card.left, card.bottom - buttons_h, card.right, card.bottom);
        let button = |right: i32, text: &str, tag: &str, rid: &str, enabled: bool| {
            let bw = m.dp(120.0);
            View::new(
                class::BUTTON,
                at(bar, right - bw, m.dp(8.0), bw, m.dp(48.0)),
            )
            .id(rid)
            .text(text)
            .on_click(tag)
            .enabled(enabled)
            .style(filled(p.surface, p.accent, m.dp(20.0)))
        };
        let buttons = View::new(class::SCROLL_VIEW, bar)
            .id("android:id/buttonPanel")
            .child(
                View::new(class::LINEAR_LAYOUT, bar)
                    .child(button(
                        w - m.dp(144.0),
                        locale::string(&sys.locale, "android", "cancel"),
                        CANCEL,
                        "android:id/button2",
                        true,
                    ))
                    .child(button(
                        w - m.dp(16.0),
                        tr(sys, "request_role_set_as_default"),
                        SET_AS_DEFAULT,
                        "android:id/button1",
                        self.positive_enabled(sys),
                    )),
            );
        View::new(class::FRAME_LAYOUT, c)
            .style(Style {
                background: Some([0, 0, 0, 96]),
                ..Style::default()
            })
            .child(
                View::new(class::LINEAR_LAYOUT, card)
                    .id("android:id/parentPanel")
                    .style(Style {
                        background: Some(p.surface),
                        corner_radius: m.dp(28.0),
                        ..Style::default()
                    })
                    .child(title_panel)
                    .child(custom_panel)
                    .child(buttons),
            )
    }
}
