//! Settings' screen layout: the homepage header with its search bar, a sub-page's collapsing app
//! bar, the main switch bar, the preference list (`com.android.settings:id/recycler_view`) and
//! alert dialogs, built with the resource ids real Settings uses.

use crate::apps::widgets;
use crate::locale;
use crate::system::System;
use crate::view::{class, Metrics, Role, Style, View};
use droidmcp_geom::Bounds;

const ID: &str = "com.android.settings:id/";

/// One preference row.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A row that opens a page or acts when tapped.
    Nav {
        tag: String,
        title: String,
        summary: String,
        icon: Option<&'static str>,
    },
    /// A switch preference: tapping the row flips it.
    Toggle {
        tag: String,
        title: String,
        summary: String,
        checked: bool,
        icon: Option<&'static str>,
    },
    /// A seek bar preference (volume, brightness).
    Slider {
        tag: String,
        title: String,
        value: i32,
        max: i32,
        icon: Option<&'static str>,
    },
    /// A section title.
    Category(String),
    /// A row that only shows information.
    Info { title: String, summary: String },
    /// The app-info header: icon, label and a caption.
    Entity {
        title: String,
        summary: String,
        icon: Option<&'static str>,
    },
    /// A row of action buttons.
    Buttons(Vec<Action>),
    /// A text field (the search box): typing sends `TextChanged` with `tag`.
    Field {
        tag: String,
        text: String,
        hint: String,
        id: String,
    },
}

/// One action button (Open, Force stop, Clear storage…).
#[derive(Debug, Clone, PartialEq)]
pub struct Action {
    pub tag: String,
    pub label: String,
    pub resource_id: String,
    pub enabled: bool,
}

impl Action {
    pub fn new(tag: &str, label: &str, resource_id: &str, enabled: bool) -> Action {
        Action {
            tag: tag.into(),
            label: label.into(),
            resource_id: resource_id.into(),
            enabled,
        }
    }
}

/// The main on/off bar at the top of Wi-Fi, Bluetooth and similar pages.
#[derive(Debug, Clone, PartialEq)]
pub struct MainSwitch {
    pub tag: String,
    pub text: String,
    pub checked: bool,
}

/// A confirmation dialog (Force stop?, Delete app data?).
#[derive(Debug, Clone, PartialEq)]
pub struct Dialog {
    pub title: String,
    pub message: String,
    pub confirm: String,
    pub cancel: String,
}

impl Dialog {
    /// A dialog with Settings' `title` and `message` strings and the framework's OK and Cancel.
    pub fn new(sys: &System, title: &'static str, message: &'static str) -> Dialog {
        let tr = |package, name| locale::string(&sys.locale, package, name).to_string();
        Dialog {
            title: tr(super::PACKAGE, title),
            message: tr(super::PACKAGE, message),
            confirm: tr("android", "ok"),
            cancel: tr("android", "cancel"),
        }
    }
}

/// Everything one page shows.
#[derive(Debug, Clone, PartialEq)]
pub struct PageView {
    /// Empty for the homepage (which shows "Settings" and the search bar instead of an app bar).
    pub title: String,
    pub main_switch: Option<MainSwitch>,
    pub items: Vec<Item>,
    /// Keys the list's scroll offset, so each page scrolls on its own.
    pub scroll_tag: String,
    /// The homepage's title, its search bar's hint and the up button's description, in the
    /// phone's language.
    pub home_title: String,
    pub search_hint: String,
    pub navigate_up: String,
}

fn sized(size_sp: f32, role: Role, bold: bool) -> Style {
    Style {
        text_size_sp: Some(size_sp),
        text_role: Some(role),
        bold,
        ..Style::default()
    }
}

/// The px height of one line of text at `sp`.
fn line(m: &Metrics, sp: f32) -> i32 {
    (m.sp(sp) as f32 * 1.35).ceil() as i32
}

/// Builds the whole content area for a page, with `dialog` on top when one is open.
pub fn build(m: &Metrics, page: &PageView, dialog: Option<&Dialog>) -> View {
    let c = m.content;
    let mut root = View::new(class::FRAME_LAYOUT, c).style(Style {
        background_role: Some(Role::Surface),
        ..Style::default()
    });
    let mut y = c.top;
    let mut header = View::new(class::LINEAR_LAYOUT, c).id(format!("{ID}app_bar"));
    if page.title.is_empty() {
        let title_h = m.dp(96.0);
        header = header.child(
            View::new(
                class::TEXT_VIEW,
                Bounds::new(
                    c.left + m.dp(24.0),
                    y + m.dp(24.0),
                    c.right - m.dp(24.0),
                    y + title_h,
                ),
            )
            .id(format!("{ID}homepage_title"))
            .text(page.home_title.clone())
            .style(sized(36.0, Role::Primary, false)),
        );
        y += title_h + m.dp(8.0);
        let bar = Bounds::new(c.left + m.dp(16.0), y, c.right - m.dp(16.0), y + m.dp(52.0));
        header = header.child(
            widgets::search_pill(m, bar, format!("{ID}search_action_bar"), |text_area| {
                View::new(class::TEXT_VIEW, text_area)
                    .id(format!("{ID}search_action_bar_title"))
                    .text(page.search_hint.clone())
                    .style(sized(16.0, Role::Secondary, false))
            })
            .on_click("search"),
        );
        y = bar.bottom + m.dp(16.0);
    } else {
        let bar_h = m.dp(64.0);
        let up = m.dp(48.0);
        let bar = Bounds::new(c.left, y, c.right, y + bar_h);
        let title_h = m.dp(88.0);
        header = header.child(
            View::new(
                class::FRAME_LAYOUT,
                Bounds::new(c.left, y, c.right, y + bar_h + title_h),
            )
            .id(format!("{ID}collapsing_toolbar"))
            .desc(page.title.clone())
            .child(
                View::new(class::VIEW_GROUP, bar)
                    .id(format!("{ID}action_bar"))
                    .child(
                        View::new(
                            class::IMAGE_BUTTON,
                            Bounds::new(
                                c.left + m.dp(4.0),
                                bar.top + (bar_h - up) / 2,
                                c.left + m.dp(4.0) + up,
                                bar.top + (bar_h - up) / 2 + up,
                            ),
                        )
                        .desc(page.navigate_up.clone())
                        .on_click("up")
                        .style(Style {
                            icon: Some("arrow_back"),
                            text_role: Some(Role::Primary),
                            ..Style::default()
                        }),
                    ),
            )
            .child(
                View::new(
                    class::TEXT_VIEW,
                    Bounds::new(
                        c.left + m.dp(24.0),
                        bar.bottom + m.dp(8.0),
                        c.right - m.dp(24.0),
                        bar.bottom + title_h - m.dp(8.0),
                    ),
                )
                .text(page.title.clone())
                .style(sized(32.0, Role::Primary, false)),
            ),
        );
        y += bar_h + title_h;
    }
    header.bounds = Bounds::new(c.left, c.top, c.right, y);
    // Android 12+'s homepage scrolls as one (`main_content_scrollable_container`): its title and
    // search bar leave the screen with the list, where a subpage's toolbar stays put.
    let homepage = page.title.is_empty();
    let mut scrolled_header = None;
    if homepage {
        scrolled_header = Some(header);
    } else {
        root = root.child(header);
    }
    if let Some(sw) = &page.main_switch {
        let bar = Bounds::new(
            c.left + m.dp(16.0),
            y + m.dp(8.0),
            c.right - m.dp(16.0),
            y + m.dp(80.0),
        );
        let sw_w = m.dp(52.0);
        let sw_h = m.dp(32.0);
        let sw_top = bar.top + (bar.height() - sw_h) / 2;
        root = root.child(
            View::new(class::LINEAR_LAYOUT, bar)
                .id(format!("{ID}switch_bar"))
                .on_click(sw.tag.clone())
                .style(Style {
                    background_role: Some(if sw.checked {
                        Role::Accent
                    } else {
                        Role::SurfaceVariant
                    }),
                    corner_radius: m.dp(28.0),
                    ..Style::default()
                })
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        Bounds::new(
                            bar.left + m.dp(24.0),
                            bar.top,
                            bar.right - sw_w - m.dp(40.0),
                            bar.bottom,
                        ),
                    )
                    .id(format!("{ID}switch_text"))
                    .text(sw.text.clone())
                    .style(sized(
                        20.0,
                        if sw.checked {
                            Role::OnAccent
                        } else {
                            Role::Primary
                        },
                        false,
                    )),
                )
                .child(
                    View::new(
                        class::SWITCH,
                        Bounds::new(
                            bar.right - m.dp(24.0) - sw_w,
                            sw_top,
                            bar.right - m.dp(24.0),
                            sw_top + sw_h,
                        ),
                    )
                    .id("android:id/switch_widget")
                    .checked(sw.checked)
                    .style(Style {
                        text_role: Some(Role::Primary),
                        ..Style::default()
                    }),
                ),
        );
        y = bar.bottom + m.dp(8.0);
    }
    let list_top = if homepage { c.top } else { y };
    let list_bounds = Bounds::new(c.left, list_top, c.right, c.bottom);
    let mut list = View::new(class::RECYCLER_VIEW, list_bounds)
        .id(format!("{ID}recycler_view"))
        .scrollable(page.scroll_tag.clone())
        .children(scrolled_header);
    for item in &page.items {
        let (row, h) = item_view(m, item, c.left, c.right, y);
        list = list.child(row);
        y += h;
    }
    root = root.child(list);
    if let Some(d) = dialog {
        root = root.child(dialog_view(m, d));
    }
    root
}

/// The icon frame at a row's start (`icon_frame` > `android:id/icon`).
fn icon_frame(m: &Metrics, icon: &'static str, left: i32, top: i32, h: i32) -> View {
    let frame = Bounds::new(left + m.dp(16.0), top, left + m.dp(72.0), top + h);
    let s = m.dp(24.0);
    let it = top + (h - s) / 2;
    View::new(class::LINEAR_LAYOUT, frame)
        .id(format!("{ID}icon_frame"))
        .child(
            View::new(
                class::IMAGE_VIEW,
                Bounds::new(
                    frame.left + m.dp(8.0),
                    it,
                    frame.left + m.dp(8.0) + s,
                    it + s,
                ),
            )
            .id("android:id/icon")
            .style(Style {
                icon: Some(icon),
                ..Style::default()
            }),
        )
}

/// Title and summary stacked and vertically centred in `[left, right) × [top, top+h)`.
fn title_block(
    m: &Metrics,
    title: &str,
    summary: &str,
    left: i32,
    right: i32,
    top: i32,
    h: i32,
) -> View {
    let th = line(m, 20.0);
    let sh = if summary.is_empty() { 0 } else { line(m, 14.0) };
    let t0 = top + (h - th - sh) / 2;
    let mut block = View::new(
        class::RELATIVE_LAYOUT,
        Bounds::new(left, top, right, top + h),
    )
    .child(
        View::new(class::TEXT_VIEW, Bounds::new(left, t0, right, t0 + th))
            .id("android:id/title")
            .text(title)
            .style(sized(20.0, Role::Primary, false)),
    );
    if !summary.is_empty() {
        block = block.child(
            View::new(
                class::TEXT_VIEW,
                Bounds::new(left, t0 + th, right, t0 + th + sh),
            )
            .id("android:id/summary")
            .text(summary)
            .style(sized(14.0, Role::Secondary, false)),
        );
    }
    block
}

/// One row at `top` (content coordinates); returns it and its height.
fn item_view(m: &Metrics, item: &Item, left: i32, right: i32, top: i32) -> (View, i32) {
    let text_left = |icon: &Option<&'static str>| {
        if icon.is_some() {
            left + m.dp(72.0)
        } else {
            left + m.dp(24.0)
        }
    };
    match item {
        Item::Nav {
            tag,
            title,
            summary,
            icon,
        } => {
            let h = m.dp(if summary.is_empty() { 64.0 } else { 80.0 });
            let mut row = View::new(class::LINEAR_LAYOUT, Bounds::new(left, top, right, top + h))
                .on_click(tag.clone());
            if let Some(i) = icon {
                row = row.child(icon_frame(m, i, left, top, h));
            }
            row = row.child(title_block(
                m,
                title,
                summary,
                text_left(icon),
                right - m.dp(24.0),
                top,
                h,
            ));
            (row, h)
        }
        Item::Toggle {
            tag,
            title,
            summary,
            checked,
            icon,
        } => {
            let h = m.dp(if summary.is_empty() { 64.0 } else { 80.0 });
            let sw_w = m.dp(52.0);
            let sw_h = m.dp(32.0);
            let frame = Bounds::new(right - m.dp(24.0) - sw_w, top, right - m.dp(24.0), top + h);
            let mut row = View::new(class::LINEAR_LAYOUT, Bounds::new(left, top, right, top + h))
                .on_click(tag.clone());
            if let Some(i) = icon {
                row = row.child(icon_frame(m, i, left, top, h));
            }
            row = row
                .child(title_block(
                    m,
                    title,
                    summary,
                    text_left(icon),
                    frame.left - m.dp(16.0),
                    top,
                    h,
                ))
                .child(
                    View::new(class::LINEAR_LAYOUT, frame)
                        .id("android:id/widget_frame")
                        .child(
                            View::new(
                                class::SWITCH,
                                Bounds::new(
                                    frame.left,
                                    top + (h - sw_h) / 2,
                                    frame.right,
                                    top + (h - sw_h) / 2 + sw_h,
                                ),
                            )
                            .id("android:id/switch_widget")
                            .checked(*checked),
                        ),
                );
            (row, h)
        }
        Item::Slider {
            tag,
            title,
            value,
            max,
            icon,
        } => {
            let h = m.dp(104.0);
            let tl = text_left(icon);
            let th = line(m, 20.0);
            let mut row = View::new(class::LINEAR_LAYOUT, Bounds::new(left, top, right, top + h));
            if let Some(i) = icon {
                row = row.child(icon_frame(m, i, left, top, h));
            }
            let t0 = top + m.dp(16.0);
            let mut bar = View::new(
                class::SEEK_BAR,
                Bounds::new(
                    tl - m.dp(16.0),
                    t0 + th + m.dp(4.0),
                    right - m.dp(8.0),
                    t0 + th + m.dp(52.0),
                ),
            )
            .id(format!("{ID}seekbar"))
            // AOSP's SeekBarPreference names its bar after the row's title for accessibility, so
            // "the alarm slider" is addressable even when the rows above have scrolled away.
            .desc(title.clone());
            bar.range = Some((*value, *max));
            bar.tag = Some(tag.clone());
            bar.flags.focusable = true;
            bar.flags.clickable = true;
            row = row
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        Bounds::new(tl, t0, right - m.dp(24.0), t0 + th),
                    )
                    .id("android:id/title")
                    .text(title.clone())
                    .style(sized(20.0, Role::Primary, false)),
                )
                .child(bar);
            (row, h)
        }
        Item::Category(title) => {
            let h = m.dp(52.0);
            let view = View::new(
                class::TEXT_VIEW,
                Bounds::new(
                    left + m.dp(24.0),
                    top + m.dp(16.0),
                    right - m.dp(24.0),
                    top + h,
                ),
            )
            .id("android:id/title")
            .text(title.clone())
            .style(sized(14.0, Role::Accent, true));
            let row =
                View::new(class::LINEAR_LAYOUT, Bounds::new(left, top, right, top + h)).child(view);
            (row, h)
        }
        Item::Field {
            tag,
            text,
            hint,
            id,
        } => {
            let h = m.dp(72.0);
            let bar = Bounds::new(
                left + m.dp(16.0),
                top + m.dp(8.0),
                right - m.dp(16.0),
                top + h - m.dp(8.0),
            );
            let field = View::new(class::EDIT_TEXT, bar)
                .id(id.clone())
                .text(text.clone())
                .hint(hint.clone())
                .editable(tag.clone())
                .style(Style {
                    icon: Some("search"),
                    background_role: Some(Role::SurfaceVariant),
                    corner_radius: bar.height() / 2,
                    text_size_sp: Some(18.0),
                    ..Style::default()
                });
            (
                View::new(class::LINEAR_LAYOUT, Bounds::new(left, top, right, top + h))
                    .child(field),
                h,
            )
        }
        Item::Info { title, summary } => {
            let h = m.dp(if summary.is_empty() { 64.0 } else { 80.0 });
            let row = View::new(class::LINEAR_LAYOUT, Bounds::new(left, top, right, top + h))
                .child(title_block(
                    m,
                    title,
                    summary,
                    left + m.dp(24.0),
                    right - m.dp(24.0),
                    top,
                    h,
                ));
            (row, h)
        }
        Item::Entity {
            title,
            summary,
            icon,
        } => {
            let h = m.dp(176.0);
            let s = m.dp(64.0);
            let cx = (left + right) / 2;
            let mut row = View::new(class::LINEAR_LAYOUT, Bounds::new(left, top, right, top + h))
                .id(format!("{ID}entity_header"));
            let mut img = View::new(
                class::IMAGE_VIEW,
                Bounds::new(
                    cx - s / 2,
                    top + m.dp(16.0),
                    cx + s / 2,
                    top + m.dp(16.0) + s,
                ),
            )
            .id(format!("{ID}entity_header_icon"))
            .desc(title.clone());
            img.style.icon = *icon;
            img.style.background_role = Some(Role::Accent);
            img.style.corner_radius = s / 2;
            let th = line(m, 24.0);
            let t0 = top + m.dp(96.0);
            row = row
                .child(img)
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        Bounds::new(left + m.dp(24.0), t0, right - m.dp(24.0), t0 + th),
                    )
                    .id(format!("{ID}entity_header_title"))
                    .text(title.clone())
                    .style(Style {
                        center_text: true,
                        ..sized(24.0, Role::Primary, false)
                    }),
                )
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        Bounds::new(
                            left + m.dp(24.0),
                            t0 + th,
                            right - m.dp(24.0),
                            t0 + th + line(m, 14.0),
                        ),
                    )
                    .id(format!("{ID}entity_header_summary"))
                    .text(summary.clone())
                    .style(Style {
                        center_text: true,
                        ..sized(14.0, Role::Secondary, false)
                    }),
                );
            (row, h)
        }
        Item::Buttons(buttons) => {
            let h = m.dp(72.0);
            let n = buttons.len().max(1) as i32;
            let gap = m.dp(12.0);
            let inner_l = left + m.dp(24.0);
            let w = (right - m.dp(24.0) - inner_l - gap * (n - 1)) / n;
            let mut row = View::new(class::LINEAR_LAYOUT, Bounds::new(left, top, right, top + h));
            for (i, b) in buttons.iter().enumerate() {
                let l = inner_l + i as i32 * (w + gap);
                row = row.child(
                    View::new(
                        class::BUTTON,
                        Bounds::new(l, top + m.dp(12.0), l + w, top + h - m.dp(12.0)),
                    )
                    .id(b.resource_id.clone())
                    .text(b.label.clone())
                    .on_click(b.tag.clone())
                    .enabled(b.enabled)
                    .style(Style {
                        background_role: Some(Role::SurfaceVariant),
                        corner_radius: m.dp(24.0),
                        text_role: Some(Role::Accent),
                        bold: true,
                        ..Style::default()
                    }),
                );
            }
            (row, h)
        }
    }
}

/// An AlertDialog over a dimmed screen: title, message, Cancel (`button2`) and OK (`button1`).
fn dialog_view(m: &Metrics, d: &Dialog) -> View {
    let c = m.content;
    let w = (c.width() - m.dp(48.0)).min(m.dp(360.0));
    let h = m.dp(216.0);
    let left = c.left + (c.width() - w) / 2;
    let top = c.top + (c.height() - h) / 2;
    let panel = Bounds::new(left, top, left + w, top + h);
    let pad = m.dp(24.0);
    let btn_w = m.dp(96.0);
    let btn_h = m.dp(40.0);
    let btn_top = panel.bottom - pad - btn_h;
    View::new(class::FRAME_LAYOUT, c)
        .style(Style {
            background: Some([0, 0, 0, 0x66]),
            ..Style::default()
        })
        .child(
            View::new(class::LINEAR_LAYOUT, panel)
                .id("android:id/parentPanel")
                .style(Style {
                    background_role: Some(Role::SurfaceVariant),
                    corner_radius: m.dp(28.0),
                    ..Style::default()
                })
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        Bounds::new(
                            panel.left + pad,
                            panel.top + pad,
                            panel.right - pad,
                            panel.top + pad + line(m, 24.0),
                        ),
                    )
                    .id("android:id/alertTitle")
                    .text(d.title.clone())
                    .style(sized(24.0, Role::Primary, false)),
                )
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        Bounds::new(
                            panel.left + pad,
                            panel.top + pad + line(m, 24.0) + m.dp(16.0),
                            panel.right - pad,
                            btn_top - m.dp(8.0),
                        ),
                    )
                    .id("android:id/message")
                    .text(d.message.clone())
                    .style(sized(14.0, Role::Secondary, false)),
                )
                .child(
                    View::new(
                        class::BUTTON,
                        Bounds::new(
                            panel.right - pad - 2 * btn_w - m.dp(8.0),
                            btn_top,
                            panel.right - pad - btn_w - m.dp(8.0),
                            btn_top + btn_h,
                        ),
                    )
                    .id("android:id/button2")
                    .text(d.cancel.clone())
                    .on_click("dialog:cancel")
                    .style(Style {
                        background: Some([0, 0, 0, 0]),
                        text_role: Some(Role::Accent),
                        bold: true,
                        ..Style::default()
                    }),
                )
                .child(
                    View::new(
                        class::BUTTON,
                        Bounds::new(
                            panel.right - pad - btn_w,
                            btn_top,
                            panel.right - pad,
                            btn_top + btn_h,
                        ),
                    )
                    .id("android:id/button1")
                    .text(d.confirm.clone())
                    .on_click("dialog:ok")
                    .style(Style {
                        background: Some([0, 0, 0, 0]),
                        text_role: Some(Role::Accent),
                        bold: true,
                        ..Style::default()
                    }),
                ),
        )
}
